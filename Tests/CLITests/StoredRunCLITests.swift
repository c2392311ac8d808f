import Foundation
import Testing

/// Issue 25, "stored runs are checked, not trusted": archives edited with `tar` as a user (or an
/// attacker on a CI cache) would edit them. `compare` (the CI gate), `show` and `folds` exit 2 with
/// one line naming the file, the profile and the number that disagrees; `--junit` / `--html` onto
/// an input exit 64 and leave it untouched.
@Suite struct StoredRunCLITests {
    typealias CLI = CommandLineTests

    /// `tar` with these arguments; its status.
    static func tar(_ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/tar")
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// A copy of `archive` at `copy` with `edit` applied to `member`, unpacked and packed again by
    /// GNU tar (ustar, members in their order).
    static func edited(_ archive: String, _ member: String, _ copy: String, _ edit: (String) -> String) throws {
        let folder = copy + ".d"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let (listed, names) = try tar(["--zstd", "-tf", archive])
        #expect(listed == 0)
        #expect(try tar(["--zstd", "-xf", archive, "-C", folder]).0 == 0)
        let path = folder + "/" + member
        try edit(try String(contentsOfFile: path, encoding: .utf8)).write(
            toFile: path, atomically: true, encoding: .utf8)
        let members = names.split(separator: "\n").map(String.init)
        #expect(try tar(["--zstd", "--format=ustar", "-cf", copy, "-C", folder] + members).0 == 0)
    }

    /// `eval` of CommandLineTests' 40 scores (20 bona fide accepted at 0.45, 20 attacks rejected).
    static func base(_ dir: String) throws -> String {
        CLI.scores(dir + "/base.csv")
        let result = try CLI.run(["eval", "--scores", dir + "/base.csv", "--threshold", "0.45", "--out", dir + "/base"])
        #expect(result.status == 0, "\(result.err)")
        return dir + "/base/results.tar.zst"
    }

    /// exit 2 from compare, show and folds, each with one line ending in `expected`.
    static func refused(_ base: String, _ copy: String, _ expected: String) throws {
        let compare = try CLI.run(["compare", base, copy])
        #expect(compare.status == 2 && compare.out.isEmpty, "\(compare.out)")
        #expect(compare.err == "padbench compare: not comparable: \(copy)\(expected)\n")
        let show = try CLI.run(["show", copy])
        #expect(show.status == 2 && show.err == "padbench show: \(copy)\(expected)\n", "\(show.err)")
        let folds = try CLI.run(["folds", base, copy])
        #expect(folds.status == 2 && folds.err == "padbench folds: \(copy)\(expected)\n", "\(folds.err)")
    }

    @Test func everyBonaFideRejectedInDecisionsExits2() throws {
        let dir = CLI.folder()
        let base = try Self.base(dir)
        #expect(try CLI.run(["compare", base, base]).status == 0)
        #expect(try CLI.run(["show", base]).status == 0)
        try Self.edited(base, "decisions.csv", dir + "/rejected.tar.zst") {
            $0.replacingOccurrences(of: ",bonafide,,ok,1,,", with: ",bonafide,,ok,0,score,below the threshold")
        }
        try Self.refused(
            base, dir + "/rejected.tar.zst",
            ":results.json: profile scores on all has BPCER 0/20, decisions.csv gives 20/20")
    }

    @Test func aClaimedIntervalThatIsNotTheCountsExits2() throws {
        let dir = CLI.folder()
        let base = try Self.base(dir)
        try Self.edited(base, "results.json", dir + "/claimed.tar.zst") { text in
            var object = try! JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
            var profiles = object["profiles"] as! [[String: Any]]
            var reported = profiles[0]["reported"] as! [String: Any]
            reported["bpcer"] = ["errors": 18, "total": 20, "value": 0.9, "ciLow": 0, "ciHigh": 0.168]
            profiles[0]["reported"] = reported
            object["profiles"] = profiles
            return String(decoding: try! JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        }
        try Self.refused(
            base, dir + "/claimed.tar.zst",
            ":results.json: profile scores BPCER on all 18/20 has 95% CI [0.0%, 16.8%], its counts give [68.3%, 98.8%]")
    }

    @Test func decisionsCutOrDoubledExit2() throws {
        let dir = CLI.folder()
        let base = try Self.base(dir)
        try Self.edited(base, "decisions.csv", dir + "/cut.tar.zst") {
            $0.split(separator: "\n").prefix(20).joined(separator: "\n") + "\n"
        }
        try Self.refused(
            base, dir + "/cut.tar.zst",
            ":decisions.csv: profile scores has 19 rows, the manifest 40 samples (rows missing)")
        try Self.edited(base, "decisions.csv", dir + "/doubled.tar.zst") { text in
            let lines = text.split(separator: "\n")
            return ([lines[0]] + lines.dropFirst().flatMap { [$0, $0] }).joined(separator: "\n") + "\n"
        }
        try Self.refused(
            base, dir + "/doubled.tar.zst",
            ":decisions.csv: profile scores has 80 rows, the manifest 40 samples (rows doubled)")
    }

    /// The profile YAML kept in the archive, its threshold edited: every rate still matches
    /// decisions.csv, but its definition hash is not the manifest's (compare re-decides with it).
    @Test func anEditedStoredProfileExits2() throws {
        let dir = CLI.folder()
        let base = try Self.base(dir)
        let copy = dir + "/profile.tar.zst"
        try Self.edited(base, "profiles/scores.yaml", copy) {
            #expect($0.contains("0.45"), "\($0)")
            return $0.replacingOccurrences(of: "0.45", with: "0.55")
        }
        for arguments in [["compare", base, copy], ["show", copy], ["folds", base, copy]] {
            let refused = try CLI.run(arguments)
            #expect(refused.status == 2, "\(arguments): \(refused.err)")
            #expect(
                refused.err.contains("\(copy):profiles/scores.yaml has definition hash ")
                    && refused.err.hasSuffix(": the profile was edited after the run\n"), "\(refused.err)")
        }
    }

    /// The manifest's counts (what `show` prints as `counts:`) moved one sample from ok to failed:
    /// they still add up, but decisions.csv marks no failed sample.
    @Test func countsThatAreNotTheDecisionsExit2() throws {
        let dir = CLI.folder()
        let base = try Self.base(dir)
        try Self.edited(base, "manifest.json", dir + "/counts.tar.zst") { text in
            var object = try! JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
            var counts = object["counts"] as! [String: Int]
            #expect(counts["ok"] == 40 && counts["failed"] == 0 && counts["samples"] == 40, "\(counts)")
            counts["ok"] = 39
            counts["failed"] = 1
            object["counts"] = counts
            return String(decoding: try! JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        }
        try Self.refused(
            base, dir + "/counts.tar.zst",
            ":manifest.json: counts 1 failed samples, decisions.csv marks 0 failed for profile scores")
    }

    /// A member twice (decisions.csv packed again at the end): `tar -x` keeps the last, a streaming
    /// reader meets the first. Refused when the archive is opened, naming both entries.
    @Test func aMemberTwiceExits2() throws {
        let dir = CLI.folder()
        let base = try Self.base(dir)
        let folder = dir + "/twice.d", copy = dir + "/twice.tar.zst"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let (_, names) = try Self.tar(["--zstd", "-tf", base])
        #expect(try Self.tar(["--zstd", "-xf", base, "-C", folder]).0 == 0)
        let members = names.split(separator: "\n").map(String.init)
        let position = try #require(members.firstIndex(of: "decisions.csv"))
        // A second copy of its own (the same file twice would be packed as a hard link to the first).
        try FileManager.default.createDirectory(atPath: folder + "/again", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: folder + "/decisions.csv", toPath: folder + "/again/decisions.csv")
        #expect(
            try Self.tar(
                ["--zstd", "--format=ustar", "-cf", copy, "-C", folder] + members + ["-C", "again", "decisions.csv"]
            ).0 == 0)
        // compare cannot gate on it (2); show cannot read it (1), as any damaged archive.
        for (arguments, status) in [(["compare", base, copy], Int32(2)), (["show", copy], 1)] {
            let refused = try CLI.run(arguments)
            #expect(refused.status == status, "\(arguments): \(refused.err)")
            #expect(
                refused.err.hasSuffix(
                    "\(copy): member 'decisions.csv' appears twice (entries \(position + 1) and \(members.count + 1)): "
                        + "edited or damaged\n"), "\(refused.err)")
        }
    }

    /// `compare A B --junit B` overwrote the archive B with XML; a link to it too.
    @Test func reportsOntoAnInputAreRefused() throws {
        let dir = CLI.folder()
        let base = try Self.base(dir)
        let before = try Data(contentsOf: URL(fileURLWithPath: base))
        let junit = try CLI.run(["compare", dir + "/base", dir + "/base", "--junit", base])
        #expect(junit.status == 64)
        #expect(
            junit.err
                == "padbench compare: --junit \(base) is the input \(dir)/base/results.tar.zst; refusing to overwrite it\n"
        )
        try FileManager.default.createSymbolicLink(atPath: dir + "/link.html", withDestinationPath: base)
        let html = try CLI.run(["compare", base, base, "--html", dir + "/link.html"])
        #expect(html.status == 64 && html.err.split(separator: "\n").count == 1, "\(html.err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: base)) == before)
        let both = try CLI.run(["compare", base, base, "--junit", dir + "/r.xml", "--html", dir + "/r.xml"])
        #expect(both.status == 64 && both.err == "padbench compare: --junit and --html name the same file\n")
        // Elsewhere they are written.
        let fine = try CLI.run(["compare", base, base, "--junit", dir + "/r.xml", "--html", dir + "/r.html"])
        #expect(fine.status == 0 && FileManager.default.fileExists(atPath: dir + "/r.html"))
    }
}

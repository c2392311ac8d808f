import Foundation
import Testing

/// Legal but extreme input never traps, and every read is bounded (issue 25), as a user meets
/// it: exit codes, one-line messages, the run folder not created by a refused command.
@Suite struct BoundedInputCLITests {
    static let root = ProfileOutputsCLITests.root

    static func run(_ arguments: [String]) throws -> CommandLineTests.Result {
        try CommandLineTests.run(arguments, in: root)
    }

    /// `sh -c "ulimit ...; exec padbench ..."`: the same binary under a resource limit.
    static func limited(_ limit: String, _ arguments: [String]) throws -> CommandLineTests.Result {
        let quoted = ([CommandLineTests.executable] + arguments).map { "'" + $0 + "'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "ulimit \(limit) && exec \(quoted)"]
        process.currentDirectoryURL = URL(fileURLWithPath: root)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CommandLineTests.Result(
            status: process.terminationStatus, out: String(decoding: outData, as: UTF8.self),
            err: String(decoding: errData, as: UTF8.self))
    }

    /// Int.max samples in flight trapped (window = concurrency x 8 overflowed) after the run
    /// folder existed: now a usage error before anything is created.
    @Test func hugeConcurrencyIsAUsageErrorBeforeTheRunFolder() throws {
        let out = CommandLineTests.folder() + "/run"
        let r = try Self.run([
            "bench", "--dataset", "datasets/sample", "--concurrency", "9223372036854775807", "--quiet", "--out", out,
        ])
        #expect(r.status == 64, "\(r.err)")
        #expect(r.err.contains("--concurrency must be 1 to 1024 samples at once, got 9223372036854775807"), "\(r.err)")
        #expect(
            !FileManager.default.fileExists(atPath: out) && !FileManager.default.fileExists(atPath: out + ".partial"))
    }

    /// `--external decode=...` duplicated the `decode_ns` column; built-in estimator names and
    /// the timing steps are refused, as is a name given twice.
    @Test(arguments: ["decode", "sample_total", "face", "quality"])
    func externalNamedLikeABuiltInStepIsRefused(_ name: String) throws {
        let out = CommandLineTests.folder() + "/run"
        let r = try Self.run([
            "bench", "--dataset", "datasets/sample", "--external", "\(name)=python3 examples/external/pad_estimator.py",
            "--quiet", "--out", out,
        ])
        #expect(r.status == 64, "\(r.err)")
        #expect(r.err.contains("external estimator name '\(name)' is taken by padbench's own"), "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: out + ".partial"))
    }

    /// `fused.*` names a profile's fused score: no external estimator may declare outputs under it.
    @Test func externalNamedFusedIsRefused() throws {
        let out = CommandLineTests.folder() + "/run"
        let r = try Self.run([
            "bench", "--dataset", "datasets/sample", "--external", "fused=python3 examples/external/pad_estimator.py",
            "--quiet", "--out", out,
        ])
        #expect(r.status == 64, "\(r.err)")
        #expect(r.err.contains("external estimator name 'fused' is reserved for a profile's fused score"), "\(r.err)")
        #expect(
            !FileManager.default.fileExists(atPath: out + ".partial") && !FileManager.default.fileExists(atPath: out))
    }

    /// An external whose describe lists an output twice crashed bench and stranded a `.partial`.
    @Test func externalDescribingAnOutputTwiceIsOneErrorAndNoPartial() throws {
        let folder = CommandLineTests.folder()
        let script = """
            import json, sys
            for line in sys.stdin:
                r = json.loads(line)
                if r.get("describe"):
                    print(json.dumps({"outputs": ["score", "score"], "version": "1"}), flush=True)
                else:
                    print(json.dumps({"id": r["id"], "outputs": {"score": 0.5}}), flush=True)
            """
        try script.write(toFile: folder + "/twice.py", atomically: true, encoding: .utf8)
        let out = folder + "/run"
        let r = try Self.run([
            "bench", "--dataset", "datasets/sample", "--estimators", "image", "--external",
            "mine=python3 \(folder)/twice.py", "--quiet", "--out", out,
        ])
        #expect(r.status == 1, "\(r.err)")
        #expect(r.err.contains("answered describe with output 'score' twice"), "\(r.err)")
        #expect(r.err.split(separator: "\n").count == 1, "\(r.err)")
        #expect(
            !FileManager.default.fileExists(atPath: out + ".partial") && !FileManager.default.fileExists(atPath: out))
    }

    /// With 8 descriptors the face cascade used to be "not found" (FileManager.contents returned
    /// nil for EMFILE), with 6 padbench trapped; with 14 libdispatch's pool monitor trapped mid-run
    /// (exit 132, no message: it could not open /proc/self/task/*/stat). Now one line before
    /// anything starts, saying what ran out and what is needed, and no run folder.
    @Test(arguments: [6, 8, 14, 31])
    func tooFewDescriptorsSayTooManyOpenFiles(_ descriptors: Int) throws {
        let out = CommandLineTests.folder() + "/run"
        let r = try Self.limited(
            "-n \(descriptors)",
            [
                "bench", "--dataset", "datasets/sample", "--profiles", "basic", "--estimators", "face", "--quiet",
                "--out", out,
            ])
        #expect(r.status == 1, "\(r.status) \(r.err)")
        #expect(
            r.err == "Error: too many open files: the descriptor limit (ulimit -n) is \(descriptors); "
                + "padbench needs at least 32\n")
        #expect(!FileManager.default.fileExists(atPath: out + ".partial"))
    }

    /// `ulimit -v 200000` (195 MiB) trapped inside the cascade parser (SIGSEGV, exit 139): now one
    /// line before anything starts, and no run folder. Tested at 586 MiB: below about 200 MiB the
    /// debug build cannot even map its shared libraries (the loader exits 127 before padbench runs).
    @Test func tinyAddressSpaceSaysOutOfMemory() throws {
        let out = CommandLineTests.folder() + "/run"
        let r = try Self.limited(
            "-v 600000", ["bench", "--dataset", "datasets/sample", "--estimators", "face", "--quiet", "--out", out])
        #expect(r.status == 1, "\(r.status) \(r.err.suffix(300))")
        #expect(
            r.err == "Error: out of memory: the address-space limit (ulimit -v) is 585 MiB; "
                + "padbench needs at least 1024 MiB\n")
        #expect(!FileManager.default.fileExists(atPath: out + ".partial"))
    }

    /// 2,000 species of two attacks each (a species column holding capture ids): curves.csv's
    /// blocks asked for 250,000 rows x 2,000 columns of text per worker (about 12 GB each) and
    /// outputs.csv's curve held points x species counts; under a 4 GB address-space limit the
    /// run now completes.
    @Test func thousandsOfSpeciesRunInBoundedMemory() throws {
        let folder = CommandLineTests.folder()
        var text = "id,label,species,score\n"
        for i in 0..<2000 { text += "bf\(i),bonafide,,\(Double(i % 997) / 997)\n" }
        for s in 0..<2000 {
            for j in 0..<2 { text += "a\(s)-\(j),attack,capture\(s),\(Double((s * 7 + j * 131) % 991) / 1200)\n" }
        }
        try text.write(toFile: folder + "/scores.csv", atomically: true, encoding: .utf8)
        let r = try Self.limited(
            "-v 4000000", ["eval", "--scores", folder + "/scores.csv", "--threshold", "0.5", "--out", folder + "/run"])
        #expect(r.status == 0, "\(r.status) \(r.err.prefix(400))")
        let outputs = try String(contentsOfFile: folder + "/run/outputs.csv", encoding: .utf8)
        #expect(outputs.split(separator: "\n").count == 1 + 2000 + 1)
        let curves = try String(contentsOfFile: folder + "/run/curves.csv", encoding: .utf8)
        let header = curves.prefix { $0 != "\n" }.split(separator: ",", omittingEmptySubsequences: false)
        #expect(header.count == 6 + 2000)
    }
}

/// Names from the data (ids, paths, species, subjects, group labels) are quoted in messages and
/// summaries at most about 200 characters long: a 5,000-character id printed whole made one
/// line of 8,075 characters in `dataset check`.
@Suite struct LongNamesCLITests {
    @Test func everyLineStaysShortWhenNamesAreThousandsOfCharactersLong() throws {
        let dir = try MergeCLITests.sampleSubset(CommandLineTests.folder() + "/data", count: 8)
        var lines = try String(contentsOfFile: dir + "/manifest.csv", encoding: .utf8)
            .split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let long = { (c: Character) in String(repeating: c, count: 5_000) }
        lines[0] += ["id", "group.sex"]
        for k in 1..<lines.count { lines[k] += ["s\(k)", "f"] }
        lines[1][lines[0].firstIndex(of: "id")!] = long("I")
        lines[2][lines[0].firstIndex(of: "subject")!] = long("U")
        lines[3][lines[0].firstIndex(of: "group.sex")!] = long("G")
        let attack = try #require(lines.indices.first { $0 > 0 && lines[$0][1] == "attack" })
        lines[attack][2] = long("S")
        var missing = lines[1]
        missing[0] = "eval/" + String(repeating: "m", count: 4_000) + ".jpg"
        missing[lines[0].firstIndex(of: "id")!] = "missing"
        lines.append(missing)
        try (lines.map { $0.joined(separator: ",") }.joined(separator: "\n") + "\n").write(
            toFile: dir + "/manifest.csv", atomically: true, encoding: .utf8)

        let check = try CommandLineTests.run(["dataset", "check", dir])
        #expect(check.status == 1)
        #expect(check.out.contains("./eval/mmm") || check.out.contains("/eval/mmm"), "\(check.out.prefix(2000))")
        let run = CommandLineTests.folder() + "/run"
        let bench = try CommandLineTests.run(["bench", "--dataset", dir, "--estimators", "quality", "--out", run])
        #expect(bench.status == 0, "\(bench.err.prefix(2000))")
        let show = try CommandLineTests.run(["show", run])
        for (name, text) in [
            ("dataset check", check.out + check.err), ("bench", bench.out + bench.err), ("show", show.out),
        ] {
            let longest = text.split(separator: "\n").map(\.count).max() ?? 0
            #expect(longest < 600, "\(name): a line of \(longest) characters")
        }
    }
}

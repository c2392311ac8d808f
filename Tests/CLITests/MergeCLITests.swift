import Foundation
import Testing

/// `padbench merge` and `eval --archive` as a user runs them: three shards of the sample dataset
/// merge into the reports one run gives (rows in id order), and re-deciding the merged archive
/// gives the same summary again.
@Suite struct MergeCLITests {
    static func csvLines(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// `samples.csv` rows without the timing columns (`*_ns`, measured again in every run).
    static func untimed(_ path: String) throws -> [String] {
        let lines = try csvLines(path)
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false)
        let keep = header.indices.filter { !header[$0].hasSuffix("_ns") }
        return lines.map { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            return keep.map { String(fields[$0]) }.joined(separator: ",")
        }
    }

    /// The first `count` rows of the committed sample's manifest (with their splits, subjects and
    /// face boxes) and their images: four debug-build benches of 16 images take seconds, not minutes.
    static func sampleSubset(_ dir: String, count: Int) throws -> String {
        let source = ProfileOutputsCLITests.root + "/datasets/sample"
        let lines = try csvLines(source + "/manifest.csv")
        for line in lines.dropFirst().prefix(count) {
            let path = String(line.split(separator: ",")[0])
            try FileManager.default.createDirectory(
                atPath: dir + "/" + (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: source + "/" + path, toPath: dir + "/" + path)
        }
        try (lines.prefix(count + 1).joined(separator: "\n") + "\n").write(
            toFile: dir + "/manifest.csv", atomically: true, encoding: .utf8)
        return dir
    }

    @Test func shardsMergeToTheSingleRunAndEvalOfTheMergeAgrees() throws {
        let dir = CommandLineTests.folder()
        let data = try Self.sampleSubset(dir + "/data", count: 16)
        let common = ["--dataset", data, "--profiles", "basic,idemia-status", "--quiet"]
        #expect(try ProfileOutputsCLITests.padbench(["bench"] + common + ["--out", dir + "/single"]).status == 0)
        var archives: [String] = []
        for k in 1...3 {
            let r = try ProfileOutputsCLITests.padbench(
                ["bench"] + common + ["--shard", "\(k)/3", "--out", dir + "/s\(k)"])
            #expect(r.status == 0, "\(r.stderr)")
            archives.append(dir + "/s\(k)/results.tar.zst")
        }
        let merged = try ProfileOutputsCLITests.padbench(["merge"] + archives + ["--out", dir + "/merged"])
        #expect(merged.status == 0, "\(merged.stderr)")
        for file in ["summary.csv", "per_species.csv", "reject_reasons.csv", "curves.csv", "outputs.csv"] {
            #expect(
                try Self.csvLines(dir + "/single/" + file) == Self.csvLines(dir + "/merged/" + file),
                "\(file) differs between one run and the merged shards")
        }
        // The same rows, in id order.
        let single = try Self.untimed(dir + "/single/samples.csv"), rows = try Self.untimed(dir + "/merged/samples.csv")
        #expect(rows.count == 17 && rows[0] == single[0])
        #expect(
            Array(rows.dropFirst())
                == single.dropFirst().sorted { $0.split(separator: ",")[0] < $1.split(separator: ",")[0] })
        #expect(
            try Self.csvLines(dir + "/merged/decisions.csv").sorted()
                == Self.csvLines(dir + "/single/decisions.csv").sorted())

        let eval = try ProfileOutputsCLITests.padbench([
            "eval", "--archive", dir + "/merged/results.tar.zst", "--profiles", "basic,idemia-status", "--out",
            dir + "/eval",
        ])
        #expect(eval.status == 0, "\(eval.stderr)")
        #expect(try Self.csvLines(dir + "/eval/summary.csv") == Self.csvLines(dir + "/single/summary.csv"))
        #expect(try Self.untimed(dir + "/eval/samples.csv") == rows)

        // A shard missing: one line naming the set, nothing written.
        let partial = try ProfileOutputsCLITests.padbench(["merge"] + archives.prefix(2) + ["--out", dir + "/partial"])
        #expect(partial.status == 1 && partial.stderr.contains("do not form a complete set"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/partial/samples.csv"))
    }
}

/// `merge` of shards benched with `--comparisons`: the merged run keeps the shards' comparison
/// file and threshold rule and computes the whole-system files on the merged decisions, byte for
/// byte what one run over the dataset writes; shards whose comparators differ are refused.
@Suite struct MergeComparisonsCLITests {
    typealias CLI = CommandLineTests

    /// Comparisons of the 16 samples: per bona fide presentation a genuine comparison (0.65, 0.75,
    /// 0.85, 0.95 in turn) and two zero-effort ones, 0.1 ... 0.8 over each split's eight; the
    /// attacks alternate 0.95 and 0.05. At FMR <= 0.25 on the dev impostors the threshold is 0.7
    /// (2 of the 8 at or above it, bob.measure far_threshold); on eval, 2 of the 4 attacks match
    /// (IAPMR 0.5) and 1 of the 4 genuine scores is below (FNMR 0.25), counted by hand.
    static func comparisons(_ data: String, to path: String, attackScore: String = "0.95") throws {
        let rows = try MergeCLITests.csvLines(data + "/manifest.csv").dropFirst().map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        var text = "id,type,split,score\n"
        var genuine: [String: Int] = [:], attacks: [String: Int] = [:]
        for row in rows {
            let (id, split) = (row[0], row[3])
            if row[1] == "bonafide" {
                let k = genuine[split, default: 0]
                genuine[split] = k + 1
                text += "\(id),genuine,\(split),\(["0.65", "0.75", "0.85", "0.95"][k % 4])\n"
                text += "zero-\(split)-\(k)a,zero_effort,\(split),0.\(2 * k + 1)\n"
                text += "zero-\(split)-\(k)b,zero_effort,\(split),0.\(2 * k + 2)\n"
            } else {
                let k = attacks[split, default: 0]
                attacks[split] = k + 1
                text += "\(id),attack,\(split),\(k % 2 == 0 ? attackScore : "0.05")\n"
            }
        }
        #expect(genuine == ["dev": 4, "eval": 4] && attacks == ["dev": 4, "eval": 4], "\(genuine) \(attacks)")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test func shardsWithComparisonsMergeToTheSingleRunsSystemFiles() throws {
        let dir = CLI.folder()
        let data = try MergeCLITests.sampleSubset(dir + "/data", count: 16)
        try Self.comparisons(data, to: dir + "/comparisons.csv")
        let common = ["--dataset", data, "--quiet"]
        let comparator = ["--comparisons", dir + "/comparisons.csv", "--comparator-fmr", "0.25"]
        let single = try CLI.run(["bench"] + common + comparator + ["--out", dir + "/single"])
        #expect(single.status == 0, "\(single.err)")
        var archives: [String] = []
        for k in 1...3 {
            let r = try CLI.run(["bench"] + common + comparator + ["--shard", "\(k)/3", "--out", dir + "/s\(k)"])
            #expect(r.status == 0, "\(r.err)")
            archives.append(dir + "/s\(k)/results.tar.zst")
        }
        let merged = try CLI.run(["merge"] + archives + ["--out", dir + "/merged"])
        #expect(merged.status == 0, "\(merged.err)")
        for file in ["comparisons.csv", "vulnerability.csv", "epsc.csv"] {
            let one = FileManager.default.contents(atPath: dir + "/single/" + file)
            #expect(one != nil && one == FileManager.default.contents(atPath: dir + "/merged/" + file), "\(file)")
        }
        let rows = try VulnerabilityCLITests.rows(dir + "/merged/vulnerability.csv")
        let iapmr = rows.first { $0["profile"] == "" && $0["metric"] == "iapmr" && $0["species"] == "" }
        let fnmr = rows.first { $0["metric"] == "fnmr" }
        #expect(iapmr?["errors"] == "2" && iapmr?["n"] == "4" && iapmr?["value"] == "0.5", "\(rows)")
        #expect(
            fnmr?["errors"] == "1" && fnmr?["n"] == "4" && iapmr?["threshold"] == "0.7" && iapmr?["split"] == "eval")
        #expect(rows.contains { $0["profile"] == "basic" && $0["metric"] == "iapar" && $0["species"] == "" })
        let manifest = try String(contentsOfFile: dir + "/merged/manifest.json", encoding: .utf8)
        #expect(manifest.contains("\"comparator_threshold\" : \"fmr=0.25\""))
        let members = try StoredRunCLITests.tar(["--zstd", "-tf", dir + "/merged/results.tar.zst"]).1
        #expect(["comparisons.csv", "vulnerability.csv", "epsc.csv"].allSatisfy { members.contains($0) }, "\(members)")
        // The merged archive agrees with itself: show recomputes vulnerability.csv from it.
        let show = try CLI.run(["show", dir + "/merged"])
        #expect(show.status == 0, "\(show.err)")

        try Self.comparisons(data, to: dir + "/other.csv", attackScore: "0.9")
        let line = try MergeCLITests.csvLines(dir + "/other.csv").firstIndex { $0.hasSuffix(",0.9") }! + 1
        let wrong: [(name: String, options: [String], error: String)] = [
            (
                "none", [],
                "s-none/results.tar.zst: no comparisons.csv (benched without --comparisons), but \(archives[0])"
            ),
            (
                "fixed", ["--comparisons", dir + "/comparisons.csv", "--comparator-threshold", "0.5"],
                "s-fixed/results.tar.zst: comparator threshold --comparator-threshold 0.5, \(archives[0]) "
                    + "--comparator-fmr 0.25"
            ),
            (
                "other", ["--comparisons", dir + "/other.csv", "--comparator-fmr", "0.25"],
                "s-other/results.tar.zst:comparisons.csv:\(line): not what \(archives[0]) holds"
            ),
        ]
        for (name, options, error) in wrong {
            let shard = try CLI.run(["bench"] + common + options + ["--shard", "3/3", "--out", dir + "/s-\(name)"])
            #expect(shard.status == 0, "\(shard.err)")
            let out = dir + "/refused-\(name)"
            let refused = try CLI.run(
                ["merge"] + archives.prefix(2) + [dir + "/s-\(name)/results.tar.zst", "--out", out])
            #expect(refused.status == 1 && refused.err.contains(error), "\(name): \(refused.err)")
            #expect(refused.err.split(separator: "\n").count == 1, "\(refused.err)")
            #expect(!FileManager.default.fileExists(atPath: out))
        }
    }
}

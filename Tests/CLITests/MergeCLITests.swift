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

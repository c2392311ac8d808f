import Foundation
import Testing
@testable import PadArchive
@testable import PadBench
@testable import PadDataset
@testable import PadImport
@testable import PadMetrics
@testable import PadProfiles
@testable import PadReport
@testable import PadRuns

/// issue 30: every kind of run carries the samples' labels (labels.csv) and so writes the same
/// fairness.csv and attributes.csv as the bench it stands for: `eval --archive` and `merge` of a
/// labelled bench, `import` of a labelled dataset, `eval --scores` of a generic file with
/// `group.*` / `attr.*` columns. On main at 8063f82 none of them wrote labels.csv.
@Suite struct RunLabelsTests {
    static let rows = RunAnalysesTests.rows

    static func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    /// Re-deciding a labelled bench run keeps its labels: the same fairness and attribute files.
    @Test func evalArchiveKeepsTheLabels() async throws {
        let root = Fixture.folder()
        _ = try RunAnalysesTests.writeDataset(root)
        let profile = try ProfileLoader(catalogue: EstimatorCatalog.knownOutputs()).builtIn("basic")
        let bench = try await BenchRunner().run(
            BenchJob(
                dataset: try DatasetLoader().load(root), profiles: [profile], outputFolder: root + "/bench",
                concurrency: 2))
        let eval = try EvalRunner().evaluateArchive(
            bench.archivePath, profiles: [profile], outputFolder: root + "/eval", commandLine: [])
        for file in ["labels.csv", "fairness.csv", "attributes.csv", "edc.csv"] {
            #expect(try Self.text(root + "/bench/" + file) == Self.text(root + "/eval/" + file), "\(file)")
        }
        #expect(try ResultArchiveReader(path: eval.archivePath).contains("labels.csv"))
        try StoredRun(path: eval.archivePath).verify()
    }

    /// Shards of a labelled dataset merge into the single run's label files.
    @Test func mergedShardsGiveTheSingleRunsLabelFiles() async throws {
        let root = Fixture.folder()
        _ = try RunAnalysesTests.writeDataset(root)
        let dataset = try DatasetLoader().load(root)
        let profile = try ProfileLoader(catalogue: EstimatorCatalog.knownOutputs()).builtIn("basic")
        _ = try await BenchRunner().run(
            BenchJob(dataset: dataset, profiles: [profile], outputFolder: root + "/single", concurrency: 2))
        var parts: [String] = []
        for k in 1...2 {
            parts.append(
                try await BenchRunner().run(
                    BenchJob(
                        dataset: dataset, profiles: [profile], outputFolder: root + "/shard\(k)", concurrency: 2,
                        shard: Shard(index: k, count: 2))
                ).archivePath)
        }
        _ = try MergeRunner().merge(parts, outputFolder: root + "/merged")
        // labels.csv follows samples.csv: dataset order in one run, id order in a merge.
        #expect(
            try Set(Self.text(root + "/single/labels.csv").split(separator: "\n"))
                == Set(Self.text(root + "/merged/labels.csv").split(separator: "\n")))
        #expect(try Self.rows(root + "/merged/labels.csv").count == 16)
        for file in ["fairness.csv", "attributes.csv", "edc.csv"] {
            #expect(try Self.text(root + "/single/" + file) == Self.text(root + "/merged/" + file), "\(file)")
        }
    }

    /// Shards whose label columns differ (one measured before a manifest gained a column) are
    /// refused, naming the shard; so is a shard without labels beside one with them.
    @Test func shardsWithOtherLabelsAreRefused() async throws {
        let root = Fixture.folder()
        _ = try RunAnalysesTests.writeDataset(root)
        let profile = try ProfileLoader(catalogue: EstimatorCatalog.knownOutputs()).builtIn("basic")
        func shard(_ k: Int, _ folder: String) async throws -> String {
            try await BenchRunner().run(
                BenchJob(
                    dataset: try DatasetLoader().load(root), profiles: [profile], outputFolder: root + "/" + folder,
                    concurrency: 2, shard: Shard(index: k, count: 2))
            ).archivePath
        }
        let first = try await shard(1, "s1")
        let manifest = try Self.text(root + "/manifest.csv")
        try manifest.replacingOccurrences(of: "group.sex", with: "group.age").write(
            toFile: root + "/manifest.csv", atomically: true, encoding: .utf8)
        let renamed = try await shard(2, "s2")
        #expect {
            try MergeRunner().merge([first, renamed], outputFolder: root + "/m1")
        } throws: { error in
            "\(error)".contains("\(renamed):labels.csv: label columns group.age, attr.blurry differ from \(first)'s")
        }
        let unlabelled = manifest.split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).prefix(5).joined(separator: ",")
        }
        try (unlabelled.joined(separator: "\n") + "\n").write(
            toFile: root + "/manifest.csv", atomically: true, encoding: .utf8)
        let bare = try await shard(2, "s3")
        #expect {
            try MergeRunner().merge([first, bare], outputFolder: root + "/m2")
        } throws: { error in
            "\(error)".contains("\(bare): no labels.csv, but \(first) labels its samples")
        }
    }

    /// An import of a labelled dataset writes labels.csv and fairness.csv; each group's BPCER is
    /// recounted from decisions.csv.
    @Test func importCarriesTheDatasetsLabels() throws {
        let root = Fixture.folder()
        try """
        path,label,species,split,subject,group.sex
        a.jpg,bonafide,,eval,s1,female
        b.jpg,bonafide,,eval,s2,male
        c.jpg,attack,print,eval,s3,female
        d.jpg,attack,print,eval,s4,male
        """.write(toFile: root + "/manifest.csv", atomically: true, encoding: .utf8)
        try "id,status\na.jpg,Live\nb.jpg,Fake\nc.jpg,Fake\nd.jpg,Live\n".write(
            toFile: root + "/idemia.csv", atomically: true, encoding: .utf8)
        let outcome = try ImportRunner().run(
            format: .idemiaStatus, dataset: try DatasetLoader().load(root), inputs: [root + "/idemia.csv"],
            profiles: [try ProfileLoader(catalogue: EstimatorCatalog.knownOutputs()).builtIn("idemia-status")],
            outputFolder: root + "/run")
        #expect(
            try Self.rows(root + "/run/labels.csv").map { $0["group.sex"]! } == ["female", "male", "female", "male"])
        let fairness = try Self.rows(root + "/run/fairness.csv")
        let bpcer = fairness.filter { $0["metric"] == "bpcer" }.map { "\($0["group"]!) \($0["errors"]!)/\($0["n"]!)" }
        let apcer = fairness.filter { $0["metric"] == "apcer" }.map { "\($0["group"]!) \($0["errors"]!)/\($0["n"]!)" }
        // b (male bona fide) rejected, d (male attack) accepted.
        #expect(bpcer == ["female 0/1", "male 1/1"] && apcer == ["female 0/1", "male 1/1"])
        #expect(try ResultArchiveReader(path: outcome.archivePath).contains("fairness.csv"))
    }

    /// A generic score file with `group.sex` and `attr.blurry`: labels.csv, fairness.csv counted
    /// per group at the chosen threshold, and attributes.csv of scores.score against the attribute
    /// (hand-worked below).
    @Test func genericScoreFileLabelsGiveFairnessAndAttributes() throws {
        let root = Fixture.folder()
        // Fixed threshold 0.5: bona fide f 0.9 ok, m 0.4 rejected; attacks f 0.1 ok, m 0.6 accepted.
        try """
        id,label,species,score,group.sex,attr.blurry
        b1,bonafide,,0.9,female,0
        b2,bonafide,,0.4,male,1
        a1,attack,print,0.1,female,1
        a2,attack,print,0.6,male,0
        """.write(toFile: root + "/scores.csv", atomically: true, encoding: .utf8)
        var job = EvalRunner.ScoreJob(scoreFiles: [root + "/scores.csv"], outputFolder: root + "/run")
        job.threshold = 0.5
        let outcome = try EvalRunner().evaluateScores(job)
        #expect(try Self.rows(root + "/run/labels.csv").map { $0["id"]! } == ["b1", "b2", "a1", "a2"])
        let fairness = try Self.rows(root + "/run/fairness.csv")
        let counts = fairness.filter { $0["metric"] == "bpcer" || $0["metric"] == "apcer" }.map {
            "\($0["metric"]!) \($0["group"]!) \($0["errors"]!)/\($0["n"]!)"
        }
        #expect(
            counts == ["bpcer female 0/1", "apcer female 0/1", "bpcer male 1/1", "apcer male 1/1"]
                || Set(counts) == ["bpcer female 0/1", "apcer female 0/1", "bpcer male 1/1", "apcer male 1/1"])
        // FDR = 1 - (0.5 * |0 - 1| + 0.5 * |0 - 1|) = 0.
        #expect(fairness.first { $0["metric"] == "fdr" }?["value"] == "0")
        // scores.score by attr.blurry: without {0.9, 0.6}, with {0.4, 0.1}: every "with" score is
        // below every "without" one, so AUC 1, higher without.
        let attributes = try Self.rows(root + "/run/attributes.csv")
        let row = try #require(attributes.first { $0["output"] == "scores.score" && $0["attribute"] == "attr.blurry" })
        #expect(row["auc"] == "1" && row["direction"] == "higher-without" && row["n_with"] == "2")
        #expect(try ResultArchiveReader(path: outcome.archivePath).contains("labels.csv"))
    }
}

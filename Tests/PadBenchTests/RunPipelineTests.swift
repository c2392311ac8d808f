import Foundation
import PadArchive
import PadVocabulary
import Testing

@testable import PadBench
@testable import PadEvaluation
@testable import PadProfiles
@testable import PadReport
@testable import PadRuns
import TestSupport

/// `RunPipeline`, the one life of a run: whichever way `samples.csv` reaches the archive, the
/// committed run holds one decision row per sample, the manifest the command made from the
/// pipeline's times and counts, and a run that throws between deciding and finishing leaves no
/// folder behind.
@Suite struct RunPipelineTests {
    static let profile = try! ProfileLoader().load(
        yaml: """
            name: half
            source: test
            gates:
              - {output: scores.score, op: ge, value: 0.5, code: LOW, message: score below 0.5}
            """, file: "half.yaml")

    /// Ten samples: bona fide scores 0.6..1.0, print attacks 0.0..0.4; one failed.
    static func table() -> MeasurementTable {
        var table = MeasurementTable(columns: [EvalRunner.scoreOutput])
        for k in 0..<10 {
            let label: Label = k < 5 ? .bonaFide : .attack(species: "print")
            let status: SampleStatus = k == 9 ? .failed(code: .noScore, message: "none") : .ok
            let score = k < 5 ? 0.6 + Double(k) / 10 : Double(k - 5) / 10
            table.append(id: "s\(k)", label: label, split: .eval, status: status, values: [k == 9 ? .nan : score])
        }
        return table
    }

    static func manifest(_ table: MeasurementTable, _ times: RunManifest.Times) -> RunManifest {
        RunManifest(
            kind: "eval", tool: .init(version: ToolInfo.version, commandLine: []), conventions: [:],
            dataset: .init(name: "t", path: "t", layout: "scores:generic", fingerprint: "", samples: table.count),
            estimators: [], profiles: [profile.name], machine: .current(concurrency: 1), times: times,
            counts: RunPipeline.counts(table))
    }

    static func folder() -> String {
        let path = TestFolder.root + "/padbench-pipeline-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The manifest's wall time is the run's own: stamped once the statistics and `curves.csv` are
    /// done, just before the reports (it used to be stamped before them: an eval of 1.2 million
    /// scores with subjects recorded 1.7 s of a 47 s run, its subject bootstrap left out).
    @Test func theManifestIsStampedAfterTheStatistics() throws {
        let root = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let table = Self.table()
        let writer = RunFolderWriter(folder: root)
        try SamplesSchema.writeScores(table, to: CSVWriter(path: root + "/samples.csv"))
        let decisions = try CSVWriter(path: root + "/decisions.csv")
        let results = try ProfileEvaluator(table: table).evaluate([Self.profile], decisions: decisions)
        try decisions.close()
        let stamp = RunManifest.Times(started: "start", finished: "stamped", wallSeconds: 42)
        var seen: (curves: Bool, report: Bool)?
        _ = try writer.write(
            manifest: Self.manifest(table, .init(started: "start", finished: "early", wallSeconds: 1)), table: table,
            results: results, timing: [], profiles: [Self.profile], streamedFiles: ["samples.csv", "decisions.csv"],
            finishedAt: {
                seen = (
                    FileManager.default.fileExists(atPath: root + "/curves.csv"),
                    FileManager.default.fileExists(atPath: root + "/report.html")
                )
                return stamp
            })
        #expect(seen?.curves == true && seen?.report == false)
        let run = try StoredRun(path: root + "/results.tar.zst")
        #expect(run.manifest.times == stamp)
        #expect(try String(contentsOfFile: root + "/report.html", encoding: .utf8).contains("wall 42.00 s"))
    }

    @Test(arguments: ["written", "background"]) func aCommittedRunHoldsEveryDecision(samples: String) throws {
        let root = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let table = Self.table()
        let pipeline = try RunPipeline(final: root + "/run", force: false, inputs: [])
        let writer = pipeline.writer
        let how: RunPipeline.Samples
        if samples == "written" {
            try SamplesSchema.writeScores(table, to: CSVWriter(path: pipeline.folder.work + "/samples.csv"))
            how = .written
        } else {
            how = .background {
                let member = try writer.member("samples.csv", rows: table.count)
                try SamplesSchema.writeScores(table, to: CSVWriter(member: member))
                return try member.finished()
            }
        }
        let decided = try pipeline.decide([Self.profile], with: ProfileEvaluator(table: table), samples: how)
        let outcome = try pipeline.finish(decided, table: table, profiles: [Self.profile]) { Self.manifest(table, $0) }
        #expect(outcome.folder == root + "/run" && !FileManager.default.fileExists(atPath: root + "/run.partial"))
        let run = try StoredRun(path: outcome.archivePath)
        #expect(run.manifest.counts == ["samples": 10, "ok": 9, "failed": 1])
        #expect(try run.table("decisions.csv").records.count == 10)
        // Bona fide all accepted (>= 0.5), attacks 0.0..0.3 rejected: APCER 0/4, BPCER 0/5.
        #expect(outcome.results[0].profile.name == "half")
        let decisions = try run.table("decisions.csv")
        let accepted = try decisions.requireColumn("accepted")
        #expect(decisions.records.map { $0.fields[accepted] } == ["1", "1", "1", "1", "1", "0", "0", "0", "0", ""])
    }

    @Test func aRunThatThrowsBeforeFinishingLeavesNothing() throws {
        let root = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            let pipeline = try RunPipeline(final: root + "/run", force: false, inputs: [])
            _ = try pipeline.decide([Self.profile], with: ProfileEvaluator(table: Self.table()), samples: .written)
            throw Stop()
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: root).filter { !$0.hasSuffix(".lock") } == [])
    }

    /// The pipeline owns its ``RunFolder`` and finishes it once: ``RunPipeline/suspend()`` keeps a
    /// bench's work folder and lets the next writer in at once; a one-go pipeline dropped
    /// unfinished (it threw) removes its work folder and lock. (A second commit, or a use of the
    /// folder after it, does not compile: both are `consuming` on a `~Copyable` owner.)
    @Test func aPipelineIsSuspendedOrDroppedOnce() throws {
        let root = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let bench = try RunPipeline(final: root + "/bench", force: false, resumable: true, inputs: [])
        try "journal".write(toFile: bench.folder.work + "/samples.csv", atomically: true, encoding: .utf8)
        bench.suspend()
        let next = try RunFolder(final: root + "/bench", force: false, resume: true)
        #expect(try String(contentsOfFile: next.work + "/samples.csv", encoding: .utf8) == "journal")
        next.suspend()
        func failing() throws {
            let pipeline = try RunPipeline(final: root + "/eval", force: false, inputs: [])
            try "half".write(toFile: pipeline.folder.work + "/samples.csv", atomically: true, encoding: .utf8)
            throw EvaluationError("disk full")
        }
        #expect(throws: EvaluationError.self) { try failing() }
        #expect(!FileManager.default.fileExists(atPath: root + "/eval.partial"))
        #expect(!FileManager.default.fileExists(atPath: root + "/eval.lock"))
        #expect(FileManager.default.fileExists(atPath: root + "/bench.partial/samples.csv"))
    }
}

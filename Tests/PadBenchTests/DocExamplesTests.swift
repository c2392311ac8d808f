import Foundation
import PadArchive
import PadDataset
import PadSamples
import PadEstimators
import PadEvaluation
import PadMetrics
import PadProfiles
import PadVocabulary
import Testing

@testable import PadBench
import TestSupport

/// The examples of PadBench's doc comments (`DocCommentExamplesTests` holds each comment to its
/// copy here). The pieces of a run are run on a fresh folder; the runners, whose examples name
/// files relative to a working directory, are compiled only: their behaviour is the subject of
/// BenchRunnerTests, ImportTests, MergeTests, TrainTests and the CLI tests.
@Suite struct PadBenchDocExamples {
    static func folder() -> String {
        let path = TestFolder.root + "/padbench-bench-doc-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// ``Journal``: the rows written are the file's.
    @Test func journal() throws {
        let work = Self.folder()
        let header = ["id", "status"]
        let journal = try Journal(path: work + "/samples.csv", append: false)
        try journal.writeRow(header)
        try journal.close()
        #expect(try String(contentsOfFile: work + "/samples.csv", encoding: .utf8) == "id,status\n")
    }

    /// ``RunLock``: a second lock on the same run is refused while the first is held.
    @Test func runLock() throws {
        let reports = Self.folder() + "/reports"
        try FileManager.default.createDirectory(atPath: reports, withIntermediateDirectories: true)
        try withRunLock(reports: reports) {
            #expect(throws: (any Error).self) { try RunLock(path: reports + "/run.lock", run: reports + "/run") }
        }
        let again = try RunLock(path: reports + "/run.lock", run: reports + "/run")
        again.release()
    }

    func withRunLock(reports: String, _ body: () throws -> Void) throws {
        let lock = try RunLock(path: reports + "/run.lock", run: reports + "/run")
        defer { lock.release() }
        try body()
    }

    /// ``RunFolderInputs``: an output folder that is an input's folder is refused.
    @Test func refuseOverlap() throws {
        try RunFolderInputs.refuseOverlap(out: "reports/run", inputs: ["s.csv"], datasetRoot: "datasets/sample")
        #expect(throws: (any Error).self) {
            try RunFolderInputs.refuseOverlap(out: "datasets/sample", inputs: [], datasetRoot: "datasets/sample")
        }
    }

    /// ``ProgressReporter``: disabled (as `--quiet` makes it), it counts and draws nothing.
    @Test func progressReporter() {
        let samples = [1, 2, 3], quiet = true
        var progress = ProgressReporter(total: samples.count, label: "measure", enabled: !quiet)
        progress.advance(failed: false)
        progress.finish()
        #expect(progress.done == 1 && progress.failed == 0)
    }

    /// ``ProfileCheck``: an output nobody measures is refused with the nearest known name.
    @Test func profileCheck() throws {
        let list = [
            try ProfileLoader().load(
                yaml: "name: s\nsource: t\ngates:\n  - {output: quality.sharpnes, op: ge, value: 1}\n", file: "s.yaml")
        ]
        var table = MeasurementTable(columns: ["quality.sharpness"])
        table.append(id: "a.jpg", label: .bonaFide, split: .eval, status: .ok, values: [1])
        #expect { try checkColumns(list, table: table) } throws: { "\($0)".contains("quality.sharpness") }
    }

    func checkColumns(_ list: [Profile], table: MeasurementTable) throws -> [Profile] {
        // import, eval --archive, merge: the columns of the table
        let profiles = try ProfileCheck.check(
            list, runOutputs: ProfileCheck.descriptors(for: table.keys), strict: false)
        return profiles
    }

    func checkDeclared(_ job: BenchJob, declared: [String: OutputDescriptor]) throws -> [Profile] {
        // bench, after the estimators are built (external programs have answered `describe`):
        let profiles = try ProfileCheck.check(job.profiles, runOutputs: declared, strict: job.strict)
        return profiles
    }

    /// ``SampleMeasurer`` and ``OrderedMeasurement``: the sample's first image measured by the
    /// `image` estimator, outcomes handed over in index order.
    @Test func measurerInOrder() async throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("datasets/sample").path
        let samples = (0..<3).map { _ in
            Sample(id: "eval/bonafide/000000.jpg", path: root + "/eval/bonafide/000000.jpg", label: .bonaFide)
        }
        let sample = samples[0]
        let registry = EstimatorCatalog.registry
        let measurer = SampleMeasurer(estimators: try registry.make(["quality"], options: .init()))
        let outcome = measurer.measure(sample, index: 0)
        #expect(outcome.status == .ok)
        let writer = OutcomeCollector()
        try await OrderedMeasurement(measurer: measurer, concurrency: 2).run(samples) { outcome in
            try writer.write(outcome) // called on one task at a time, index 0, 1, 2, ...
        }
        #expect(writer.indices == [0, 1, 2])
    }

    final class OutcomeCollector {
        var indices: [Int] = []
        func write(_ outcome: SampleOutcome) throws { indices.append(outcome.index) }
    }

    /// ``RunFolder``: written under `<final>.partial`, renamed into place on commit.
    @Test func runFolder() throws {
        let reports = Self.folder() + "/reports"
        try FileManager.default.createDirectory(atPath: reports, withIntermediateDirectories: true)
        try runFolder(at: reports + "/run")
        #expect(FileManager.default.fileExists(atPath: reports + "/run/x.txt"))
        #expect(!FileManager.default.fileExists(atPath: reports + "/run.partial"))
    }

    func runFolder(at run: String) throws {
        let folder = try RunFolder(final: run, force: false, resume: false, inputs: ["datasets/sample"])
        try "x".write(toFile: folder.work + "/x.txt", atomically: true, encoding: .utf8) // scratch: folder.scratch
        try folder.commit() // <run>.partial -> <run>
    }

    /// Compiled only: the runners' examples (see the suite's comment).
    func bench(job: BenchJob) async throws -> BenchRunner.Outcome {
        let outcome = try await BenchRunner().run(job)
        print(outcome.folder, outcome.results.map(\.profile.name))
        return outcome
    }

    func eval() throws -> EvalRunner.ScoreOutcome {
        let report = try EvalRunner().evaluateScores(
            EvalRunner.ScoreJob(
                scoreFiles: ["eval.csv"], devFiles: ["dev.csv"],
                criterion: .bpcerAtAPCER(0.01), outputFolder: "reports/e"))
        return report
    }

    func importLuna(loaded: LoadedDataset, lunaOSL: Profile) throws -> ImportRunner.Outcome {
        let outcome = try ImportRunner().run(
            format: .lunaOSL, dataset: loaded, inputs: ["osl.json"],
            profiles: [lunaOSL], outputFolder: "reports/luna")
        return outcome
    }

    func merge() throws -> RunOutcome {
        let merged = try MergeRunner().merge(["s1/results.tar.zst", "s2/results.tar.zst"], outputFolder: "reports/all")
        return merged
    }

    func train(loaded: LoadedDataset) throws -> TrainRunner.Outcome {
        let outcome = try TrainRunner().train(dataset: loaded, split: .train, modelPath: "model.json")
        return outcome
    }

    /// Compiled only: ``RunFolderWriter`` is run by every runner.
    func writer(
        m: RunManifest, table: MeasurementTable, r: [ProfileResult], t: [TimingStep], p: [Profile]
    ) throws -> RunFolderWriter.Written {
        let archive = try RunFolderWriter(folder: "reports/run").write(
            manifest: m, table: table, results: r, timing: t,
            profiles: p, streamedFiles: ["samples.csv"])
        return archive
    }
}

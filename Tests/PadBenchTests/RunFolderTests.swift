import Foundation
import Testing
@testable import PadArchive
@testable import PadBench
@testable import PadDataset
@testable import PadEvaluation
@testable import PadImage
@testable import PadProfiles

/// Runs are never lost, torn or clobbered: atomic run folders, one writer at a time, resume.
@Suite struct RunFolderTests {
    static func dataset(_ root: String, count: Int = 12) throws -> LoadedDataset {
        var manifest = "path,label,species,split,subject\n"
        for i in 0..<count {
            Fixture.write(
                try ImageEncoder.jpeg(Fixture.image(contrast: i % 2 == 0 ? 40 + i : 3, seed: i), quality: 90),
                root + "/\(i).jpg")
            manifest += "\(i).jpg,\(i % 2 == 0 ? "bonafide" : "attack"),\(i % 2 == 0 ? "" : "print"),,s\(i)\n"
        }
        try manifest.write(toFile: root + "/manifest.csv", atomically: true, encoding: .utf8)
        return try DatasetLoader().load(root)
    }

    /// A complete bench of `dataset(root)` in root/whole, its samples.csv lines (the journal a
    /// resumed run reads), and an empty root/cut.partial for a cut journal to go into.
    static func wholeRunAndItsJournal() async throws -> (
        root: String, data: LoadedDataset, whole: BenchRunner.Outcome, journal: [Substring]
    ) {
        let root = Fixture.folder()
        let data = try dataset(root)
        let whole = try await BenchRunner().run(try job(data, root + "/whole"))
        let journal = try String(contentsOfFile: whole.folder + "/samples.csv", encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        try FileManager.default.createDirectory(atPath: root + "/cut.partial", withIntermediateDirectories: true)
        return (root, data, whole, journal)
    }

    static func job(_ dataset: LoadedDataset, _ out: String) throws -> BenchJob {
        BenchJob(
            dataset: dataset, profiles: [try ProfileLoader(catalogue: EstimatorCatalog.outputs()).builtIn("basic")],
            outputFolder: out, concurrency: 2,
            commandLine: ["padbench", "bench", "--dataset", dataset.root, "--out", out])
    }

    @Test func aCompleteRunIsNeverClobberedWithoutForce() async throws {
        let root = Fixture.folder()
        let data = try Self.dataset(root)
        let first = try await BenchRunner().run(try Self.job(data, root + "/run"))
        let before = try Data(contentsOf: URL(fileURLWithPath: first.folder + "/samples.csv"))
        await #expect(throws: EvaluationError.self) { try await BenchRunner().run(try Self.job(data, root + "/run")) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: root + "/run/samples.csv")) == before)
        #expect(
            !FileManager.default.fileExists(atPath: root + "/run.partial")
                && !FileManager.default.fileExists(atPath: root + "/run.lock"))
        var forced = try Self.job(data, root + "/run")
        forced.force = true
        let second = try await BenchRunner().run(forced)
        #expect(second.folder == root + "/run" && FileManager.default.fileExists(atPath: root + "/run/results.tar.zst"))
    }

    @Test func aSecondWriterIsLockedOut() throws {
        let root = Fixture.folder()
        let holder = try RunFolder(final: root + "/run", force: false, resume: false)
        #expect(throws: EvaluationError.self) { _ = try RunFolder(final: root + "/run", force: true, resume: false) }
        holder.abandon()
        _ = try RunFolder(final: root + "/run", force: false, resume: false)
    }

    /// eval, import and merge write in one go: when they throw before committing, their work folder
    /// and lock go with them and a complete run under the name is untouched.
    @Test func aOneGoWriterThatNeverCommitsLeavesNothing() throws {
        let root = Fixture.folder()
        try FileManager.default.createDirectory(atPath: root + "/run", withIntermediateDirectories: true)
        try "old".write(toFile: root + "/run/manifest.json", atomically: true, encoding: .utf8)
        func failingWrite() throws {
            let folder = try RunFolder(final: root + "/run", force: true, resume: false, resumable: false)
            try "half".write(toFile: folder.work + "/samples.csv", atomically: true, encoding: .utf8)
            throw EvaluationError("disk full")
        }
        #expect(throws: EvaluationError.self) { try failingWrite() }
        #expect(!FileManager.default.fileExists(atPath: root + "/run.partial"))
        #expect(!FileManager.default.fileExists(atPath: root + "/run.lock"))
        #expect(try String(contentsOfFile: root + "/run/manifest.json", encoding: .utf8) == "old")
    }

    /// kill -9 halfway: the journal (samples.csv in the partial folder) holds complete rows and a
    /// torn one. Resume measures only the rest; the reports equal an uninterrupted run's.
    @Test func resumeAfterKillGivesTheUninterruptedReports() async throws {
        let (root, data, whole, journal) = try await Self.wholeRunAndItsJournal()
        let torn = journal[0...5].joined(separator: "\n") + "\n" + journal[6].prefix(20)
        try torn.write(toFile: root + "/cut.partial/samples.csv", atomically: true, encoding: .utf8)
        var resume = try Self.job(data, root + "/cut")
        resume.resume = true
        let resumed = try await BenchRunner().run(resume)
        #expect(resumed.resumedSamples == 5 && resumed.table.count == 12)
        for file in [
            "summary.csv", "per_species.csv", "reject_reasons.csv", "curves.csv", "decisions.csv", "results.json",
        ] {
            let a = try String(contentsOfFile: whole.folder + "/" + file, encoding: .utf8)
            let b = try String(contentsOfFile: root + "/cut/" + file, encoding: .utf8)
            #expect(a == b, "\(file) differs after resume")
        }
        // samples.csv equal apart from the time columns.
        func untimed(_ path: String) throws -> [[String]] {
            let table = try CSVTable(path: path)
            let keep = table.header.indices.filter { !table.header[$0].hasSuffix("_ns") }
            return table.records.map { r in keep.map { r.fields[$0] } }
        }
        #expect(try untimed(whole.folder + "/samples.csv") == untimed(root + "/cut/samples.csv"))
    }

    /// The table of a resumed run takes labels, splits and subjects from the dataset, so a journal
    /// whose rows name the same files with other labels (the manifest was edited since) is refused.
    @Test func resumeRefusesAJournalWhoseLabelsTheDatasetChanged() async throws {
        let (root, _, _, journal) = try await Self.wholeRunAndItsJournal()
        try (journal[0...5].joined(separator: "\n") + "\n").write(
            toFile: root + "/cut.partial/samples.csv", atomically: true, encoding: .utf8)
        // Sample 2.jpg (line 4 of the manifest) was bona fide when measured; now it is a print attack.
        var manifest = try String(contentsOfFile: root + "/manifest.csv", encoding: .utf8)
        manifest = manifest.replacingOccurrences(of: "2.jpg,bonafide,,", with: "2.jpg,attack,print,")
        try manifest.write(toFile: root + "/manifest.csv", atomically: true, encoding: .utf8)
        var resume = try Self.job(try DatasetLoader().load(root), root + "/cut")
        resume.resume = true
        await #expect(throws: EvaluationError.self) { try await BenchRunner().run(resume) }
    }

    /// Ctrl-C before anything was measured: the run stops, keeps its partial folder, and resumes.
    @Test func interruptedRunsKeepTheirJournalAndResume() async throws {
        let root = Fixture.folder()
        let data = try Self.dataset(root, count: 6)
        var job = try Self.job(data, root + "/run")
        let flag = InterruptFlag()
        flag.raise()
        job.interrupt = flag
        let stopped = try await BenchRunner().run(job)
        #expect(stopped.interrupted && stopped.folder == root + "/run.partial")
        #expect(FileManager.default.fileExists(atPath: root + "/run.partial/job.json"))
        var again = try Self.job(data, root + "/run")
        again.resume = true
        let done = try await BenchRunner().run(again)
        #expect(
            !done.interrupted && done.table.count == 6
                && FileManager.default.fileExists(atPath: root + "/run/results.tar.zst"))
        #expect(!FileManager.default.fileExists(atPath: root + "/run.partial"))
    }
}

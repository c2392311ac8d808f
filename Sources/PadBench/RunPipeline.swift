import Foundation
import PadArchive
import PadEvaluation
import PadMetrics
import PadProfiles
import PadReport
import PadText
import PadVocabulary

/// The life of every run (`bench`, `eval --scores`, `eval --archive`, `import`, `merge`): its
/// folder and lock (``RunFolder``), one decision pass per profile writing `decisions.csv`, the
/// reports, manifest and archive (``RunFolderWriter``), and the commit that puts the run in place.
/// A command gives only what differs: how its table is made, how its evaluator is set, how
/// `samples.csv` reaches the archive (``Samples``), its timing and what its manifest says.
///
/// A command opens the pipeline (``init(final:force:resume:resumable:inputs:datasetRoot:started:startNanoseconds:)``),
/// makes its table in the work folder, then calls ``decide(_:with:samples:)`` and
/// ``finish(_:table:profiles:timing:streamed:ownTimes:manifest:)``; an error thrown in between
/// leaves the folder to ``RunFolder``'s rule (a one-go run's work folder is removed, a bench's kept).
///
/// Non-copyable because it owns the ``RunFolder``: ``finish(_:table:profiles:timing:streamed:ownTimes:manifest:)``
/// and ``suspend()`` consume it, so a run is committed or suspended once.
struct RunPipeline: ~Copyable {
    let folder: RunFolder
    /// When the command started: the manifest's start time and the wall time's origin.
    let started: Date
    let startNanoseconds: UInt64

    /// How `samples.csv` reaches the archive; `decisions.csv` goes the same way.
    enum Samples {
        /// In the work folder already (bench's journal, import, merge): both files are read from
        /// disk into the archive at the end.
        case written
        /// Compressed for the archive as it was written (`eval --archive`'s copy of the stored file).
        case compressed(CompressedMember)
        /// Written and compressed on another core while the profiles are decided (`eval --scores`:
        /// both files take seconds on ten million rows).
        case background(@Sendable () throws -> CompressedMember)
    }

    /// The profiles' results and the archive members compressed while they were written.
    struct Decided {
        var results: [ProfileResult]
        var precompressed: [CompressedMember]
        /// Members still being written (score files: `samples.csv` and `decisions.csv`), each
        /// waited for by ``finish(_:table:profiles:timing:streamed:ownTimes:manifest:)`` before
        /// anything reads it or the archive takes it.
        var pending: [() throws -> CompressedMember] = []
    }

    /// A compressed member whose rows are written on a ``BackgroundLane`` that owns its writer.
    struct PendingMember {
        let decisions: BackgroundLane<CSVWriter>
        let member: ArchiveMemberWriter

        /// Waits for the rows and closes the writer (ending the member's frame) unless a write
        /// failed; throws the first error. Once only: a second call would close the writer again.
        func closed() throws {
            decisions.enqueue { try $0.close() }
            try decisions.wait()
        }

        func finished() throws -> CompressedMember {
            try closed()
            return try member.finished()
        }
    }

    /// Opens the run's work folder and takes its lock (``RunFolder``). `resumable`: a bench, whose
    /// work folder is a journal kept on failure.
    init(
        final: String, force: Bool, resume: Bool = false, resumable: Bool = false, inputs: [String],
        datasetRoot: String? = nil, started: Date = Date(), startNanoseconds: UInt64 = MonotonicClock.nanoseconds()
    ) throws {
        self.started = started
        self.startNanoseconds = startNanoseconds
        folder = try RunFolder(
            final: final, force: force, resume: resume, resumable: resumable, inputs: inputs,
            datasetRoot: datasetRoot)
    }

    /// Decides every profile once with `evaluator` (set by the command: calibration rules, EER
    /// rule), writing `decisions.csv` beside `samples.csv`.
    func decide(_ profiles: [Profile], with evaluator: ProfileEvaluator, samples: Samples) throws -> Decided {
        let rows = evaluator.table.count
        switch samples {
        case .written:
            let decisions = try CSVWriter(path: folder.work + "/" + RunFile.decisions.name)
            let results = try evaluator.evaluate(profiles, decisions: decisions)
            try decisions.close()
            return Decided(results: results, precompressed: [])
        case .compressed(let member):
            let (results, decisions) = try Self.decide(
                profiles, evaluator, into: writer.member(RunFile.decisions.name, rows: rows))
            return Decided(results: results, precompressed: [member, decisions])
        case .background(let work):
            // samples.csv is written on another core from the start; decisions.csv from the moment
            // the profile is calibrated until the run folder's writer needs it.
            let background = BackgroundValue(work)
            let decisionsMember = try writer.member(RunFile.decisions.name, rows: rows)
            // Safety: the writer writes into `decisionsMember`, which is finished only after the lane has closed it.
            nonisolated(unsafe) let decisionsWriter = CSVWriter(member: decisionsMember)
            let pending = PendingMember(decisions: BackgroundLane(decisionsWriter), member: decisionsMember)
            // Neither is waited for here: the run goes on to the presentations and the reports,
            // and the run folder's writer waits for both before the analyses and the archive.
            do {
                let results = try evaluator.evaluate(profiles, decisions: pending.decisions)
                return Decided(results: results, precompressed: [], pending: [background.wait, pending.finished])
            } catch {
                // No write may go on into a folder that is about to be removed.
                _ = try? background.wait()
                try? pending.closed()
                throw error
            }
        }
    }

    private static func decide(_ profiles: [Profile], _ evaluator: ProfileEvaluator, into member: ArchiveMemberWriter)
        throws -> ([ProfileResult], CompressedMember)
    {
        let decisions = CSVWriter(member: member)
        let results = try evaluator.evaluate(profiles, decisions: decisions)
        try decisions.close()
        return (results, try member.finished())
    }

    /// The writer of the run's work folder.
    var writer: RunFolderWriter { RunFolderWriter(folder: folder.work) }

    /// Seconds since the command started.
    var wallSeconds: Double { Double(MonotonicClock.nanoseconds() - startNanoseconds) / 1e9 }

    /// The manifest's times: started, now, and the wall time given (or since the start).
    func times(wallSeconds: Double? = nil) -> RunManifest.Times {
        Self.times(started: started, startNanoseconds: startNanoseconds, wallSeconds: wallSeconds)
    }

    static func times(started: Date, startNanoseconds: UInt64, wallSeconds: Double? = nil) -> RunManifest.Times {
        let format = ISO8601DateFormatter()
        return .init(
            started: format.string(from: started), finished: format.string(from: Date()),
            wallSeconds: wallSeconds ?? Double(MonotonicClock.nanoseconds() - startNanoseconds) / 1e9)
    }

    /// The counts every manifest has: samples, ok and failed.
    static func counts(_ table: MeasurementTable) -> [String: Int] {
        ["samples": table.count, "ok": table.count - table.failedCount, "failed": table.failedCount]
    }

    /// Writes the reports, the manifest (made by `manifest` from the run's times) and the archive,
    /// then commits. `streamed`: files the command put in the work folder besides `samples.csv`
    /// and `decisions.csv` (a stored run's `timing.csv`). The manifest's `finished` and wall time
    /// are taken once the run's statistics are done, just before the reports are written, unless
    /// `ownTimes` (merge: the shards' times are the job's).
    consuming func finish(
        _ decided: Decided, table: MeasurementTable, profiles: [Profile], timing: [TimingStep] = [],
        streamed: [String] = [], ownTimes: Bool = true, manifest: (RunManifest.Times) -> RunManifest
    ) throws -> RunOutcome {
        let (started, startNanoseconds) = (self.started, self.startNanoseconds)
        let written = try writer.write(
            manifest: manifest(times()), table: table, results: decided.results,
            timing: timing, profiles: profiles,
            streamedFiles: [RunFile.samples.name, RunFile.decisions.name] + streamed,
            precompressed: decided.precompressed, pending: decided.pending,
            finishedAt: ownTimes ? { Self.times(started: started, startNanoseconds: startNanoseconds) } : nil)
        let (final, archivePath) = (folder.final, folder.archivePath)
        try folder.commit()
        return RunOutcome(
            folder: final, archivePath: archivePath, results: written.results, table: table,
            wallSeconds: written.times.wallSeconds)
    }

    /// Keeps the work folder (an interrupted bench, to resume) and releases the lock.
    consuming func suspend() { folder.suspend() }
}

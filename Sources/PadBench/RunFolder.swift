import Foundation
import PadEvaluation
import PadText
import Synchronization

#if canImport(Glibc)
import Glibc
import PadVocabulary
#endif

/// Where a run is written, so that a run or an input is never lost, torn or clobbered:
/// - everything goes into `<out>.partial/` (marked as ours by a `.padbench-work` file) and is
///   swapped in as `<out>` only when complete, in one atomic step (`renameat2(RENAME_EXCHANGE)`),
///   so `<out>` holds the old complete run or the new one at every instant;
/// - `<out>.lock` (an `flock` held while the run lives; the kernel drops it if the process dies)
///   keeps a second writer out; it is opened without following links and must be a regular file;
/// - `<out>` may not be, contain or lie inside an input of the command (score files, archives,
///   model, profiles, exports; a dataset's root it may lie inside), with or without `force`;
/// - an existing complete run under `<out>` (one with a padbench `manifest.json`) is replaced only
///   with `force`, and a folder that is not a padbench run is never replaced; an interrupted bench
///   in `<out>.partial/` is continued with `resume` (or discarded with `force`);
/// - a bench's work folder is its journal: it is kept on every failure (`bench --resume` goes on);
///   a one-go writer (`eval`, `import`, `merge`) removes its work folder unless it committed.
///
/// What a killed writer leaves is put right by the next one (the lock proves the writer is gone):
/// a finished work folder not yet swapped in is swapped in, an old run swapped out is removed, a
/// one-go writer's half-written work folder is removed.
///
/// ```swift
/// let folder = try RunFolder(final: run, force: false, resume: false, inputs: ["datasets/sample"])
/// try "x".write(toFile: folder.work + "/x.txt", atomically: true, encoding: .utf8)    // scratch: folder.scratch
/// try folder.commit()          // <run>.partial -> <run>
/// ```
/// A non-copyable owner: ``commit()``, ``abandon()`` and ``suspend()`` consume it, so a run folder
/// is finished once and the compiler refuses a second commit or a use after it (`RunPipeline`
/// owns it). One dropped unfinished is put right by its `deinit`: a one-go writer's work folder is
/// removed, a bench's journal kept; the lock is released either way. The lock sits in a `Mutex`
/// so that the owner is `Sendable` without `@unchecked`.
package struct RunFolder: ~Copyable, Sendable {
    package let final: String
    package let work: String
    package let resuming: Bool
    private let lock: Mutex<RunLock?>
    private let resumable: Bool

    /// The file a bench run keeps in its work folder until it completes (its ``ResumeJob``); its
    /// presence marks the folder as an interrupted bench run that `bench --resume` can continue.
    package static let resumableMarker = RunFile.job.name

    /// What partials of padbench before ``ResumeJob`` hold instead: the replayed command line.
    /// Still read by `bench --resume` (one release of compatibility).
    package static let commandMarker = RunFile.command.name

    /// Both markers of an interrupted bench run.
    static let resumableMarkers = [resumableMarker, commandMarker]

    /// True when `work` holds an interrupted bench run (either marker).
    static func isResumable(_ work: String) -> Bool {
        resumableMarkers.contains { FileManager.default.fileExists(atPath: work + "/" + $0) }
    }

    /// The file that marks a work folder as padbench's own (so `--force` may discard it).
    package static let workMarker = ".padbench-work"

    /// Where the run's archive stands once committed.
    package var archivePath: String { final + "/" + RunFile.archive.name }

    /// Scratch space of the run (column spill files, merge copies): inside the work folder, so a
    /// killed run leaves nothing elsewhere; removed before the commit and with the work folder.
    package var scratch: String { work + "/.scratch" }

    /// The folder's path with its trailing slash dropped (`reports/run/` and `reports/run` are one run).
    package static func normalized(_ path: String) -> String {
        var path = path
        while path.hasSuffix("/") && path.count > 1 { path.removeLast() }
        return path
    }

    /// `resumable`: the caller is a bench run (its work folder is a journal, never removed but
    /// with `force`). `inputs`: every file and folder the command reads; `datasetRoot` the
    /// dataset's folder (``RunFolderInputs``).
    package init(
        final: String, force: Bool, resume: Bool, resumable: Bool = true, inputs: [String] = [],
        datasetRoot: String? = nil
    ) throws {
        let final = try Self.checkedName(final)
        try RunFolderInputs.refuseOverlap(out: final, inputs: inputs, datasetRoot: datasetRoot)
        let parent = Paths.parent(final)
        if !parent.isEmpty && !FileManager.default.fileExists(atPath: parent) {
            do {
                try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            } catch { throw EvaluationError("\(parent): cannot create the folder: \(RunFolder.reason(error))") }
        }
        let held = try RunLock(path: final + ".lock", run: final)
        let setup = RunFolderSetup(final: final, work: final + ".partial")
        do {
            try setup.recoverInterruptedCommit()
            try setup.prepareWork(force: force, resume: resume)
        } catch {
            held.release()
            throw error
        }
        self.final = final
        work = setup.work
        resuming = resume
        self.resumable = resumable
        lock = Mutex(held)
    }

    /// `--out` must name a folder: not empty, not `.` or `..` (a run cannot be renamed into place
    /// over the folder padbench stands in) and not `/`.
    static func checkedName(_ path: String) throws -> String {
        let final = normalized(path)
        guard !final.isEmpty else { throw EvaluationError("--out is empty: name the run folder") }
        let last = final.split(separator: "/").last.map(String.init) ?? "/"
        guard last != "." && last != ".." && final != "/" else {
            throw EvaluationError("\(final): --out must name a run folder of its own, not . , .. or /")
        }
        return final
    }

    /// Swaps the finished work folder in as `<out>` in one step (`renameat2` with
    /// `RENAME_EXCHANGE` when `<out>` exists, `rename` when not), then renames the old run, now
    /// under the work folder's name, to `<out>.replaced-<pid>` and removes it. File systems without
    /// the exchange fall back to renaming the old run aside first, which the next writer puts right
    /// if killed in between.
    package consuming func commit() throws {
        for leftover in [scratch, work + "/" + Self.workMarker] + Self.resumableMarkers.map({ work + "/" + $0 }) {
            if FileManager.default.fileExists(atPath: leftover) { try Self.remove(leftover) }
        }
        if FileManager.default.fileExists(atPath: final) {
            let aside = final + ".replaced-\(getpid())"
            if Self.exchange(work, final) {
                try Self.rename(work, aside)
            } else {
                try Self.rename(final, aside)
                do { try Self.rename(work, final) } catch {
                    try? Self.rename(aside, final) // the old run stays whole
                    throw error
                }
            }
            try Self.removeRun(aside)
        } else {
            try Self.rename(work, final)
        }
        releaseLock()
    }

    /// Removes the work folder after an error (a one-go writer leaves nothing half-written).
    package consuming func abandon() {
        try? Self.removeRun(work)
        releaseLock()
    }

    /// Keeps the work folder (an interrupted or failed bench, to resume) and lets others in.
    package consuming func suspend() { releaseLock() }

    private func releaseLock() {
        lock.withLock { held in
            held?.release()
            held = nil
        }
    }

    /// A one-go writer that never committed (it threw) leaves nothing behind; a bench keeps its journal.
    /// After ``commit()``, ``abandon()`` or ``suspend()`` the lock is released already: nothing to do.
    deinit {
        if !resumable && lock.withLock({ $0 != nil }) { try? Self.removeRun(work) }
        releaseLock()
    }
}

/// What a ``RunFolder`` does before it owns the folder (so the owner is made only once the lock is
/// held and the work folder prepared: a non-copyable value is never half made).
private struct RunFolderSetup {
    let final: String
    let work: String

    /// Checks what stands under the run's names and makes the work folder: resuming needs an
    /// interrupted run; a complete run or an interrupted bench is replaced only with `force`; a
    /// folder that is not padbench's is never replaced.
    func prepareWork(force: Bool, resume: Bool) throws {
        let manager = FileManager.default
        if resume {
            guard manager.fileExists(atPath: work + "/" + RunFile.samples.name) else {
                throw EvaluationError("\(final): no interrupted run to resume (\(work)/samples.csv does not exist)")
            }
            return
        }
        try checkFinal(force: force)
        if manager.fileExists(atPath: work) || RunFolder.isLink(work) {
            guard RunFolder.isOurWork(work) else {
                throw EvaluationError(
                    "\(work) exists and is not a padbench work folder; move it away or choose another --out")
            }
            let interruptedBench = RunFolder.isResumable(work)
            guard force || !interruptedBench else {
                throw EvaluationError(
                    "\(work) holds an interrupted run: continue it with `padbench bench --resume \(final)`, "
                        + "or pass --force to start over"
                )
            }
            try RunFolder.removeRun(work)
        }
        do {
            try manager.createDirectory(atPath: work, withIntermediateDirectories: false)
            try Data("padbench work folder of \(final)\n".utf8).write(
                to: URL(fileURLWithPath: work + "/" + RunFolder.workMarker))
        } catch { throw EvaluationError("\(work): cannot create the work folder: \(RunFolder.reason(error))") }
    }

    /// What stands under `<out>`: nothing, an empty folder, or a padbench run (replaced only with
    /// `force`); anything else is refused, `force` or not.
    func checkFinal(force: Bool) throws {
        if RunFolder.isLink(final) {
            throw EvaluationError("\(final) is a symbolic link; choose the folder it points to or another --out")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: final, isDirectory: &isDirectory) else { return }
        guard isDirectory.boolValue else {
            throw EvaluationError("\(final) exists and is not a folder; choose another --out")
        }
        if RunFolder.holdsRun(final) {
            guard force else {
                throw EvaluationError(
                    "\(final) holds a complete run; pass --force to replace it, or choose another --out")
            }
            return
        }
        let contents = (try? FileManager.default.contentsOfDirectory(atPath: final)) ?? ["?"]
        guard contents.isEmpty else {
            throw EvaluationError(
                "\(final) exists and is not a padbench run (no padbench manifest.json); "
                    + "padbench replaces only its own runs: choose another --out")
        }
    }

    /// Puts right what a writer killed inside ``commit()`` left: a finished work folder (a
    /// padbench manifest, no work marker, no journal marker) is swapped in when `<out>` holds no
    /// run, or is the old run swapped out (removed); an `<out>.replaced-*` folder (a commit without
    /// `RENAME_EXCHANGE`) goes back under `<out>` when that is empty.
    func recoverInterruptedCommit() throws {
        let manager = FileManager.default
        let finished =
            !RunFolder.isLink(work) && RunFolder.holdsRun(work)
            && !manager.fileExists(atPath: work + "/" + RunFolder.workMarker)
            && !RunFolder.isResumable(work)
        if finished {
            if !manager.fileExists(atPath: final) {
                try RunFolder.rename(work, final)
            } else if RunFolder.holdsRun(final) {
                try RunFolder.removeRun(work)
            }
        }
        let parent = Paths.parent(final).isEmpty ? "." : Paths.parent(final)
        let prefix = (final.split(separator: "/").last.map(String.init) ?? final) + ".replaced-"
        let asides = ((try? manager.contentsOfDirectory(atPath: parent)) ?? []).filter { $0.hasPrefix(prefix) }
        for aside in asides.sorted() {
            let path = Paths.parent(final).isEmpty ? aside : parent + "/" + aside
            if RunFolder.holdsRun(final) {
                try RunFolder.removeRun(path) // swapped out, or its removal was cut short
            } else if !manager.fileExists(atPath: final) && RunFolder.holdsRun(path) {
                try RunFolder.rename(path, final)
            }
        }
    }
}

import Foundation
import PadEvaluation
import PadText

#if canImport(Glibc)
import Glibc
#endif

/// Where a bench run is written, so that a run is never lost, torn or clobbered:
/// - everything goes into `<out>.partial/` and is renamed to `<out>` only when complete;
/// - `<out>.lock` (an `flock` held while the run lives; the kernel drops it if the process dies)
///   keeps a second writer out;
/// - an existing complete run under `<out>` is replaced only with `force`; an interrupted run
///   in `<out>.partial/` is continued with `resume` (or discarded with `force`);
/// - on an error (full disk, read-only target) the partial folder is removed, so no truncated
///   file ever stands under a final name and nothing stale is left behind.
///
/// Every command that writes a run goes through here: `bench` (resumable: its work folder is a
/// journal) and `eval`, `import` and `merge`, which write a run in one go (`resumable: false`).
/// A one-go writer's work folder is removed unless committed, also when the writer throws; one
/// left behind by a killed one-go writer holds nothing worth keeping and is removed by the next
/// writer (the lock proves its writer is gone); an interrupted bench's work folder is kept.
///
/// ```swift
/// let folder = try RunFolder(final: "reports/run", force: false, resume: false)
/// // ... write into folder.work ...
/// try folder.commit()          // reports/run.partial -> reports/run
/// ```
public final class RunFolder: @unchecked Sendable {
    public let final: String
    public let work: String
    public let resuming: Bool
    private var lockDescriptor: Int32
    private let lockPath: String
    private let resumable: Bool

    /// The file a bench run keeps in its work folder until it completes; its presence marks the
    /// folder as an interrupted bench run that `bench --resume` can continue.
    public static let resumableMarker = "command.json"

    /// Where the run's archive stands once committed.
    public var archivePath: String { final + "/results.tar.zst" }

    /// The folder's path with its trailing slash dropped (`reports/run/` and `reports/run` are one run).
    public static func normalized(_ path: String) -> String {
        path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
    }

    /// `resumable`: the caller is a bench run (its work folder may be resumed). Other writers
    /// remove a stale work folder that is not an interrupted bench run.
    public init(final: String, force: Bool, resume: Bool, resumable: Bool = true) throws {
        let final = Self.normalized(final)
        self.final = final
        work = final + ".partial"
        lockPath = final + ".lock"
        resuming = resume
        self.resumable = resumable
        lockDescriptor = -1
        let parent = Paths.parent(final)
        if !parent.isEmpty {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        }
        lockDescriptor = try Self.acquireLock(lockPath, run: final)
        try prepareWork(force: force, resume: resume)
    }

    /// Takes `<out>.lock` (exclusive, without waiting) and writes this process's id into it, for
    /// the message a second writer gets.
    private static func acquireLock(_ lockPath: String, run final: String) throws -> Int32 {
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw EvaluationError("\(lockPath): cannot create the run's lock: \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder =
                (try? String(contentsOfFile: lockPath, encoding: .utf8))?.trimmingCharacters(
                    in: .whitespacesAndNewlines) ?? "?"
            close(descriptor)
            throw EvaluationError(
                "\(final): another padbench (pid \(holder)) is writing this run; wait for it or choose another --out")
        }
        _ = ftruncate(descriptor, 0)
        let pid = "\(getpid())\n"
        _ = pid.withCString { write(descriptor, $0, strlen($0)) }
        return descriptor
    }

    /// Checks what stands under the run's names and makes the work folder: resuming needs an
    /// interrupted run; a complete run, an interrupted bench or a foreign folder is replaced only
    /// with `force`. Every refusal releases the lock first (so the deinit removes nothing).
    private func prepareWork(force: Bool, resume: Bool) throws {

        let manager = FileManager.default
        let complete =
            manager.fileExists(atPath: final + "/manifest.json")
            || manager.fileExists(atPath: final + "/results.tar.zst")
        if resume {
            guard manager.fileExists(atPath: work + "/samples.csv") else {
                releaseLock()
                throw EvaluationError("\(final): no interrupted run to resume (\(work)/samples.csv does not exist)")
            }
            return
        }
        if complete && !force {
            releaseLock()
            throw EvaluationError("\(final) holds a complete run; pass --force to replace it, or choose another --out")
        }
        if manager.fileExists(atPath: work) {
            let interruptedBench = manager.fileExists(atPath: work + "/" + Self.resumableMarker)
            guard force || (!resumable && !interruptedBench) else {
                releaseLock()
                throw EvaluationError(
                    "\(work) holds an interrupted run: continue it with `padbench bench --resume \(final)`, "
                        + "or pass --force to start over"
                )
            }
            try manager.removeItem(atPath: work)
        }
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: final, isDirectory: &isDirectory) && !complete {
            let contents = (try? manager.contentsOfDirectory(atPath: final)) ?? []
            if !isDirectory.boolValue || (!contents.isEmpty && !force) {
                releaseLock()
                throw EvaluationError(
                    "\(final) exists and is not a padbench run; choose another --out (or --force to replace it)")
            }
        }
        try manager.createDirectory(atPath: work, withIntermediateDirectories: true)
    }

    /// Renames the finished work folder into place (an old run under the name is replaced).
    public func commit() throws {
        let manager = FileManager.default
        if manager.fileExists(atPath: final) {
            let aside = final + ".replaced-\(getpid())"
            try manager.moveItem(atPath: final, toPath: aside)
            do {
                try manager.moveItem(atPath: work, toPath: final)
            } catch {
                try? manager.moveItem(atPath: aside, toPath: final) // the old run stays whole
                throw error
            }
            try? manager.removeItem(atPath: aside)
        } else {
            try manager.moveItem(atPath: work, toPath: final)
        }
        releaseLock()
    }

    /// Removes the work folder after an error (nothing half-written stays behind).
    public func abandon() {
        try? FileManager.default.removeItem(atPath: work)
        releaseLock()
    }

    /// Keeps the work folder (an interrupted run, to resume) and lets others in.
    public func suspend() { releaseLock() }

    private func releaseLock() {
        guard lockDescriptor >= 0 else { return }
        unlink(lockPath)
        flock(lockDescriptor, LOCK_UN)
        close(lockDescriptor)
        lockDescriptor = -1
    }

    /// A one-go writer that never committed (it threw) leaves nothing behind.
    deinit {
        if !resumable && lockDescriptor >= 0 { abandon() } else { releaseLock() }
    }
}

/// Set by SIGINT (Ctrl-C) or SIGTERM while a run measures: the run stops starting samples,
/// finishes those in flight, writes what it measured and says how to resume. A second signal
/// ends the process at once.
public final class InterruptFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var raised = false
    private var sources: [DispatchSourceSignal] = []

    public init() {}

    public var isRaised: Bool { lock.withLock { raised } }

    public func raise() { lock.withLock { raised = true } }

    /// Catches SIGINT and SIGTERM until ``stopWatching()``.
    public func watchSignals() {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in
                guard let self else { return }
                if self.isRaised { _exit(130) }
                self.raise()
                FileHandle.standardError.write(
                    Data("\npadbench: interrupted; finishing the samples in flight (again to quit at once)\n".utf8))
            }
            source.resume()
            sources.append(source)
        }
    }

    public func stopWatching() {
        for source in sources { source.cancel() }
        sources.removeAll()
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}

import Foundation
#if canImport(Glibc)
import Glibc
import PadEvaluation
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

    public init(final: String, force: Bool, resume: Bool) throws {
        let final = final.hasSuffix("/") && final.count > 1 ? String(final.dropLast()) : final
        self.final = final
        work = final + ".partial"
        lockPath = final + ".lock"
        resuming = resume
        lockDescriptor = -1
        let parent = (final as NSString).deletingLastPathComponent
        if !parent.isEmpty {
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
        }
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
        lockDescriptor = descriptor
        _ = ftruncate(descriptor, 0)
        let pid = "\(getpid())\n"
        _ = pid.withCString { write(descriptor, $0, strlen($0)) }

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
            guard force else {
                releaseLock()
                throw EvaluationError(
                    "\(work) holds an interrupted run: continue it with `padbench bench --resume \(final)`, or pass --force to start over"
                )
            }
            try manager.removeItem(atPath: work)
        }
        if manager.fileExists(atPath: final) && !complete {
            var isDirectory: ObjCBool = false
            manager.fileExists(atPath: final, isDirectory: &isDirectory)
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
            try manager.moveItem(atPath: work, toPath: final)
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

    deinit { releaseLock() }
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

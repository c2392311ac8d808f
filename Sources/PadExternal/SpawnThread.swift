import CLinux
import Foundation

/// The one thread that starts every external program.
///
/// Why a thread of its own: `PR_SET_PDEATHSIG` (prctl(2)) fires when the *thread* that forked the
/// child ends, not the process, and the threads of Swift's concurrency pool and Dispatch's queues
/// end when idle. Forked from this thread, which lives as long as padbench, an estimator gets its
/// SIGKILL exactly when padbench dies (`kill -9`, the OOM killer, a CI timeout) and never earlier.
///
/// ```swift
/// let pid = SpawnThread.shared.run { padbench_spawn(path, argv, environ, 0, 1, 2) }
/// ```
final class SpawnThread: @unchecked Sendable {
    // Safety: `jobs` is touched with `condition` locked; a job runs on the spawn thread while its caller waits.
    /// One per process: the thread must outlive every estimator it starts.
    static let shared = SpawnThread()

    private let condition = NSCondition()
    private var jobs: [() -> Void] = []

    private init() {
        let thread = Thread { [unowned self] in self.serve() }
        thread.name = "padbench-spawn"
        thread.start()
    }

    /// Runs `body` on the spawn thread and returns its result (the caller waits).
    func run<T>(_ body: @escaping () -> T) -> T {
        let done = NSCondition()
        var result: T?
        condition.lock()
        jobs.append {
            let value = body()
            done.lock()
            result = value
            done.signal()
            done.unlock()
        }
        condition.signal()
        condition.unlock()
        done.lock()
        while result == nil { done.wait() }
        done.unlock()
        return result!
    }

    private func serve() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
        }
    }
}

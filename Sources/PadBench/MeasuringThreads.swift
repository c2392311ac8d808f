import Foundation

/// Threads of their own for samples in flight beyond the cores: `--concurrency 64` on 2 CPUs means
/// 64 samples measured at once, most of them waiting for an external program (a remote model's
/// 200 ms, a batch to fill). Swift's task pool has one thread per core, and a sample blocked on a
/// program's answer holds its thread, so without these threads no more samples than cores are ever
/// in flight and a pipelined or batched program never sees more than that many requests.
///
/// Example: `MeasuringThreadsTests.moreSamplesInFlightThanCores` in `Tests/PadBenchTests/MeasuringThreadsTests.swift`.
final class MeasuringThreads: @unchecked Sendable {
    // Safety: `jobs` and `stopped` are touched only with `condition` locked (idle threads wait on it).
    private let condition = NSCondition()
    private var jobs: [@Sendable () -> Void] = []
    private var stopped = false

    /// Starts `count` threads that run submitted work until ``stop()``.
    init(count: Int) {
        for index in 0..<count {
            let thread = Thread { [self] in work() }
            thread.name = "padbench-measure-\(index)"
            thread.start()
        }
    }

    /// Runs `body` on one of the threads and returns its result to the awaiting task.
    func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            condition.lock()
            jobs.append { continuation.resume(returning: body()) }
            condition.signal()
            condition.unlock()
        }
    }

    /// Lets the threads end once the work already submitted is done.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while jobs.isEmpty && !stopped { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
        }
    }
}

import Synchronization

/// One piece of work run in the background while the caller goes on (`eval --scores`'s
/// `samples.csv`, a run's fingerprints, `outputs.csv`'s rows); ``wait()`` returns its result once
/// it is done, or rethrows its error, each time it is called. It is a ``BackgroundLane`` of one
/// item that keeps what the item returned, so the one-shot results and the serial writers run on
/// one mechanism, with one rule for errors.
///
/// ```swift
/// let sum = BackgroundValue { (1...100).reduce(0, +) }
/// let total = try sum.wait()  // 5050, computed on another thread
/// ```
package final class BackgroundValue<Value: Sendable>: Sendable {
    private let lane = BackgroundLane()
    // Set by the lane's one item; read by `wait()` after the lane has run it.
    private let result = Mutex<Value?>(nil)

    /// Starts `work` at once on a thread of its own.
    package init(_ work: @escaping @Sendable () throws -> Value) {
        lane.enqueue { _ in
            let value = try work()
            self.result.withLock { $0 = value }
        }
    }

    /// Waits for the work and returns its result, or rethrows its error.
    package func wait() throws -> Value {
        try lane.wait()
        return result.withLock { $0! }
    }
}

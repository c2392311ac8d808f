import Dispatch
import Synchronization

/// Independent steps run at the same time on the machine's cores (structured: every step has
/// finished when the call returns). The steps read shared immutable inputs and each returns its
/// own result, so nothing mutable is shared.
///
/// ```swift
/// let (curve, negated) = try Parallel.both({ try ErrorCurve(set) }, { SortedScores(set).negated() })
/// ```
package enum Parallel {
    /// Runs `first` and `second` concurrently and returns both results; the first error thrown
    /// (in argument order) is rethrown once both have finished.
    package static func both<A: Sendable, B: Sendable>(
        _ first: @Sendable () throws -> A, _ second: @Sendable () throws -> B
    ) throws -> (A, B) {
        let a = Slot<Result<A, Error>>(), b = Slot<Result<B, Error>>()
        DispatchQueue.concurrentPerform(iterations: 2) { step in
            if step == 0 { a.value = Result { try first() } } else { b.value = Result { try second() } }
        }
        return (try a.value!.get(), try b.value!.get())
    }

    /// `transform` of each element, computed concurrently, in the elements' order.
    package static func map<T: Sendable, R: Sendable>(_ items: [T], _ transform: @Sendable (T) -> R) -> [R] {
        let slots = items.map { _ in Slot<R>() }
        DispatchQueue.concurrentPerform(iterations: items.count) { k in slots[k].value = transform(items[k]) }
        return slots.map { $0.value! }
    }

    /// One result, written by exactly one step and read after every step has finished
    /// (`concurrentPerform` returns only then); its lock is never waited for.
    final class Slot<Value: Sendable>: Sendable {
        private let stored = Mutex<Value?>(nil)
        var value: Value? {
            get { stored.withLock { $0 } }
            set { stored.withLock { $0 = newValue } }
        }
    }
}

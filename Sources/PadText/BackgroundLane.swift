import Dispatch
import Synchronization

/// Work run on a thread of its own while the caller goes on, one item after the other in the
/// order it was enqueued (`decisions.csv`'s rows profile after profile, `curves.csv`'s blocks
/// batch after batch): padbench's one way to run work that is waited for later. ``wait()``
/// returns once every item enqueued before it has run, and rethrows the first error; the items
/// after a failure are skipped, so a full disk stops the writing at the first failed write and
/// that error is the one reported. ``BackgroundValue`` is a lane of one item that keeps its result.
///
/// The lane owns the one resource its items share (a writer) and hands it to each in turn, so
/// the items need not capture it. The resource and the first error are held in a `Mutex`, which
/// the compiler checks, rather than in a class marked `@unchecked Sendable`.
///
/// ```swift
/// FileManager.default.createFile(atPath: path, contents: nil)
/// let lane = BackgroundLane(try FileHandle(forWritingTo: URL(fileURLWithPath: path)))
/// lane.enqueue { try $0.write(contentsOf: Array("id,score\n".utf8)) }
/// lane.enqueue { try $0.write(contentsOf: Array("a.jpg,0.9\n".utf8)) }
/// lane.enqueue { try $0.close() }
/// try lane.wait()  // both rows written in order and the file closed, or the first error
/// ```
/// Call ``wait()`` on every path, errors included, before the resource (or the folder it writes
/// into) is used or removed: until it returns, an item may still be running. Never call it from
/// one of the lane's own items, which would wait for itself.
package final class BackgroundLane<Resource>: Sendable {
    // Serial, so items run one at a time and in the order they were enqueued.
    private let queue = DispatchQueue(label: "padbench.background-lane")
    private let state: Mutex<State>

    private struct State {
        var resource: Resource
        var failure: Error?
    }

    /// A lane whose items are handed `resource`. The caller gives it up (`sending`); a caller
    /// that keeps another path to it (an archive member under a CSV writer) may use that path
    /// only after ``wait()``.
    package init(_ resource: sending Resource) {
        state = Mutex(State(resource: resource, failure: nil))
    }

    /// Runs `work` with the resource after every item enqueued before it, unless one of those
    /// failed (then `work` is skipped and ``wait()`` throws that failure).
    package func enqueue(_ work: @escaping @Sendable (Resource) throws -> Void) {
        queue.async {
            self.state.withLock { state in
                guard state.failure == nil else { return }
                do { try work(state.resource) } catch { state.failure = error }
            }
        }
    }

    /// Waits until every item enqueued before this call has run (or been skipped) and throws the
    /// first error of any item so far. May be called again, and items enqueued after it: a later
    /// call throws the same first error.
    package func wait() throws {
        try queue.sync {
            try state.withLock { state in
                if let failure = state.failure { throw failure }
            }
        }
    }
}

extension BackgroundLane where Resource == Void {
    /// A lane whose items share nothing but their order.
    package convenience init() { self.init(()) }
}

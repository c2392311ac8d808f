import Foundation
import PadArchive
import Synchronization

/// `decisions.csv` written on a thread of its own while the run goes on: each profile's rows are
/// queued as soon as its thresholds are known (`ProfileEvaluator.evaluate(_:decisions:)`
/// given a `BackgroundDecisions`)
/// and written in profile order, one profile after the other, while the caller scores, decides the
/// presentations and writes the other reports. Ten million rows are seconds of formatting and
/// writing: before, the run waited for them after scoring.
///
/// ```swift
/// let decisions = BackgroundDecisions(try CSVWriter(path: folder + "/decisions.csv"))
/// let results = try evaluator.evaluate(profiles, decisions: decisions)
/// try decisions.finish()  // waits for the rows, closes the file, throws the first write error
/// ```
/// The first error stops the writing (later profiles are not written) and is thrown by
/// ``finish()``; ``finish()`` must be called on every path, errors included, so no write is still
/// running when the caller removes or commits the folder.
package final class BackgroundDecisions: Sendable {
    // Serial: profiles' rows in order; `writer` and the state are used on this queue only.
    private let queue = DispatchQueue(label: "padbench.decisions")
    // Safety: used on `queue` alone; what else holds its file (an archive member) waits for `finish()`.
    nonisolated(unsafe) private let writer: CSVWriter
    private let state = Mutex(State())

    private struct State {
        var failure: Error?
        var finished = false
    }

    package init(_ writer: CSVWriter) { self.writer = writer }

    /// Runs `work` on the writer after the work queued before it, unless one of those failed.
    func enqueue(_ work: @escaping @Sendable (CSVWriter) throws -> Void) {
        queue.async {
            self.state.withLock { state in
                guard state.failure == nil else { return }
                do { try work(self.writer) } catch { state.failure = error }
            }
        }
    }

    /// Waits for every queued write, closes the writer and throws the first error. Once only;
    /// later calls return at once.
    package func finish() throws {
        try queue.sync {
            try state.withLock { state in
                guard !state.finished else { return }
                state.finished = true
                if state.failure == nil {
                    do { try writer.close() } catch { state.failure = error }
                }
                if let failure = state.failure { throw failure }
            }
        }
    }
}

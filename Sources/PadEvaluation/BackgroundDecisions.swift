import Foundation
import PadArchive

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
package final class BackgroundDecisions: @unchecked Sendable {
    // Serial: profiles' rows in order; `writer` and `failure` are touched on this queue only.
    private let queue = DispatchQueue(label: "padbench.decisions")
    private let writer: CSVWriter
    private var failure: Error?
    private var finished = false

    package init(_ writer: CSVWriter) { self.writer = writer }

    /// Runs `work` on the writer after the work queued before it, unless one of those failed.
    func enqueue(_ work: @escaping @Sendable (CSVWriter) throws -> Void) {
        queue.async {
            guard self.failure == nil else { return }
            do { try work(self.writer) } catch { self.failure = error }
        }
    }

    /// Waits for every queued write, closes the writer and throws the first error. Once only;
    /// later calls return at once.
    package func finish() throws {
        try queue.sync {
            guard !finished else { return }
            finished = true
            if failure == nil {
                do { try writer.close() } catch { failure = error }
            }
            if let failure { throw failure }
        }
    }
}

import Foundation
import PadArchive

/// A bench run's journal, `samples.csv` in its work folder: rows are appended in sample order and
/// reach the file at least twice a second, from a timer, not only when the next row arrives (a
/// slow sample would otherwise keep rows measured seconds earlier in memory, lost to `kill -9`).
///
/// ```swift
/// let journal = try Journal(path: work + "/samples.csv", append: false)
/// try journal.writeRow(header)
/// try journal.close()
/// ```
final class Journal: @unchecked Sendable {
    /// Nanoseconds between flushes: kill -9 loses at most the rows of the last half second.
    static let flushInterval = 250_000_000

    private let csv: CSVWriter
    private let lock = NSLock()
    private let timer: DispatchSourceTimer
    private var failure: Error?

    init(path: String, append: Bool) throws {
        csv = try CSVWriter(path: path, append: append)
        timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(
            deadline: .now() + .nanoseconds(Self.flushInterval), repeating: .nanoseconds(Self.flushInterval))
        timer.setEventHandler { [weak self] in self?.flushFromTimer() }
        timer.resume()
    }

    func writeRow(_ fields: [String]) throws {
        try lock.withLock {
            if let failure { throw failure }
            try csv.writeRow(fields)
        }
    }

    /// A failed timed flush (a full disk) is reported by the next row or by ``close()``.
    private func flushFromTimer() {
        lock.withLock {
            guard failure == nil else { return }
            do { try csv.flush() } catch { failure = error }
        }
    }

    func close() throws {
        timer.cancel()
        try lock.withLock {
            if let failure { throw failure }
            try csv.close()
        }
    }

    deinit { timer.cancel() }
}

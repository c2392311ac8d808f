import Foundation
import PadArchive
import Synchronization

/// A bench run's journal, `samples.csv` in its work folder: rows are appended in sample order and
/// reach the file at least twice a second, from a timer, not only when the next row arrives (a
/// slow sample would otherwise keep rows measured seconds earlier in memory, lost to `kill -9`).
///
/// ```swift
/// let journal = try Journal(path: work + "/samples.csv", append: false)
/// try journal.writeRow(header)
/// try journal.close()
/// ```
final class Journal: Sendable {
    /// Nanoseconds between flushes: kill -9 loses at most the rows of the last half second.
    static let flushInterval = 250_000_000

    /// The file, its first failed timed flush, and the timer that flushes it.
    private struct State {
        let csv: CSVWriter
        let timer: any DispatchSourceTimer
        var failure: Error?
    }

    private let state: Mutex<State>

    init(path: String, append: Bool) throws {
        let csv = try CSVWriter(path: path, append: append)
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(
            deadline: .now() + .nanoseconds(Self.flushInterval), repeating: .nanoseconds(Self.flushInterval))
        state = Mutex(State(csv: csv, timer: timer))
        state.withLock { state in
            state.timer.setEventHandler { [weak self] in self?.flushFromTimer() }
            state.timer.resume()
        }
    }

    func writeRow(_ fields: [String]) throws {
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            try state.csv.writeRow(fields)
        }
    }

    /// A failed timed flush (a full disk) is reported by the next row or by ``close()``.
    private func flushFromTimer() {
        state.withLock { state in
            guard state.failure == nil else { return }
            do { try state.csv.flush() } catch { state.failure = error }
        }
    }

    func close() throws {
        state.withLock { $0.timer.cancel() }
        try state.withLock { state in
            if let failure = state.failure { throw failure }
            try state.csv.close()
        }
    }

    deinit { state.withLock { $0.timer.cancel() } }
}

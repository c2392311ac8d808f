import Foundation
import PadEstimators
import PadText
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One external program serving many samples at once: requests from any worker thread are queued,
/// written as lines while fewer than `max_in_flight` lines are outstanding (each line one request,
/// or a batch of up to `batch` requests), and a reader thread matches the answers to their requests
/// by id, in whatever order they come.
///
/// Example: `ExternalPipelineTests.answersOutOfOrderAreMatchedById` in `Tests/PadEstimatorsTests/ExternalPipelineTests.swift`.
///
/// Failures touch only the requests they concern: an answer with an error fails its request; a
/// line outstanding longer than the timeout fails its requests (`timeout`) and frees its slot (a
/// late answer for them is dropped), and when nothing at all was answered meanwhile the program is
/// taken as hung and restarted; a crash, a line that is not JSON, an unknown or repeated id or a
/// batch answer holding more answers than its batch fails the requests outstanding on that
/// process (each once) and a new process is started, which must describe the same outputs.
/// A request missing from its batch's answer fails alone. Nothing is lost: every submitted request
/// ends with values or a failure.
final class ExternalChannel: Sendable {
    /// One sample's request waiting for its answer.
    final class Ticket: Sendable {
        let id: String
        let message: ExternalRequest
        let done = DispatchSemaphore(value: 0)
        private let outcome = Mutex<Result<[Double], EstimatorFailure>?>(nil)
        /// Written once, before `done` is signalled.
        var result: Result<[Double], EstimatorFailure>? {
            get { outcome.withLock { $0 } }
            set { outcome.withLock { $0 = newValue } }
        }
        init(id: String, message: ExternalRequest) {
            self.id = id
            self.message = message
        }
    }

    /// A line written and not yet fully answered. Lines live in ``State`` and are touched with it
    /// locked; outside the lock the writer names its line by `number`.
    private final class Line {
        var pending: Set<String>
        let sent: Date
        let generation: Int
        let number: Int
        /// Why writing it failed (the program did not read its input in time), said instead of the
        /// end of the program that follows.
        var failure: EstimatorFailure?
        init(pending: Set<String>, sent: Date, generation: Int, number: Int) {
            self.pending = pending
            self.sent = sent
            self.generation = generation
            self.number = number
        }
    }

    /// Everything the writer, the reader threads and the submitting workers share.
    private struct State {
        var queue: [Ticket] = []
        var lines: [Line] = []
        var waiting: [String: (ticket: Ticket, line: Line)] = [:]
        /// Ids whose requests timed out: their late answers are dropped, not taken as out of step.
        var abandoned = Set<String>()
        var process: ExternalProcess?
        var generation = 0
        /// The number of the last line written.
        var lineNumber = 0
        var lastAnswer = Date.distantPast
        var closed = false
        var pumpRequested = false
    }

    /// What the writer does next (``writeQueued()``).
    private enum Step {
        case stop
        case start
        case write(to: ExternalProcess, requests: [Ticket], line: Int)
    }

    let options: ExternalProtocolOptions
    let timeout: Double
    private let outputNames: [String]
    private let start: @Sendable () throws(EstimatorFailure) -> ExternalProcess
    private let state = Mutex(State())
    /// Held by the one thread writing to the program (``pump(blocking:)``); the program's output and
    /// stderr are read by its reader thread only.
    private let writing = Mutex(())

    /// `process`: a program that has already answered `describe` (the estimator's first); `start`
    /// makes a new one (spawn and `describe`) after a failure.
    init(
        process: ExternalProcess?, options: ExternalProtocolOptions, timeout: Double, outputNames: [String],
        start: @escaping @Sendable () throws(EstimatorFailure) -> ExternalProcess
    ) {
        self.options = options
        self.timeout = timeout
        self.outputNames = outputNames
        self.start = start
        if let process { state.withLock { adopt(process, in: &$0) } }
    }

    /// Requests queued or outstanding: how busy this program is.
    var load: Int { state.withLock { $0.queue.count + $0.waiting.count } }

    /// Sends one request and waits for its answer.
    func submit(_ message: ExternalRequest, id: String) -> Result<[Double], EstimatorFailure> {
        let ticket = Ticket(id: id, message: message)
        let duplicate = state.withLock { state in
            let duplicate = state.waiting[id] != nil || state.queue.contains { $0.id == id }
            if !duplicate { state.queue.append(ticket) }
            return duplicate
        }
        if duplicate {
            return .failure(
                EstimatorFailure(
                    .estimatorError, "another request with id '\(TextBytes.quote(id))' is already in flight"))
        }
        pump()
        ticket.done.wait()
        return ticket.result ?? .failure(EstimatorFailure(.estimatorError, "no answer"))
    }

    /// Ends the program; requests still waiting fail.
    func close() {
        let current = state.withLock { state in
            state.closed = true
            return state.process
        }
        current?.signalKill()
        writing.withLock { _ in }
        fail(everything: true, EstimatorFailure(.estimatorError, "the run ended before the program answered"))
    }

    /// Writes queued requests while lines may be outstanding, starting a program when none runs.
    /// A reader thread never waits for the writer (`blocking: false`): the writer may be waiting for
    /// room in the program's input while the program waits for room in its output, which only the
    /// reader empties. A request to pump that finds the writer busy is left as a flag the writer
    /// looks at before it lets go.
    private func pump(blocking: Bool = true) {
        state.withLock { $0.pumpRequested = true }
        while true {
            if blocking {
                writing.withLock { _ in writeQueued() }
            } else if writing.withLockIfAvailable({ _ in writeQueued() }) == nil {
                return
            }
            let again = state.withLock { $0.pumpRequested }
            if !again { return }
        }
    }

    /// The writer's loop (``writing`` held). It answers every request to pump made before it began.
    private func writeQueued() {
        state.withLock { $0.pumpRequested = false }
        var started: ExternalProcess?
        while true {
            let step = state.withLock { state -> Step in
                if let made = started {
                    adopt(made, in: &state)
                } else {
                    guard !state.closed, !state.queue.isEmpty, state.lines.count < options.maxInFlight else {
                        return .stop
                    }
                    if state.process == nil { return .start }
                }
                let taken = Array(state.queue.prefix(options.batch))
                state.queue.removeFirst(taken.count)
                state.lineNumber += 1
                let line = Line(
                    pending: Set(taken.map(\.id)), sent: Date(), generation: state.generation,
                    number: state.lineNumber)
                state.lines.append(line)
                for ticket in taken { state.waiting[ticket.id] = (ticket, line) }
                return .write(to: state.process!, requests: taken, line: line.number)
            }
            started = nil
            switch step {
            case .stop:
                return
            case .start:
                do { started = try start() } catch {
                    // No program: every queued request fails with why, and the next one tries again.
                    let failed = state.withLock { state in
                        let failed = state.queue
                        state.queue = []
                        return failed
                    }
                    for ticket in failed { finish(ticket, .failure(error)) }
                    return
                }
            case .write(let target, let taken, let number):
                let data: [UInt8]
                do { data = try ExternalRequest.line(taken.map(\.message), batched: options.batch > 1) } catch {
                    resolve(line: number, .failure(error))
                    continue
                }
                do {
                    try target.send(
                        data + [0x0A], until: Date().addingTimeInterval(timeout), timeout: timeout, quietly: true)
                } catch {
                    // It does not read (or is gone): its reader sees the end and fails what is outstanding,
                    // this line with the reason it could not be written when the program was alive.
                    state.withLock { state in
                        if error.kind == .timeout { state.lines.first { $0.number == number }?.failure = error }
                    }
                    target.signalKill()
                }
            }
        }
    }

    private func adopt(_ made: ExternalProcess, in state: inout State) {
        state.generation += 1
        state.process = made
        let mine = state.generation
        let thread = Thread { [self] in read(made, generation: mine) }
        thread.name = "padbench-external-reader"
        thread.start()
    }

    /// The reader thread of one program: answers to their requests, timeouts, the end.
    private func read(_ program: ExternalProcess, generation mine: Int) {
        while true {
            let line: [UInt8]?
            do { line = try program.readLine(until: Date().addingTimeInterval(0.1)) } catch {
                ended(program, generation: mine, error)
                return
            }
            if let line {
                do {
                    let answers = try ExternalEstimator.identifiedAnswers(line, outputs: outputNames)
                    try deliver(answers, generation: mine)
                } catch {
                    program.signalKill()
                    ended(program, generation: mine, EstimatorFailure(.estimatorError, error.message))
                    return
                }
            } else if expire(generation: mine) {
                program.signalKill()
                ended(
                    program, generation: mine,
                    EstimatorFailure(.timeout, "no answer within \(timeout) s; the program was restarted"))
                return
            }
            pump(blocking: false)
        }
    }

    /// Hands each answer to its request. A line holding an answer for no outstanding request is out
    /// of step as a whole: none of its answers is trusted, its requests fail, the program restarts.
    private func deliver(_ answers: [ExternalEstimator.IdentifiedAnswer], generation mine: Int) throws(AnswerError) {
        typealias Done = [(Ticket, Result<[Double], EstimatorFailure>)]
        let (done, problem) = state.withLock { state -> (Done, AnswerError?) in
            state.lastAnswer = Date()
            let fresh = answers.filter { state.abandoned.remove($0.id) == nil }
            if let stranger = fresh.first(where: { state.waiting[$0.id] == nil }) {
                var failed: Done = []
                let problem = AnswerError(
                    outOfStep: true, "answered id '\(TextBytes.quote(stranger.id, limit: 120))', which was not asked")
                for answer in fresh {
                    guard let (_, line) = state.waiting[answer.id] else { continue }
                    for id in line.pending {
                        if let (ticket, _) = state.waiting.removeValue(forKey: id) {
                            failed.append((ticket, .failure(EstimatorFailure(.estimatorError, problem.message))))
                        }
                    }
                    line.pending = []
                }
                state.lines.removeAll { $0.pending.isEmpty }
                // The next request goes to a new program, never to this one.
                if state.generation == mine { state.process = nil }
                return (failed, problem)
            }
            var done: Done = []
            var lineOfBatch: Line?
            for answer in fresh {
                let (ticket, line) = state.waiting.removeValue(forKey: answer.id)!
                line.pending.remove(answer.id)
                lineOfBatch = line
                done.append((ticket, answer.result))
            }
            // A batch answer completes its batch: a request it did not answer fails alone. An answer that
            // names none of its requests (an empty list) answers the oldest batch outstanding.
            if options.batch > 1, lineOfBatch == nil {
                lineOfBatch = state.lines.first { !$0.pending.isEmpty }
            }
            if options.batch > 1, let line = lineOfBatch, !line.pending.isEmpty {
                for id in line.pending {
                    if let (ticket, _) = state.waiting.removeValue(forKey: id) {
                        done.append(
                            (
                                ticket,
                                .failure(
                                    EstimatorFailure(.estimatorError, "the batch's answer has no answer for this id"))
                            ))
                    }
                }
                line.pending = []
            }
            state.lines.removeAll { $0.pending.isEmpty }
            return (done, nil)
        }
        for (ticket, result) in done { finish(ticket, result) }
        if let problem { throw problem }
    }

    /// Fails lines outstanding longer than the timeout; true when the program looks hung (nothing
    /// answered since the oldest of them was sent).
    private func expire(generation mine: Int) -> Bool {
        let now = Date()
        let (failed, hung) = state.withLock { state -> ([Ticket], Bool) in
            let overdue = state.lines.filter { $0.generation == mine && now.timeIntervalSince($0.sent) > timeout }
            guard !overdue.isEmpty else { return ([], false) }
            let hung = overdue.allSatisfy { state.lastAnswer < $0.sent }
            var failed: [Ticket] = []
            for line in overdue {
                for id in line.pending {
                    if let (ticket, _) = state.waiting.removeValue(forKey: id) {
                        failed.append(ticket)
                        state.abandoned.insert(id)
                    }
                }
                line.pending = []
            }
            state.lines.removeAll { $0.pending.isEmpty }
            return (failed, hung)
        }
        for ticket in failed { finish(ticket, .failure(EstimatorFailure(.timeout, "no answer within \(timeout) s"))) }
        return hung
    }

    /// The program ended (or was ended): what it still owed fails, and the next request starts a new one.
    private func ended(_ program: ExternalProcess, generation mine: Int, _ error: EstimatorFailure) {
        let message = error.message + program.exitDescription() + program.stderrSuffix()
        program.terminate()
        state.withLock { state in
            if state.generation == mine { state.process = nil }
        }
        fail(generation: mine, EstimatorFailure(error.kind, message))
        pump(blocking: false)
    }

    /// Fails the outstanding requests of one program (or, with `everything`, all of them and the queue).
    private func fail(generation: Int? = nil, everything: Bool = false, _ error: EstimatorFailure) {
        let failed = state.withLock { state -> [(Ticket, EstimatorFailure)] in
            var failed: [(Ticket, EstimatorFailure)] = []
            for line in state.lines where everything || line.generation == generation {
                for id in line.pending {
                    if let (ticket, _) = state.waiting.removeValue(forKey: id) {
                        failed.append((ticket, line.failure ?? error))
                    }
                }
                line.pending = []
            }
            state.lines.removeAll { $0.pending.isEmpty }
            if everything {
                failed += state.queue.map { ($0, error) }
                state.queue = []
            }
            return failed
        }
        for (ticket, failure) in failed { finish(ticket, .failure(failure)) }
    }

    /// Resolves the requests of line `number` still waiting (none once it has been answered or failed).
    private func resolve(line number: Int, _ result: Result<[Double], EstimatorFailure>) {
        let tickets = state.withLock { state -> [Ticket] in
            var tickets: [Ticket] = []
            if let line = state.lines.first(where: { $0.number == number }) {
                for id in line.pending {
                    if let (ticket, _) = state.waiting.removeValue(forKey: id) { tickets.append(ticket) }
                }
                line.pending = []
            }
            state.lines.removeAll { $0.pending.isEmpty }
            return tickets
        }
        for ticket in tickets { finish(ticket, result) }
    }

    private func finish(_ ticket: Ticket, _ result: Result<[Double], EstimatorFailure>) {
        ticket.result = result
        ticket.done.signal()
    }
}

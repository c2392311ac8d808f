import Foundation
import PadEstimators
import PadText

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
final class ExternalChannel: @unchecked Sendable {
    // Safety: every mutable field is guarded by `lock`; writes to the program by `writeLock`; the
    // program's output and stderr are read by its reader thread only.

    /// One sample's request waiting for its answer.
    final class Ticket: @unchecked Sendable {
        let id: String
        let message: ExternalRequest
        let done = DispatchSemaphore(value: 0)
        // Written once, before `done` is signalled.
        var result: Result<[Double], EstimatorFailure>?
        init(id: String, message: ExternalRequest) {
            self.id = id
            self.message = message
        }
    }

    /// A line written and not yet fully answered.
    private final class Line {
        var pending: Set<String>
        let sent: Date
        let generation: Int
        /// Why writing it failed (the program did not read its input in time), said instead of the
        /// end of the program that follows.
        var failure: EstimatorFailure?
        init(pending: Set<String>, sent: Date, generation: Int) {
            self.pending = pending
            self.sent = sent
            self.generation = generation
        }
    }

    let options: ExternalProtocolOptions
    let timeout: Double
    private let outputNames: [String]
    private let start: () throws(EstimatorFailure) -> ExternalProcess
    private let lock = NSLock()
    private let writeLock = NSLock()
    private var queue: [Ticket] = []
    private var lines: [Line] = []
    private var waiting: [String: (ticket: Ticket, line: Line)] = [:]
    /// Ids whose requests timed out: their late answers are dropped, not taken as out of step.
    private var abandoned = Set<String>()
    private var process: ExternalProcess?
    private var generation = 0
    private var lastAnswer = Date.distantPast
    private var closed = false
    private var pumpRequested = false

    /// `process`: a program that has already answered `describe` (the estimator's first); `start`
    /// makes a new one (spawn and `describe`) after a failure.
    init(
        process: ExternalProcess?, options: ExternalProtocolOptions, timeout: Double, outputNames: [String],
        start: @escaping () throws(EstimatorFailure) -> ExternalProcess
    ) {
        self.options = options
        self.timeout = timeout
        self.outputNames = outputNames
        self.start = start
        if let process { adopt(process) }
    }

    /// Requests queued or outstanding: how busy this program is.
    var load: Int {
        lock.lock()
        defer { lock.unlock() }
        return queue.count + waiting.count
    }

    /// Sends one request and waits for its answer.
    func submit(_ message: ExternalRequest, id: String) -> Result<[Double], EstimatorFailure> {
        let ticket = Ticket(id: id, message: message)
        lock.lock()
        let duplicate = waiting[id] != nil || queue.contains { $0.id == id }
        if !duplicate { queue.append(ticket) }
        lock.unlock()
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
        lock.lock()
        closed = true
        let current = process
        lock.unlock()
        current?.signalKill()
        writeLock.lock()
        writeLock.unlock()
        fail(everything: true, EstimatorFailure(.estimatorError, "the run ended before the program answered"))
    }

    /// Writes queued requests while lines may be outstanding, starting a program when none runs.
    /// A reader thread never waits for the writer (`blocking: false`): the writer may be waiting for
    /// room in the program's input while the program waits for room in its output, which only the
    /// reader empties. A request to pump that finds the writer busy is left as a flag the writer
    /// looks at before it lets go.
    private func pump(blocking: Bool = true) {
        lock.lock()
        pumpRequested = true
        lock.unlock()
        while true {
            if blocking { writeLock.lock() } else if !writeLock.try() { return }
            lock.lock()
            pumpRequested = false
            lock.unlock()
            writeQueued()
            writeLock.unlock()
            lock.lock()
            let again = pumpRequested
            lock.unlock()
            if !again { return }
        }
    }

    /// The writer's loop (``writeLock`` held).
    private func writeQueued() {
        while true {
            lock.lock()
            guard !closed, !queue.isEmpty, lines.count < options.maxInFlight else {
                lock.unlock()
                return
            }
            if process == nil {
                lock.unlock()
                let made: ExternalProcess
                do { made = try start() } catch {
                    // No program: every queued request fails with why, and the next one tries again.
                    lock.lock()
                    let failed = queue
                    queue = []
                    lock.unlock()
                    for ticket in failed { finish(ticket, .failure(error)) }
                    return
                }
                lock.lock()
                adoptLocked(made)
            }
            let taken = Array(queue.prefix(options.batch))
            queue.removeFirst(taken.count)
            let line = Line(pending: Set(taken.map(\.id)), sent: Date(), generation: generation)
            lines.append(line)
            for ticket in taken { waiting[ticket.id] = (ticket, line) }
            let target = process!
            lock.unlock()
            let data: [UInt8]
            do { data = try ExternalRequest.line(taken.map(\.message), batched: options.batch > 1) } catch {
                resolve(line: line, .failure(error))
                continue
            }
            do {
                try target.send(
                    data + [0x0A], until: Date().addingTimeInterval(timeout), timeout: timeout, quietly: true)
            } catch {
                // It does not read (or is gone): its reader sees the end and fails what is outstanding,
                // this line with the reason it could not be written when the program was alive.
                lock.lock()
                if error.kind == .timeout { line.failure = error }
                lock.unlock()
                target.signalKill()
            }
        }
    }

    private func adopt(_ made: ExternalProcess) {
        lock.lock()
        adoptLocked(made)
        lock.unlock()
    }

    private func adoptLocked(_ made: ExternalProcess) {
        generation += 1
        process = made
        let mine = generation
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
        lock.lock()
        lastAnswer = Date()
        let fresh = answers.filter { abandoned.remove($0.id) == nil }
        if let stranger = fresh.first(where: { waiting[$0.id] == nil }) {
            var failed: [Ticket] = []
            let problem = AnswerError(
                outOfStep: true, "answered id '\(TextBytes.quote(stranger.id, limit: 120))', which was not asked")
            for answer in fresh {
                guard let (_, line) = waiting[answer.id] else { continue }
                for id in line.pending {
                    if let (ticket, _) = waiting.removeValue(forKey: id) { failed.append(ticket) }
                }
                line.pending = []
            }
            lines.removeAll { $0.pending.isEmpty }
            // The next request goes to a new program, never to this one.
            if generation == mine { process = nil }
            lock.unlock()
            for ticket in failed { finish(ticket, .failure(EstimatorFailure(.estimatorError, problem.message))) }
            throw problem
        }
        var done: [(Ticket, Result<[Double], EstimatorFailure>)] = []
        var lineOfBatch: Line?
        for answer in fresh {
            let (ticket, line) = waiting.removeValue(forKey: answer.id)!
            line.pending.remove(answer.id)
            lineOfBatch = line
            done.append((ticket, answer.result))
        }
        // A batch answer completes its batch: a request it did not answer fails alone. An answer that
        // names none of its requests (an empty list) answers the oldest batch outstanding.
        if options.batch > 1, lineOfBatch == nil {
            lineOfBatch = lines.first { !$0.pending.isEmpty }
        }
        if options.batch > 1, let line = lineOfBatch, !line.pending.isEmpty {
            for id in line.pending {
                if let (ticket, _) = waiting.removeValue(forKey: id) {
                    done.append(
                        (
                            ticket,
                            .failure(EstimatorFailure(.estimatorError, "the batch's answer has no answer for this id"))
                        ))
                }
            }
            line.pending = []
        }
        lines.removeAll { $0.pending.isEmpty }
        lock.unlock()
        for (ticket, result) in done { finish(ticket, result) }
    }

    /// Fails lines outstanding longer than the timeout; true when the program looks hung (nothing
    /// answered since the oldest of them was sent).
    private func expire(generation mine: Int) -> Bool {
        let now = Date()
        lock.lock()
        let overdue = lines.filter { $0.generation == mine && now.timeIntervalSince($0.sent) > timeout }
        guard !overdue.isEmpty else {
            lock.unlock()
            return false
        }
        let hung = overdue.allSatisfy { lastAnswer < $0.sent }
        var failed: [Ticket] = []
        for line in overdue {
            for id in line.pending {
                if let (ticket, _) = waiting.removeValue(forKey: id) {
                    failed.append(ticket)
                    abandoned.insert(id)
                }
            }
            line.pending = []
        }
        lines.removeAll { $0.pending.isEmpty }
        lock.unlock()
        for ticket in failed { finish(ticket, .failure(EstimatorFailure(.timeout, "no answer within \(timeout) s"))) }
        return hung
    }

    /// The program ended (or was ended): what it still owed fails, and the next request starts a new one.
    private func ended(_ program: ExternalProcess, generation mine: Int, _ error: EstimatorFailure) {
        let message = error.message + program.exitDescription() + program.stderrSuffix()
        program.terminate()
        lock.lock()
        if generation == mine { process = nil }
        lock.unlock()
        fail(generation: mine, EstimatorFailure(error.kind, message))
        pump(blocking: false)
    }

    /// Fails the outstanding requests of one program (or, with `everything`, all of them and the queue).
    private func fail(generation: Int? = nil, everything: Bool = false, _ error: EstimatorFailure) {
        lock.lock()
        var failed: [(Ticket, EstimatorFailure)] = []
        for line in lines where everything || line.generation == generation {
            for id in line.pending {
                if let (ticket, _) = waiting.removeValue(forKey: id) { failed.append((ticket, line.failure ?? error)) }
            }
            line.pending = []
        }
        lines.removeAll { $0.pending.isEmpty }
        if everything {
            failed += queue.map { ($0, error) }
            queue = []
        }
        lock.unlock()
        for (ticket, failure) in failed { finish(ticket, .failure(failure)) }
    }

    private func resolve(line: Line, _ result: Result<[Double], EstimatorFailure>) {
        lock.lock()
        var tickets: [Ticket] = []
        for id in line.pending {
            if let (ticket, _) = waiting.removeValue(forKey: id) { tickets.append(ticket) }
        }
        line.pending = []
        lines.removeAll { $0.pending.isEmpty }
        lock.unlock()
        for ticket in tickets { finish(ticket, result) }
    }

    private func finish(_ ticket: Ticket, _ result: Result<[Double], EstimatorFailure>) {
        ticket.result = result
        ticket.done.signal()
    }
}

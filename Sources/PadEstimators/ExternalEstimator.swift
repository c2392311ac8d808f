import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Any program as an estimator (a neural model in Python, a wrapper around a vendor SDK): padbench
/// starts it, asks once what it outputs, then streams one JSON line per sample and reads one line
/// back.
///
/// ```swift
/// let pad = try ExternalEstimator(name: "pad", command: "python3 examples/external/pad_estimator.py", timeout: 10)
/// ```
/// Protocol (one JSON object per line, UTF-8, on standard input and output):
/// 1. padbench sends `{"describe": true}`; the program answers
///    `{"outputs": ["score", ...], "version": "1.2"}` (output names, optionally with
///    `"ranges": {"score": [0, 1]}` and `"directions": {"score": "higher-better"}`).
/// 2. per sample padbench sends `{"id": "...", "path": "/abs/or/relative/image.jpg"}` and the program
///    answers `{"id": "...", "outputs": {"score": 0.93}}` (missing or null outputs are NaN) or
///    `{"id": "...", "error": "message"}`.
/// Each worker thread gets its own process, started on first use. A crash, a line that is not
/// JSON, an answer for another id, or no answer within the timeout is that sample's failure
/// (`estimator_error` or `timeout`); the process is killed and a new one starts for the next sample.
public final class ExternalEstimator: Estimator, @unchecked Sendable {
    public let name: String
    public let command: String
    public let timeout: Double
    public let version: String
    public let outputs: [OutputDescriptor]
    public var parameters: [String: String] { ["command": command, "timeout_s": "\(timeout)"] }

    private let lock = NSLock()
    private var idle: [Worker] = []

    public init(name: String, command: String, timeout: Double = 30) throws {
        self.name = name
        self.command = command
        self.timeout = timeout
        // A program that dies leaves a broken pipe; writing to it must be an error, not SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let worker: Worker
        do { worker = try Worker(command: command) } catch {
            throw EstimatorSetupError(estimator: name, message: "cannot start '\(command)': \(error)")
        }
        let reply: [String: Any]
        do {
            reply = try worker.exchange(["describe": true], timeout: max(timeout, 10))
        } catch {
            worker.kill()
            throw EstimatorSetupError(estimator: name, message: "'\(command)' did not describe itself: \(error.message); it must answer {\"describe\": true} with {\"outputs\": [...]}")
        }
        guard let names = reply["outputs"] as? [String], !names.isEmpty, names.allSatisfy({ !$0.isEmpty && !$0.contains(".") && !$0.contains(",") }) else {
            worker.kill()
            throw EstimatorSetupError(estimator: name, message: "'\(command)' answered describe without a list of output names (no dots or commas)")
        }
        let ranges = reply["ranges"] as? [String: [Double]] ?? [:]
        let directions = reply["directions"] as? [String: String] ?? [:]
        outputs = names.map { output in
            let range = ranges[output] ?? []
            return OutputDescriptor(name: output, unit: "", minimum: range.first ?? -.infinity, maximum: range.count > 1 ? range[1] : .infinity,
                                    direction: directions[output].flatMap(Direction.init(rawValue:)) ?? .none,
                                    summary: "external: \(command)")
        }
        version = (reply["version"] as? String) ?? "external"
        idle = [worker]
    }

    deinit { for worker in idle { worker.kill() } }

    public func measure(_ input: inout EstimatorInput) throws(EstimatorFailure) -> [Double] {
        let worker: Worker
        do { worker = try checkOut() } catch { throw EstimatorFailure(.estimatorError, "\(name): cannot start '\(command)': \(error)") }
        let reply: [String: Any]
        do {
            reply = try worker.exchange(["id": input.sample.id, "path": input.sample.path], timeout: timeout)
        } catch {
            worker.kill()  // state unknown: never reuse
            throw error
        }
        guard (reply["id"] as? String) == input.sample.id else {
            worker.kill()
            throw EstimatorFailure(.estimatorError, "\(name): answered for id '\(reply["id"] ?? "none")' instead of '\(input.sample.id)'")
        }
        checkIn(worker)
        if let message = reply["error"] as? String { throw EstimatorFailure(.estimatorError, "\(name): \(message)") }
        guard let values = reply["outputs"] as? [String: Any] else {
            throw EstimatorFailure(.estimatorError, "\(name): answer has neither 'outputs' nor 'error'")
        }
        return outputs.map { descriptor in (values[descriptor.name] as? NSNumber)?.doubleValue ?? .nan }
    }

    private func checkOut() throws -> Worker {
        lock.lock()
        if let worker = idle.popLast() {
            lock.unlock()
            return worker
        }
        lock.unlock()
        return try Worker(command: command)
    }

    private func checkIn(_ worker: Worker) {
        lock.lock()
        idle.append(worker)
        lock.unlock()
    }

    /// One running program with line-oriented pipes.
    final class Worker {
        let process = Process()
        let input = Pipe(), output = Pipe()
        var buffer: [UInt8] = []

        init(command: String) throws {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "exec " + command]
            process.standardInput = input
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        func kill() {
            if process.isRunning { process.terminate() }
            try? input.fileHandleForWriting.close()
        }

        /// Sends one JSON line and waits for one JSON line back.
        func exchange(_ message: [String: Any], timeout: Double) throws(EstimatorFailure) -> [String: Any] {
            guard process.isRunning else { throw EstimatorFailure(.estimatorError, "the program exited (status \(process.terminationStatus))") }
            guard let data = try? JSONSerialization.data(withJSONObject: message) else { throw EstimatorFailure(.estimatorError, "cannot encode request") }
            var line = [UInt8](data)
            line.append(0x0A)
            let fd = input.fileHandleForWriting.fileDescriptor
            var sent = 0
            while sent < line.count {
                let n = line.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + sent, line.count - sent) }
                if n < 0 {
                    if errno == EINTR { continue }
                    throw EstimatorFailure(.estimatorError, "the program closed its input (crashed?)")
                }
                sent += n
            }
            let deadline = Date().addingTimeInterval(timeout)
            let readFD = output.fileHandleForReading.fileDescriptor
            while true {
                if let newline = buffer.firstIndex(of: 0x0A) {
                    let lineBytes = Array(buffer[..<newline])
                    buffer.removeSubrange(...newline)
                    guard let object = try? JSONSerialization.jsonObject(with: Data(lineBytes)), let reply = object as? [String: Any] else {
                        throw EstimatorFailure(.estimatorError, "answer is not a JSON object: '\(String(decoding: lineBytes.prefix(80), as: UTF8.self))'")
                    }
                    return reply
                }
                let remaining = deadline.timeIntervalSinceNow
                if remaining <= 0 { throw EstimatorFailure(.timeout, "no answer within \(timeout) s") }
                var poller = pollfd(fd: readFD, events: Int16(POLLIN), revents: 0)
                let ready = poll(&poller, 1, Int32(min(remaining * 1000, 1_000_000)))
                if ready < 0 { if errno == EINTR { continue } else { throw EstimatorFailure(.estimatorError, "poll failed") } }
                if ready == 0 { continue }
                var chunk = [UInt8](repeating: 0, count: 65_536)
                let n = chunk.withUnsafeMutableBytes { Glibc.read(readFD, $0.baseAddress, $0.count) }
                if n <= 0 { throw EstimatorFailure(.estimatorError, "the program exited without answering (crash)") }
                buffer.append(contentsOf: chunk[0..<n])
            }
        }
    }
}

import Foundation
import PadEstimators
import PadImage
import PadText
import PadVocabulary
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Any program as an estimator (a neural model in Python, a wrapper around a vendor SDK): padbench
/// starts it, asks once what it outputs, then streams one JSON line per sample and reads one line
/// back.
///
/// Example: `ExternalProcessTests.programThatNeverAnswersTimesOutAndLeavesNoProcess`
/// in `Tests/PadEstimatorsTests/ExternalProcessTests.swift` (compiled and run by `swift test`).
/// Protocol (one JSON object per line, UTF-8, on standard input and output):
/// 1. padbench sends `{"describe": true}`; the program answers
///    `{"outputs": ["score", ...], "version": "1.2"}` (output names, optionally with
///    `"ranges": {"score": [0, 1]}` and `"directions": {"score": "higher-better"}`).
/// 2. per sample padbench sends `{"id": "...", "path": "/abs/or/relative/image.jpg"}` (plus `face`,
///    `face_source`, `faces`, `landmarks` and a still's `orientation` and `upright`,
///    ``request(_:faces:)``; for a video frame `path` is a temporary PPM of the decoded frame,
///    removed after the answer, and `presentation`, `frame`, `time` and `video` say which frame of
///    which video it is, ``addFrameFields(of:to:)``; `pixels` with `"input": "rgb24"`) and the program
///    answers `{"id": "...", "outputs": {"score": 0.93}}` (missing or null outputs are NaN) or
///    `{"id": "...", "error": "message"}`.
/// 3. a program that declares `max_in_flight` or `batch` (``ExternalProtocolOptions``) gets many
///    requests at once, or `{"batch": [...]}` lines, from one shared process (``ExternalChannel``).
/// A program that declares neither gets one process per worker thread, started on first use
/// (``ExternalProcess``: own process group, clean signal mask), at most `--external-processes` of
/// them. A crash, a line that is not JSON, an answer for another id, an output that is a string or
/// a boolean instead of a number, or no answer within the timeout is that sample's failure
/// (`estimator_error` or `timeout`, with the program's last stderr lines in the message); the
/// process group gets SIGTERM, then SIGKILL after 1 s, and is reaped. A new process starts for the
/// next sample and must answer `describe` with the same outputs again.
package final class ExternalEstimator: Estimator, Sendable {
    package let name: String
    package let command: String
    package let timeout: Double
    package let version: String
    package let outputs: [OutputDescriptor]
    package var parameters: [String: String] {
        var values = ["command": command, "timeout_s": "\(timeout)"]
        values.merge(protocolOptions.parameters) { _, option in option }
        values["processes"] = processes.map { "\($0)" } ?? (protocolOptions.isConcurrent ? "1" : "one per worker")
        return values
    }
    /// The program computes in its own process: padbench's thread only writes and waits.
    package var cpuTimeIsPerSample: Bool { false }
    /// A still goes to the program as its file, unless it asked for decoded pixels (`rgb24`).
    package var readsPixels: Bool { protocolOptions.input == .rgb24 }
    /// What the program declared in `describe` about how it takes requests.
    package let protocolOptions: ExternalProtocolOptions
    /// `--external-processes`, when given.
    package let processes: Int?

    /// Started programs waiting for their next sample (a one-request-at-a-time program).
    private let idle: Mutex<[ExternalProcess]>
    private let outputNames: [String]
    /// The shared programs of a pipelining or batching program (empty otherwise).
    private let channels: [ExternalChannel]
    /// At most `processes` programs at once for a one-request-at-a-time program.
    private let slots: DispatchSemaphore?

    /// `processes`: how many copies of the program run (`--external-processes`); nil is one per
    /// worker for a program that takes one request at a time, one in all for a program that
    /// pipelines or batches.
    package init(name: String, command: String, timeout: Double = 30, processes: Int? = nil) throws {
        self.name = name
        self.command = command
        self.timeout = timeout
        // A program that dies leaves a broken pipe; writing to it must be an error, not SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let worker: ExternalProcess
        do { worker = try ExternalProcess(command: command) } catch {
            throw EstimatorSetupError(estimator: name, message: "cannot start '\(command)': \(error)")
        }
        let reply: [String: JSONValue], describeLine: [UInt8]
        do {
            (reply, describeLine) = try Self.describe(worker, timeout: timeout)
        } catch {
            worker.terminate()
            throw EstimatorSetupError(
                estimator: name,
                message:
                    "'\(command)' did not describe itself: \(error.message); "
                    + "it must answer {\"describe\": true} with {\"outputs\": [...]}"
            )
        }
        let description: ExternalDescription
        do {
            description = try ExternalDescription(reply)
            protocolOptions = try ExternalProtocolOptions.read(describeLine)
        } catch {
            worker.terminate()
            throw EstimatorSetupError(estimator: name, message: "'\(TextBytes.quote(command))' \(error.message)")
        }
        let names = description.outputs
        outputs = description.descriptors(command: command)
        outputNames = names
        version = description.version ?? "external"
        self.processes = processes
        if protocolOptions.isConcurrent {
            // Pipelined or batched: one process per model unless told otherwise, shared by every worker.
            let count = processes ?? 1
            var made: [ExternalChannel] = []
            for index in 0..<count {
                made.append(
                    ExternalChannel(
                        process: index == 0 ? worker : nil, options: protocolOptions, timeout: timeout,
                        outputNames: names,
                        start: { [command, timeout, names] () throws(EstimatorFailure) in
                            try Self.startDescribed(command: command, timeout: timeout, outputs: names)
                        }))
            }
            channels = made
            idle = Mutex([])
            slots = nil
        } else {
            channels = []
            idle = Mutex([worker])
            slots = processes.map { DispatchSemaphore(value: $0) }
        }
    }

    deinit { shutDown() }

    /// Ends every idle program (SIGTERM, SIGKILL after the grace period, reaped). Programs in use
    /// are ended when their sample finishes or fails.
    package func shutDown() {
        let workers = idle.withLock { idle in
            let workers = idle
            idle = []
            return workers
        }
        for worker in workers { worker.terminate() }
        for channel in channels { channel.close() }
    }

    /// Failure messages carry no estimator name: the measurer prefixes it (`pad: no answer ...`).
    package func measure(_ input: inout EstimatorInput) throws(EstimatorFailure) -> [Double] {
        // A video frame goes to the program as the decoded frame itself (a PPM), and so does any
        // image to a program that asked for pixels.
        let needsPixels = input.sample.frameIndex != nil || protocolOptions.input == .rgb24
        let pixels = needsPixels ? try Self.writePixels(input.image) : nil
        defer { if let pixels { unlink(pixels.path) } }
        var message = Self.request(input, faces: protocolOptions.faces)
        if let pixels {
            if input.sample.frameIndex != nil { message.path = pixels.path }
            if protocolOptions.input == .rgb24 { message.pixels = pixels.fields }
        }
        if !channels.isEmpty {
            let channel = channels.min { $0.load < $1.load }!
            return try channel.submit(message, id: input.sample.id).get()
        }
        slots?.wait()
        defer { slots?.signal() }
        let worker = try checkOut()
        let answer: [UInt8]
        do {
            let request = try ExternalRequest.line([message], batched: false)
            answer = try worker.exchange(request, timeout: timeout)
        } catch {
            worker.terminate() // state unknown: never reuse
            throw error
        }
        do {
            let values = try Self.parseAnswer(answer, id: input.sample.id, outputs: outputNames)
            checkIn(worker)
            return values
        } catch {
            if error.outOfStep { worker.terminate() } else { checkIn(worker) }
            throw EstimatorFailure(.estimatorError, error.message)
        }
    }

    /// Reads one answer line for sample `id`: one value per output name, NaN for a missing or
    /// null output. Not JSON, another id, neither `outputs` nor `error`, or a value that is a
    /// string, boolean, array or object is an error; `outOfStep` says the program can no longer
    /// be trusted to answer the next sample (not JSON, another id) and must be restarted.
    package static func parseAnswer(_ line: [UInt8], id: String, outputs: [String]) throws(AnswerError) -> [Double] {
        guard let reply = JSONValue.parse(line)?.object else {
            throw AnswerError(
                outOfStep: true, "answer is not a JSON object: '\(TextBytes.quote(bytes: line, limit: 80))'")
        }
        guard reply["id"]?.string == id else {
            let other = reply["id"].map { TextBytes.quote($0.text, limit: 80) } ?? "none"
            throw AnswerError(
                outOfStep: true, "answered for id '\(other)' instead of '\(TextBytes.quote(id, limit: 120))'")
        }
        return try values(of: reply, outputs: outputs)
    }

    /// The values of one answer object (its id already matched): one per output name, NaN for a
    /// missing or null output; `error`, neither `outputs` nor `error`, or a value that is not a
    /// number is an error of that sample only.
    static func values(of reply: [String: JSONValue], outputs: [String]) throws(AnswerError) -> [Double] {
        if let message = reply["error"]?.string { throw AnswerError(outOfStep: false, TextBytes.quote(message)) }
        guard let values = reply["outputs"]?.object else {
            throw AnswerError(outOfStep: false, "answer has neither 'outputs' nor 'error'")
        }
        return try outputs.map { (output: String) throws(AnswerError) -> Double in
            guard let value = values[output], value != .null else { return .nan }
            guard let number = value.number else {
                throw AnswerError(
                    outOfStep: false, "output '\(output)' is not a number: \(TextBytes.quote(value.text, limit: 80))")
            }
            return number
        }
    }

    /// The output names of a `describe` answer: a non-empty list of distinct names, each in the
    /// one grammar of output names (``PadVocabulary/OutputDescriptor/nameProblem(_:)``) that profiles,
    /// imports and archives accept, so a run never writes a column its own archive would refuse.
    static func outputNames(_ reply: [String: JSONValue]) throws(AnswerError) -> [String] {
        guard let list = reply["outputs"]?.array, !list.isEmpty, list.allSatisfy({ $0.string != nil }) else {
            throw AnswerError(outOfStep: false, "answered describe without a list of output names")
        }
        let names = list.compactMap(\.string)
        var seen = Set<String>()
        for output in names {
            if let problem = OutputDescriptor.nameProblem(output) {
                throw AnswerError(outOfStep: false, "answered describe with a bad name: \(problem)")
            }
            guard seen.insert(output).inserted else {
                throw AnswerError(outOfStep: false, "answered describe with output '\(output)' twice")
            }
        }
        return names
    }

    /// One sample's request: `id` and `path`, plus what padbench measured before it, so a model
    /// need not detect and crop a different face: `face` ([x, y, width, height] of the chosen face
    /// box) with `face_source` (`detector`, or `dataset` for the dataset's box: given by a
    /// `use_dataset_box` profile, or sent because the detector found no face and the dataset has a
    /// box), `faces` (every detection as [x, y, width, height, confidence], when the program asked
    /// for `"faces": "all"`), and `landmarks` ([[x, y], ...] in image pixels, 68 or 5 points, when
    /// the run measures `landmarks` and found them). Coordinates are pixels of the upright image
    /// (EXIF orientation applied), rounded to 1/1000. A still image's request says how its file is
    /// stored: `orientation` (the EXIF orientation, 1-8; 1 for files without one) and `upright`
    /// (whether the file's pixels are already upright, orientation 1: otherwise the coordinates
    /// are not those of the stored pixels; ask for `"input": "rgb24"` to get upright pixels).
    /// A video frame's request also carries ``addFrameFields(of:to:)``. Programs that read only `id`
    /// and `path` are unaffected.
    package static func request(_ input: EstimatorInput, faces: ExternalProtocolOptions.Faces = .chosen)
        -> ExternalRequest
    {
        var message = ExternalRequest(id: input.sample.id, path: input.sample.path)
        addFrameFields(of: input.sample, to: &message)
        func rounded(_ v: Double) -> Double { (v * 1000).rounded() / 1000 }
        func finite(_ box: Box) -> Bool { [box.x, box.y, box.width, box.height].allSatisfy(\.isFinite) }
        if let face = input.face, finite(face) {
            message.face = [face.x, face.y, face.width, face.height].map(rounded)
            message.faceSource = input.outputs["face.source"] == 1 ? "dataset" : "detector"
        } else if let given = input.sample.faceBox,
            let box = FaceEstimator.clip(given, width: input.width, height: input.height)
        {
            message.face = [box.x, box.y, box.width, box.height].map(rounded)
            message.faceSource = "dataset"
        }
        if faces == .all {
            message.faces = input.faces.filter { finite($0.box) && $0.score.isFinite }.map {
                [$0.box.x, $0.box.y, $0.box.width, $0.box.height, $0.score].map(rounded)
            }
        }
        let points = input.landmarks.filter { $0.x.isFinite && $0.y.isFinite }
        if !points.isEmpty, points.count == input.landmarks.count {
            message.landmarks = points.map { [rounded($0.x), rounded($0.y)] }
        }
        if input.sample.frameIndex == nil {
            message.orientation = input.storedOrientation
            message.upright = input.storedOrientation == 1
        }
        return message
    }

    private static func describe(_ worker: ExternalProcess, timeout: Double) throws(EstimatorFailure) -> (
        reply: [String: JSONValue], line: [UInt8]
    ) {
        let line = try worker.exchange(ExternalRequest.describeLine, timeout: max(timeout, 10))
        do { return (try ExternalDescription.object(line), line) } catch {
            throw EstimatorFailure(.estimatorError, error.message)
        }
    }

    /// An idle program, or a new one that has answered `describe` with the same output names.
    private func checkOut() throws(EstimatorFailure) -> ExternalProcess {
        if let worker = idle.withLock({ $0.popLast() }) { return worker }
        return try Self.startDescribed(command: command, timeout: timeout, outputs: outputNames)
    }

    /// A new program that has answered `describe` with the same output names as the first.
    static func startDescribed(command: String, timeout: Double, outputs: [String]) throws(EstimatorFailure)
        -> ExternalProcess
    {
        let worker: ExternalProcess
        do { worker = try ExternalProcess(command: command) } catch {
            throw EstimatorFailure(.estimatorError, "cannot start '\(command)': \(error.message)")
        }
        do throws(EstimatorFailure) {
            let reply = try Self.describe(worker, timeout: timeout).reply
            guard reply["outputs"]?.array?.map(\.string) == outputs else {
                throw EstimatorFailure(
                    .estimatorError,
                    "restarted program described outputs "
                        + "\(TextBytes.quote(reply["outputs"]?.text ?? "none", limit: 120)), expected \(outputs)"
                )
            }
        } catch {
            worker.terminate()
            throw EstimatorFailure(.estimatorError, "restarted '\(command)' did not describe itself: \(error.message)")
        }
        return worker
    }

    private func checkIn(_ worker: ExternalProcess) {
        idle.withLock { $0.append(worker) }
    }
}

/// Why an external program's answer line was refused.
package struct AnswerError: Error, Sendable, CustomStringConvertible {
    /// The program answered something other than the answer for this sample: restart it.
    package var outOfStep: Bool
    package var message: String
    package init(outOfStep: Bool, _ message: String) {
        self.outOfStep = outOfStep
        self.message = message
    }
    package var description: String { message }
}

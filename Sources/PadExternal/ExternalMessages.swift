import Foundation
import PadEstimators
import PadText
import PadVocabulary

/// The messages of the external protocol as types: requests are `Encodable` values written with
/// `JSONEncoder`, answers are decoded with `JSONDecoder` into ``JSONValue`` and read into typed
/// answers (``ExternalEstimator/IdentifiedAnswer``, ``ExternalDescription``). No `[String: Any]`
/// travels between the estimator, its channels and its processes.
///
/// Example: `ExternalPipelineTests.theDatasetBoxIsSentWhenDetectionMisses` in
/// `Tests/PadEstimatorsTests/ExternalPipelineTests.swift`.
package struct ExternalRequest: Encodable, Sendable, Equatable {
    package var id: String
    /// The image file; for a video frame, the temporary PPM of the decoded frame.
    package var path: String
    /// A video frame's presentation id, 0-based frame number, time in seconds and video file.
    package var presentation: String?
    package var frame: Int?
    package var time: Double?
    package var video: String?
    /// The chosen face box [x, y, width, height] and where it came from (`detector`, `dataset`).
    package var face: [Double]?
    package var faceSource: String?
    /// Every detection [x, y, width, height, confidence] (`"faces": "all"`).
    package var faces: [[Double]]?
    /// Landmarks [[x, y], ...] in upright image pixels.
    package var landmarks: [[Double]]?
    /// A still's EXIF orientation (1-8) and whether its stored pixels are upright.
    package var orientation: Int?
    package var upright: Bool?
    /// The decoded pixels (`"input": "rgb24"`).
    package var pixels: PixelFields?

    package init(id: String, path: String) {
        self.id = id
        self.path = path
    }

    enum CodingKeys: String, CodingKey {
        case id, path, presentation, frame, time, video, face, faces, landmarks, orientation, upright, pixels
        case faceSource = "face_source"
    }

    /// A request's `pixels` field: where the decoded image is and how its bytes are laid out.
    package struct PixelFields: Encodable, Sendable, Equatable {
        package var path: String
        /// Bytes of the PPM header before the first pixel.
        package var offset: Int
        package var width: Int
        package var height: Int
        package var stride: Int
        package var format = "rgb24"
    }

    /// One line of the protocol: the request, or a batch of requests (`{"batch": [...]}`).
    static func line(_ requests: [ExternalRequest], batched: Bool) throws(EstimatorFailure) -> [UInt8] {
        struct Batch: Encodable { var batch: [ExternalRequest] }
        return batched ? try encode(Batch(batch: requests)) : try encode(requests[0])
    }

    /// The describe request, `{"describe": true}`.
    static let describeLine: [UInt8] = Array(#"{"describe":true}"#.utf8)

    static func encode(_ value: some Encodable) throws(EstimatorFailure) -> [UInt8] {
        let encoder = JSONEncoder()
        // Paths stay readable in logs; every JSON reader accepts an unescaped '/'.
        encoder.outputFormatting = [.withoutEscapingSlashes]
        do { return [UInt8](try encoder.encode(value)) } catch {
            throw EstimatorFailure(.estimatorError, "cannot encode the request: \(error)")
        }
    }
}

/// Any JSON value an external program may write, decoded by `JSONDecoder`: the answers are read
/// from these, so that a string where a number belongs is that output's error, not a failed decode
/// of the whole line.
package enum JSONValue: Decodable, Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// A line of JSON, or nil when it is not JSON at all.
    package static func parse(_ line: [UInt8]) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: Data(line))
    }

    package var object: [String: JSONValue]? {
        if case .object(let value) = self { value } else { nil }
    }
    package var string: String? {
        if case .string(let value) = self { value } else { nil }
    }
    /// A JSON number; `true` and `false` are not numbers.
    package var number: Double? {
        if case .number(let value) = self { value } else { nil }
    }
    package var array: [JSONValue]? {
        if case .array(let value) = self { value } else { nil }
    }

    /// As a message quotes it: a string as itself, anything else as compact JSON.
    package var text: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .number(let value): value == value.rounded() && abs(value) < 1e15 ? "\(Int(value))" : "\(value)"
        case .string(let value): value
        case .array(let values): "[" + values.map(\.text).joined(separator: ", ") + "]"
        case .object(let fields):
            "{" + fields.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.text)" }.joined(separator: ", ")
                + "}"
        }
    }
}

/// A `describe` answer, read: the output names (checked), the optional version, ranges and
/// directions, and the protocol options.
package struct ExternalDescription: Sendable {
    package var outputs: [String]
    package var version: String?
    /// Declared ranges by output ([minimum, maximum]); an entry that is not two numbers is ignored.
    package var ranges: [String: [Double]]
    /// Declared directions by output (`higher-better`, `lower-better`).
    package var directions: [String: String]

    /// The describe answer `line`; refuses a line that is not a JSON object.
    static func object(_ line: [UInt8]) throws(AnswerError) -> [String: JSONValue] {
        guard let reply = JSONValue.parse(line)?.object else {
            throw AnswerError(
                outOfStep: false, "answer is not a JSON object: '\(TextBytes.quote(bytes: line, limit: 80))'")
        }
        return reply
    }

    package init(_ reply: [String: JSONValue]) throws(AnswerError) {
        outputs = try ExternalEstimator.outputNames(reply)
        version = reply["version"]?.string
        ranges = [:]
        for (output, value) in reply["ranges"]?.object ?? [:] {
            let numbers = value.array?.compactMap(\.number) ?? []
            if numbers.count == value.array?.count, !numbers.isEmpty { ranges[output] = numbers }
        }
        directions = (reply["directions"]?.object ?? [:]).compactMapValues(\.string)
    }

    /// The outputs as the estimator declares them: the declared range (else unbounded) and
    /// direction (else none), summarised as the command.
    func descriptors(command: String) -> [OutputDescriptor] {
        outputs.map { output in
            let range = ranges[output] ?? []
            return OutputDescriptor(
                name: output, unit: "", minimum: range.first ?? -.infinity,
                maximum: range.count > 1 ? range[1] : .infinity,
                direction: directions[output].flatMap(Direction.init(rawValue:)) ?? .none,
                summary: "external: \(command)")
        }
    }
}

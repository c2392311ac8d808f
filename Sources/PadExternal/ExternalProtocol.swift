import Foundation
import PadEstimators
import PadText

/// What an external program declares in its `describe` answer about how it wants requests, beside
/// its outputs: ``maxInFlight`` requests outstanding at once (answered in any order, matched by
/// id), ``batch`` requests per line (`{"batch": [request, ...]}` answered by `{"batch": [answer,
/// ...]}`), decoded pixels instead of a file to decode (``input``), every detected face (``faces``).
/// A program that declares none of them is spoken to as before: one request, one answer.
///
/// Example: `ExternalPipelineTests.declaredOptionsAreRead` in `Tests/PadEstimatorsTests/ExternalPipelineTests.swift`.
package struct ExternalProtocolOptions: Sendable, Equatable, Decodable {
    /// How a request hands over the image: `path` (the file; a video frame as a PPM of the decoded
    /// frame) or `rgb24` (also `pixels`: the upright decoded 8-bit RGB bytes in a file padbench
    /// writes, with width, height, stride and offset).
    package enum Input: String, Sendable, Decodable { case path, rgb24 }
    /// Which faces a request carries: the chosen one (`face`) or also every detection (`faces`).
    package enum Faces: String, Sendable, Decodable { case chosen, all }

    package var maxInFlight = 1
    package var batch = 1
    package var input = Input.path
    package var faces = Faces.chosen

    /// Whether requests are pipelined or batched: then one process serves many samples at once.
    package var isConcurrent: Bool { maxInFlight > 1 || batch > 1 }

    /// The largest `max_in_flight` and `batch` a program may declare.
    package static let limit = 1024

    enum CodingKeys: String, CodingKey {
        case maxInFlight = "max_in_flight"
        case batch, input, faces
    }

    package init() {}

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        maxInFlight = try container.decodeIfPresent(Int.self, forKey: .maxInFlight) ?? 1
        batch = try container.decodeIfPresent(Int.self, forKey: .batch) ?? 1
        input = try container.decodeIfPresent(Input.self, forKey: .input) ?? .path
        faces = try container.decodeIfPresent(Faces.self, forKey: .faces) ?? .chosen
    }

    /// The options of a `describe` answer line, checked: whole numbers 1 to ``limit``, `input` path
    /// or rgb24, `faces` chosen or all.
    package static func read(_ line: [UInt8]) throws(AnswerError) -> ExternalProtocolOptions {
        let options: ExternalProtocolOptions
        do { options = try JSONDecoder().decode(ExternalProtocolOptions.self, from: Data(line)) } catch {
            throw AnswerError(
                outOfStep: false,
                "answered describe with protocol options padbench cannot use (max_in_flight and batch are whole "
                    + "numbers, input is path or rgb24, faces is chosen or all): \(JSONCoding.problem(error))")
        }
        for (name, value) in [("max_in_flight", options.maxInFlight), ("batch", options.batch)]
        where !(1...limit).contains(value) {
            throw AnswerError(outOfStep: false, "answered describe with \(name) \(value); it must be 1 to \(limit)")
        }
        return options
    }

    /// As the manifest records them (the estimator's parameters).
    package var parameters: [String: String] {
        ["max_in_flight": "\(maxInFlight)", "batch": "\(batch)", "input": input.rawValue, "faces": faces.rawValue]
    }
}

extension ExternalEstimator {
    /// One answer of a batch line, or of a pipelined single line: the request id and its values
    /// or its failure.
    package struct IdentifiedAnswer {
        var id: String
        var result: Result<[Double], EstimatorFailure>
    }

    /// The answers of one line: `{"batch": [answer, ...]}` or one answer object. Each answer needs
    /// a string `id`; its `outputs` are read as ``parseAnswer(_:id:outputs:)`` reads them. A line
    /// that is not JSON, a batch that is not a list, an answer without an id or an id twice in
    /// one line means the program is out of step (it is restarted).
    package static func identifiedAnswers(_ line: [UInt8], outputs: [String]) throws(AnswerError) -> [IdentifiedAnswer]
    {
        guard let reply = JSONValue.parse(line)?.object else {
            throw AnswerError(
                outOfStep: true, "answer is not a JSON object: '\(TextBytes.quote(bytes: line, limit: 80))'")
        }
        let items: [JSONValue]
        if let batch = reply["batch"] {
            guard let list = batch.array else { throw AnswerError(outOfStep: true, "'batch' is not a list") }
            items = list
        } else {
            items = [.object(reply)]
        }
        var answers: [IdentifiedAnswer] = []
        var seen = Set<String>()
        for item in items {
            guard let answer = item.object, let id = answer["id"]?.string else {
                throw AnswerError(outOfStep: true, "an answer without a string 'id'")
            }
            guard seen.insert(id).inserted else {
                throw AnswerError(outOfStep: true, "answered id '\(TextBytes.quote(id, limit: 120))' twice in one line")
            }
            let values: Result<[Double], EstimatorFailure>
            do { values = .success(try Self.values(of: answer, outputs: outputs)) } catch {
                values = .failure(EstimatorFailure(.estimatorError, error.message))
            }
            answers.append(IdentifiedAnswer(id: id, result: values))
        }
        return answers
    }
}

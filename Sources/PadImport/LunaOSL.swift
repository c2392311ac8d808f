import Foundation
import PadText

/// VisionLabs LUNA OneShotLiveness responses: `filename`, `liveness.prediction` (1 live),
/// `liveness.estimations.probability` (0..1), `liveness.estimations.quality` (0..1), and an `error`
/// object (`error_code`, `desc`). A response with a non-zero error code was processed and rejected
/// by LUNA (no face, bad quality): its liveness outputs are NaN and `luna.error_code` holds the code.
enum LunaOSL {
    static func read(_ data: Data, path: String) throws -> [VendorRecord] {
        try responses(in: [UInt8](data), path: path).enumerated().map { index, object in
            try record(object, origin: "\(path)[\(index)]")
        }
    }

    /// The response objects of a file: one JSON object, an array of them, or JSON lines (LF or
    /// CRLF, BOM skipped).
    static func responses(in bytes: [UInt8], path: String) throws -> [Any] {
        if let json = try? JSONSerialization.jsonObject(with: Data(TextBytes.withoutBOM(bytes))) {
            return json as? [Any] ?? [json]
        }
        var list: [Any] = []
        for (number, line) in TextBytes.lines(bytes)
        where !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line)) else {
                let text = TextBytes.quote(String(decoding: line, as: UTF8.self), limit: 80)
                throw VendorImportError(
                    "\(path):\(number): not JSON: '\(TextBytes.quote(String(text)))' "
                        + "(expected an OSL response object, an array of them, or JSON lines)"
                )
            }
            list.append(object)
        }
        return list
    }

    /// One response: its filename and error code, and when the code is 0 its liveness outputs.
    static func record(_ object: Any, origin: String) throws -> VendorRecord {
        guard let response = object as? [String: Any] else {
            throw VendorImportError("\(origin): an OSL response must be a JSON object")
        }
        guard let filename = response["filename"] as? String, !filename.isEmpty else {
            throw VendorImportError("\(origin): missing or non-text 'filename'")
        }
        var errorCode = 0.0
        if let error = response["error"] {
            guard let errorObject = error as? [String: Any], let code = JSONNumber.value(errorObject["error_code"])
            else {
                throw VendorImportError("\(origin) (\(filename)): 'error' must be an object with a numeric error_code")
            }
            errorCode = code
        }
        var values: [String: Double] = [
            "luna.error_code": errorCode, "luna.liveness": .nan, "luna.prediction": .nan, "luna.quality": .nan,
        ]
        if errorCode == 0 {
            try readLiveness(response, into: &values, where: "\(origin) (\(filename))")
        }
        return VendorRecord(key: filename, values: values, origin: origin)
    }

    /// `liveness.prediction`, `liveness.estimations.probability` (in [0, 1]) and `.quality`.
    static func readLiveness(_ response: [String: Any], into values: inout [String: Double], where place: String)
        throws
    {
        guard let liveness = response["liveness"] as? [String: Any] else {
            throw VendorImportError("\(place): missing 'liveness' object")
        }
        guard let prediction = JSONNumber.value(liveness["prediction"]) else {
            throw VendorImportError("\(place): liveness.prediction must be a number (1 = live)")
        }
        guard let estimations = liveness["estimations"] as? [String: Any],
            let probability = JSONNumber.value(estimations["probability"])
        else {
            throw VendorImportError("\(place): liveness.estimations.probability must be a number in [0, 1]")
        }
        guard (0...1).contains(probability) else {
            throw VendorImportError("\(place): liveness.estimations.probability \(probability) is outside [0, 1]")
        }
        values["luna.prediction"] = prediction
        values["luna.liveness"] = probability
        values["luna.quality"] = JSONNumber.value(estimations["quality"]) ?? .nan
    }
}

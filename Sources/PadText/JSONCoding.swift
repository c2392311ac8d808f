import Foundation

/// The one JSON convention of every file and `--json` output padbench writes (manifest.json,
/// results.json, `show`, `compare`, `folds`): pretty, key-sorted (so runs diff well), and the
/// non-finite doubles JSON has no number for written as the strings `"inf"`, `"-inf"` and `"nan"`.
/// A calibration whose target no threshold meets (an attack scored +inf) has an infinite
/// threshold; Foundation's default strategy throws on it and the run would be lost at its end.
package enum JSONCoding {
    package static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }

    package static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return decoder
    }
}

extension JSONCoding {
    /// A decoding failure in words a user can act on: the field (`dataset.frames`) and what was
    /// wrong with it, instead of Swift's `typeMismatch(Swift.Int, Swift.DecodingError.Context(...))`;
    /// any other error quoted at most 200 characters.
    package static func problem(_ error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return TextBytes.quote("\(error)") }
        func field(_ context: DecodingError.Context) -> String {
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return path.isEmpty ? "the top level" : "field '" + path.joined(separator: ".") + "'"
        }
        switch decoding {
        case .typeMismatch(let type, let context):
            return "\(field(context)) is not \(Self.kind(type))"
        case .valueNotFound(let type, let context):
            return "\(field(context)) is null where \(Self.kind(type)) is expected"
        case .keyNotFound(let key, let context):
            let parent = context.codingPath.isEmpty ? "" : " in " + field(context)
            return "field '\(key.stringValue)' is missing\(parent)"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty
                ? "not valid JSON" : "\(field(context)): \(TextBytes.quote(context.debugDescription, limit: 120))"
        @unknown default:
            return TextBytes.quote("\(error)")
        }
    }

    /// "a whole number", "a number", "text", ... for a decoded type.
    static func kind(_ type: Any.Type) -> String {
        switch type {
        case is Int.Type, is Int32.Type, is Int64.Type, is UInt64.Type: "a whole number"
        case is Double.Type, is Float.Type: "a number"
        case is String.Type: "text"
        case is Bool.Type: "true or false"
        default: String(describing: type).hasPrefix("Array") ? "a list" : "an object"
        }
    }
}

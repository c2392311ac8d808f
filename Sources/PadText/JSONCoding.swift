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

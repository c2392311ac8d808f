import Foundation
import PadText

/// Mitek MiSnap MibiData JSON (one per capture, named after the image: `0001.json` for
/// `0001.jpg`): `Parameters` and `UXP`, a list of events. MiSnap's UXP table has two kinds:
/// - measure events `{"CODE": [ms_since_start, value]}` (the value may be a string): FFQ final
///   quality, FFL lighting, FFS sharpness (0-1000), FFD eye distance (px), FEF face found
///   confidence (0-1000). The last event of each code wins; a code that never occurs is NaN.
/// - time-only events `{"CODE": [ms_since_start]}`, with no value: FPL passive liveness detected
///   (a live person), FSD spoof detected, SA / SS start of auto / still capture, MF measured
///   failover (the document's sample: `{"SA": [597]}`). Each becomes a 0/1 output: 1 when the
///   event occurred in the capture, 0 when it did not. MibiData exports no liveness score: the
///   liveness outcome is which of FPL and FSD occurred.
/// A time-only event written with a value is refused (it would be read as the event having
/// occurred whatever the value says), so is an event whose time is not a number.
enum MisnapMibi {
    static let measures: [(String, String)] = [
        ("FFQ", "misnap.quality"), ("FFL", "misnap.lighting"), ("FFS", "misnap.sharpness"),
        ("FFD", "misnap.eye_distance"), ("FEF", "misnap.face_found"),
    ]
    static let events: [(String, String)] = [
        ("FPL", "misnap.live"), ("FSD", "misnap.spoof"), ("SA", "misnap.auto_capture"),
        ("SS", "misnap.still_capture"), ("MF", "misnap.failover"),
    ]
    /// The outputs, in column order.
    static let outputs = (measures + events).map(\.1)

    static func read(_ data: Data, path: String) throws -> VendorRecord {
        guard let json = try? JSONSerialization.jsonObject(with: Data(TextBytes.withoutBOM([UInt8](data)))),
            let mibi = json as? [String: Any]
        else {
            throw VendorImportError("\(path): not a MibiData JSON object")
        }
        guard let list = mibi["UXP"] as? [Any] else { throw VendorImportError("\(path): missing 'UXP' event list") }
        var values: [String: Double] = [:]
        for (_, name) in measures { values[name] = .nan }
        for (_, name) in events { values[name] = 0 }
        for (index, event) in list.enumerated() {
            guard let entry = event as? [String: Any], entry.count == 1, let (code, payload) = entry.first else {
                throw VendorImportError("\(path): UXP[\(index)] must be {\"CODE\": [ms_since_start, ...]}")
            }
            let at = "\(path): UXP[\(index)] \(code)"
            if let name = events.first(where: { $0.0 == code })?.1 {
                guard let time = payload as? [Any], time.count == 1, JSONNumber.value(time[0]) != nil else {
                    throw VendorImportError(
                        "\(at) is a time-only event: [ms_since_start], with no value (MiSnap's UXP table)")
                }
                values[name] = 1
            } else if let name = measures.first(where: { $0.0 == code })?.1 {
                guard let pair = payload as? [Any], pair.count == 2, JSONNumber.value(pair[0]) != nil else {
                    throw VendorImportError("\(at) must be [ms_since_start, value]")
                }
                guard let value = number(pair[1]) else {
                    throw VendorImportError("\(at) value '\(pair[1])' is not a number")
                }
                values[name] = value
            }
            // Other codes (FEL, FES, FEH, FEJ, FET, FEI, ...) are failure events padbench does not import.
        }
        let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        return VendorRecord(key: stem, values: values, origin: path)
    }

    /// A measure event's value: a JSON number, a numeric string, or true / false.
    static func number(_ raw: Any) -> Double? {
        if let text = raw as? String {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            return Double(trimmed) ?? (trimmed.lowercased() == "true" ? 1 : trimmed.lowercased() == "false" ? 0 : nil)
        }
        if let flag = raw as? Bool { return flag ? 1 : 0 }
        return JSONNumber.value(raw)
    }
}

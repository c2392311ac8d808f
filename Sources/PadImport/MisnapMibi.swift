import Foundation
import PadText

/// Mitek MiSnap MibiData JSON (one per capture, named after the image: `0001.json` for
/// `0001.jpg`): `Parameters` and `UXP`, a list of events `{"CODE": [ms_since_start, value]}` where
/// the value may be a string. The last event of each code wins: FFQ quality, FFL lighting, FFS
/// sharpness (0-1000), FFD eye distance (px), FEF face found (0-1000), FPL passive liveness, FSD spoof.
enum MisnapMibi {
    static let codes: [(String, String)] = [
        ("FFQ", "misnap.quality"), ("FFL", "misnap.lighting"), ("FFS", "misnap.sharpness"),
        ("FFD", "misnap.eye_distance"), ("FEF", "misnap.face_found"), ("FPL", "misnap.liveness"),
        ("FSD", "misnap.spoof"),
    ]

    static func read(_ data: Data, path: String) throws -> VendorRecord {
        guard let json = try? JSONSerialization.jsonObject(with: Data(TextBytes.withoutBOM([UInt8](data)))),
            let mibi = json as? [String: Any]
        else {
            throw VendorImportError("\(path): not a MibiData JSON object")
        }
        guard let events = mibi["UXP"] as? [Any] else { throw VendorImportError("\(path): missing 'UXP' event list") }
        var values: [String: Double] = [:]
        for (_, name) in codes { values[name] = .nan }
        for (index, event) in events.enumerated() {
            guard let entry = event as? [String: Any], entry.count == 1, let (code, payload) = entry.first else {
                throw VendorImportError("\(path): UXP[\(index)] must be {\"CODE\": [ms, value]}")
            }
            guard let name = codes.first(where: { $0.0 == code })?.1 else { continue } // SA, SS, FEL, ...: not outputs
            guard let pair = payload as? [Any], pair.count == 2 else {
                throw VendorImportError("\(path): UXP[\(index)] \(code) must be [ms_since_start, value]")
            }
            let raw = pair[1]
            let value: Double?
            if let text = raw as? String {
                value =
                    Double(text.trimmingCharacters(in: .whitespaces))
                    ?? (text.lowercased() == "true" ? 1 : text.lowercased() == "false" ? 0 : nil)
            } else if let flag = raw as? Bool {
                value = flag ? 1 : 0
            } else {
                value = JSONNumber.value(raw)
            }
            guard let value else {
                throw VendorImportError(
                    "\(path): UXP[\(index)] \(code) value '\(TextBytes.quote("\(raw)"))' is not a number")
            }
            values[name] = value
        }
        let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        return VendorRecord(key: stem, values: values, origin: path)
    }
}

import Foundation
import PadText
import PadVocabulary

/// One vendor result for one image, before it is joined onto a dataset's samples.
package struct VendorRecord: Sendable, Equatable {
    /// File name (or id) that joins the record to a sample.
    package var key: String
    package var values: [String: Double]
    /// A result that is a failure to process (IDEMIA NoDecision as `fta`, Unknown), with code and message.
    package var failure: (code: FailureCode, message: String)?
    /// Where it came from, for messages (`file:line` or `file[index]`).
    package var origin: String

    package init(
        key: String, values: [String: Double], failure: (code: FailureCode, message: String)? = nil, origin: String
    ) {
        self.key = key
        self.values = values
        self.failure = failure
        self.origin = origin
    }

    package static func == (a: VendorRecord, b: VendorRecord) -> Bool {
        a.key == b.key && a.values == b.values && a.failure?.code == b.failure?.code && a.origin == b.origin
    }
}

/// A vendor export that cannot be read; names the file and the record.
package struct VendorImportError: Error, Sendable, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// The export formats `padbench import` reads (docs/formats.md; docs/commands.md: "import").
package enum VendorFormat: String, Sendable, CaseIterable {
    /// VisionLabs LUNA OneShotLiveness response JSON (object, array, or JSON lines).
    case lunaOSL = "luna-osl"
    /// Mitek MiSnap MibiData JSON, one file per image named after it.
    case misnapMibi = "misnap-mibi"
    /// IDEMIA capture status CSV: `id,status` with Live / Fake / NoDecision / Unknown.
    case idemiaStatus = "idemia-status"
    /// Generic long CSV: `id,output,value`.
    case longCSV = "long-csv"

    /// Outputs the format can produce (columns of the imported table).
    package var outputs: [String] {
        switch self {
        case .lunaOSL: return ["luna.liveness", "luna.prediction", "luna.quality", "luna.error_code"]
        case .misnapMibi: return MisnapMibi.outputs
        case .idemiaStatus: return ["idemia.live"]
        case .longCSV: return []
        }
    }
}

/// How IDEMIA's NoDecision ("the server should decide") counts.
package enum NoDecisionPolicy: String, Sendable, CaseIterable {
    case accept, reject, fta
}

/// Reads vendor exports into records.
///
/// Example: `VendorImportTests.lunaJSONLinesAcceptBOMAndCRLF`
/// in `Tests/PadImportTests/VendorImportTests.swift` (compiled and run by `swift test`).
package struct VendorImporter: Sendable {
    package var format: VendorFormat
    package var noDecision: NoDecisionPolicy

    package init(format: VendorFormat, noDecision: NoDecisionPolicy = .fta) {
        self.format = format
        self.noDecision = noDecision
    }

    package func read(_ paths: [String]) throws -> [VendorRecord] {
        var records: [VendorRecord] = []
        for path in paths {
            let data: Data
            do { data = Data(try RegularFile.read(path)) } catch {
                throw VendorImportError("\(path): \(error.message)")
            }
            switch format {
            case .lunaOSL: records += try LunaOSL.read(data, path: path)
            case .misnapMibi: records.append(try MisnapMibi.read(data, path: path))
            case .idemiaStatus: records += try Self.readIdemia(data, path: path, policy: noDecision)
            case .longCSV: records += try Self.readLong(data, path: path)
            }
        }
        return records
    }

    /// Records after the header, through the shared RFC 4180 reader (BOM, CRLF, quoting;
    /// `#` comment lines skipped); fields are trimmed of spaces.
    static func csvLines(_ data: Data, path: String, header expected: [String]) throws -> [(
        line: Int, fields: [String]
    )] {
        let records: [CSVReader.Record]
        do { records = try CSVReader.parse([UInt8](data), comments: true) } catch {
            throw VendorImportError("\(path):\(error.line): \(error.message)")
        }
        guard let header = records.first else {
            throw VendorImportError("\(path): empty file, header must be \(expected.joined(separator: ","))")
        }
        guard header.fields.map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) == expected else {
            throw VendorImportError("\(path):\(header.line): header must be \(expected.joined(separator: ","))")
        }
        return try records.dropFirst().map { record in
            guard record.fields.count == expected.count else {
                throw VendorImportError(
                    "\(path):\(record.line): \(record.fields.count) fields, "
                        + "expected \(expected.count) (\(expected.joined(separator: ",")))"
                )
            }
            return (record.line, record.fields.map { $0.trimmingCharacters(in: .whitespaces) })
        }
    }

    static func readIdemia(_ data: Data, path: String, policy: NoDecisionPolicy) throws -> [VendorRecord] {
        try csvLines(data, path: path, header: ["id", "status"]).map { line, f in
            let origin = "\(path):\(line)"
            switch f[1].lowercased() {
            case "live": return VendorRecord(key: f[0], values: ["idemia.live": 1], origin: origin)
            case "fake": return VendorRecord(key: f[0], values: ["idemia.live": 0], origin: origin)
            case "nodecision":
                switch policy {
                case .accept: return VendorRecord(key: f[0], values: ["idemia.live": 1], origin: origin)
                case .reject: return VendorRecord(key: f[0], values: ["idemia.live": 0], origin: origin)
                case .fta:
                    return VendorRecord(
                        key: f[0], values: [:],
                        failure: (
                            .noDecision, "IDEMIA NoDecision (counted as failure to process: --no-decision fta)"
                        ), origin: origin)
                }
            case "unknown":
                return VendorRecord(
                    key: f[0], values: [:], failure: (.noLivenessRun, "IDEMIA Unknown: no liveness was run"),
                    origin: origin)
            default:
                throw VendorImportError(
                    "\(origin): status '\(TextBytes.quote(f[1]))' is not Live, Fake, NoDecision or Unknown")
            }
        }
    }

    static func readLong(_ data: Data, path: String) throws -> [VendorRecord] {
        var byKey: [String: VendorRecord] = [:]
        var order: [String] = []
        for (line, f) in try csvLines(data, path: path, header: ["id", "output", "value"]) {
            // The one output-name grammar (an archive written from this import must read back).
            if let problem = OutputDescriptor.fullNameProblem(f[1]) {
                throw VendorImportError("\(path):\(line): \(problem)")
            }
            guard let value = f[2].isEmpty ? Double.nan : Double(f[2]) else {
                throw VendorImportError("\(path):\(line): value '\(TextBytes.quote(f[2]))' is not a number")
            }
            // As in score files: `1e400` overflows (Double gives infinity), only `inf` is infinite.
            if value.isInfinite && !TextBytes.isInfinityLiteral(f[2].utf8) {
                throw VendorImportError(
                    "\(path):\(line): value '\(f[2])' overflows a double (write inf for an infinite value)")
            }
            if byKey[f[0]] == nil {
                byKey[f[0]] = VendorRecord(key: f[0], values: [:], origin: "\(path):\(line)")
                order.append(f[0])
            }
            if byKey[f[0]]!.values[f[1]] != nil {
                throw VendorImportError("\(path):\(line): \(f[1]) given twice for \(f[0])")
            }
            byKey[f[0]]!.values[f[1]] = value
        }
        return order.map { byKey[$0]! }
    }
}

import PadText

/// A parsed CSV document (RFC 4180: quoted fields, doubled quotes, embedded newlines), each
/// record with the 1-based line it starts on, and columns looked up by header name.
///
/// Example: `PadArchiveDocExamples.csvTable`
/// in `Tests/PadArchiveTests/DocExamplesTests.swift` (compiled and run by `swift test`).
/// Every record must have as many fields as the header; otherwise the error names file and line.
package struct CSVTable: Sendable {
    package struct Record: Sendable {
        package var line: Int
        package var fields: [String]
    }

    package let path: String
    package let header: [String]
    package let records: [Record]
    private let columns: [String: Int]

    package init(bytes: [UInt8], path: String, requireRectangular: Bool = true) throws {
        self.path = path
        var parsed = try CSVTable.parse(bytes, path: path)
        guard !parsed.isEmpty else {
            throw ArchiveError.csv(path: path, line: 1, message: "empty file, expected a header")
        }
        header = parsed.removeFirst().fields
        if requireRectangular {
            for record in parsed where record.fields.count != header.count {
                throw ArchiveError.csv(
                    path: path, line: record.line,
                    message: "\(record.fields.count) fields, the header has \(header.count)")
            }
        }
        records = parsed
        var columns: [String: Int] = [:]
        for (i, name) in header.enumerated() where columns[name] == nil { columns[name] = i }
        self.columns = columns
    }

    package init(path: String) throws {
        let bytes: [UInt8]
        do { bytes = try RegularFile.read(path) } catch { throw ArchiveError.io(path: path, message: error.message) }
        try self.init(bytes: bytes, path: path)
    }

    package func column(_ name: String) -> Int? { columns[name] }

    /// Index of a column that must exist.
    package func requireColumn(_ name: String) throws -> Int {
        guard let index = columns[name] else {
            throw ArchiveError.csv(path: path, line: 1, message: "missing column '\(name)'")
        }
        return index
    }

    /// Splits bytes into records with the shared RFC 4180 reader; blank lines are skipped.
    static func parse(_ bytes: [UInt8], path: String) throws -> [Record] {
        do {
            return try CSVReader.parse(bytes).map { Record(line: $0.line, fields: $0.fields) }
        } catch {
            throw ArchiveError.csv(path: path, line: error.line, message: error.message)
        }
    }
}

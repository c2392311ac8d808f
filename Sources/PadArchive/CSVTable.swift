/// A parsed CSV document (RFC 4180: quoted fields, doubled quotes, embedded newlines), each
/// record with the 1-based line it starts on, and columns looked up by header name.
///
/// ```swift
/// let table = try CSVTable(bytes: FileSource.readAll("summary.csv"), path: "summary.csv")
/// let apcer = table.column("apcer_max")        // index of the column
/// for record in table.records { print(record.line, record.fields[apcer!]) }
/// ```
/// Every record must have as many fields as the header; otherwise the error names file and line.
public struct CSVTable: Sendable {
    public struct Record: Sendable {
        public var line: Int
        public var fields: [String]
    }

    public let path: String
    public let header: [String]
    public let records: [Record]
    private let columns: [String: Int]

    public init(bytes: [UInt8], path: String, requireRectangular: Bool = true) throws {
        self.path = path
        var parsed = try CSVTable.parse(bytes, path: path)
        guard !parsed.isEmpty else { throw ArchiveError.csv(path: path, line: 1, message: "empty file, expected a header") }
        header = parsed.removeFirst().fields
        if requireRectangular {
            for record in parsed where record.fields.count != header.count {
                throw ArchiveError.csv(path: path, line: record.line,
                                       message: "\(record.fields.count) fields, the header has \(header.count)")
            }
        }
        records = parsed
        var columns: [String: Int] = [:]
        for (i, name) in header.enumerated() where columns[name] == nil { columns[name] = i }
        self.columns = columns
    }

    public init(path: String) throws {
        try self.init(bytes: FileSource.readAll(path), path: path)
    }

    public func column(_ name: String) -> Int? { columns[name] }

    /// Index of a column that must exist.
    public func requireColumn(_ name: String) throws -> Int {
        guard let index = columns[name] else {
            throw ArchiveError.csv(path: path, line: 1, message: "missing column '\(name)'")
        }
        return index
    }

    /// Splits bytes into records; blank lines are skipped.
    static func parse(_ bytes: [UInt8], path: String) throws -> [Record] {
        var records: [Record] = []
        var fields: [String] = []
        var field: [UInt8] = []
        var line = 1
        var recordLine = 1
        var i = 0
        var inQuotes = false
        var fieldWasQuoted = false
        let n = bytes.count
        func endField() {
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            fieldWasQuoted = false
        }
        while i < n {
            let b = bytes[i]
            if inQuotes {
                if b == UInt8(ascii: "\"") {
                    if i + 1 < n, bytes[i + 1] == UInt8(ascii: "\"") {
                        field.append(b)
                        i += 2
                        continue
                    }
                    inQuotes = false
                } else {
                    if b == 0x0A { line += 1 }
                    field.append(b)
                }
                i += 1
                continue
            }
            switch b {
            case UInt8(ascii: "\""):
                if field.isEmpty && !fieldWasQuoted {
                    inQuotes = true
                    fieldWasQuoted = true
                } else {
                    throw ArchiveError.csv(path: path, line: line, message: "stray quote inside an unquoted field")
                }
            case UInt8(ascii: ","):
                endField()
            case 0x0D:
                break
            case 0x0A:
                endField()
                if !(fields.count == 1 && fields[0].isEmpty) { records.append(Record(line: recordLine, fields: fields)) }
                fields.removeAll(keepingCapacity: true)
                line += 1
                recordLine = line
            default:
                if fieldWasQuoted {
                    throw ArchiveError.csv(path: path, line: line, message: "text after a closing quote")
                }
                field.append(b)
            }
            i += 1
        }
        if inQuotes { throw ArchiveError.csv(path: path, line: recordLine, message: "unterminated quoted field") }
        if !field.isEmpty || !fields.isEmpty {
            endField()
            records.append(Record(line: recordLine, fields: fields))
        }
        return records
    }
}

/// A small RFC 4180 reader for dataset manifests (PadDataset sits above PadArchive, whose CSV
/// reader serves the result files). Returns each non-blank record with the line it starts on;
/// `#` comment lines are skipped.
enum CSVLines {
    static func parse(_ bytes: [UInt8], path: String) throws(DatasetProblem) -> [(line: Int, fields: [String])] {
        var records: [(line: Int, fields: [String])] = []
        var fields: [String] = []
        var field: [UInt8] = []
        var line = 1, recordLine = 1
        var inQuotes = false
        var i = 0
        func finishRecord() {
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            let blank = fields.count == 1 && fields[0].allSatisfy(\.isWhitespace)
            let comment = fields.first?.hasPrefix("#") ?? false
            if !blank && !comment { records.append((recordLine, fields)) }
            fields.removeAll(keepingCapacity: true)
        }
        while i < bytes.count {
            let b = bytes[i]
            if inQuotes {
                if b == UInt8(ascii: "\"") {
                    if i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "\"") { field.append(b); i += 1 } else { inQuotes = false }
                } else {
                    if b == 0x0A { line += 1 }
                    field.append(b)
                }
            } else if b == UInt8(ascii: "\"") && field.isEmpty {
                inQuotes = true
            } else if b == UInt8(ascii: ",") {
                fields.append(String(decoding: field, as: UTF8.self))
                field.removeAll(keepingCapacity: true)
            } else if b == 0x0A {
                finishRecord()
                line += 1
                recordLine = line
            } else if b != 0x0D {
                field.append(b)
            }
            i += 1
        }
        if inQuotes { throw DatasetProblem(.badLine, file: path, line: recordLine, "unterminated quoted field") }
        if !field.isEmpty || !fields.isEmpty { finishRecord() }
        return records
    }
}

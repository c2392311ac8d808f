/// The one RFC 4180 reader for padbench's text inputs (dataset manifests, vendor CSVs, archive
/// CSVs): a UTF-8 byte-order mark is skipped, CRLF and LF line ends are both accepted, quoted
/// fields may hold commas, doubled quotes and line breaks, and lines may have any length and any
/// number of fields. Blank lines are skipped; with `comments`, lines starting with `#` are too.
///
/// Example: `PadTextDocExamples.csvReader`
/// in `Tests/PadDatasetTests/DocExamplesTests.swift` (compiled and run by `swift test`).
/// A quote inside an unquoted field, text after a closing quote, or a quoted field that never
/// ends is a ``CSVSyntaxError`` with the line it is on.
package enum CSVReader {
    package struct Record: Sendable, Equatable {
        /// 1-based line the record starts on.
        package var line: Int
        package var fields: [String]
        package init(line: Int, fields: [String]) {
            self.line = line
            self.fields = fields
        }
    }

    package static func parse(_ bytes: [UInt8], comments: Bool = false) throws(CSVSyntaxError) -> [Record] {
        var parser = Parser(bytes: bytes, comments: comments)
        return try parser.run()
    }

    /// The same records handed to `body` one at a time as they are read, so that a million-line
    /// manifest is never held as a million arrays of fields. Records before a syntax error have
    /// been handed over when it is thrown.
    package static func forEachRecord(
        _ bytes: [UInt8], comments: Bool = false, _ body: (Record) -> Void
    ) throws(CSVSyntaxError) {
        try withoutActuallyEscaping(body) { (escapable) throws(CSVSyntaxError) in
            var parser = Parser(bytes: bytes, comments: comments)
            parser.sink = escapable
            _ = try parser.run()
        }
    }

    private struct Parser {
        let bytes: [UInt8]
        let comments: Bool
        var records: [Record] = []
        /// When set, each record goes here instead of into `records`.
        var sink: ((Record) -> Void)?
        var fields: [String] = []
        var field: [UInt8] = []
        var line = 1, recordLine = 1
        var fieldWasQuoted = false

        init(bytes: [UInt8], comments: Bool) {
            self.bytes = bytes
            self.comments = comments
        }

        mutating func run() throws(CSVSyntaxError) -> [Record] {
            var i = TextBytes.hasBOM(bytes) ? 3 : 0
            let n = bytes.count
            while i < n {
                if comments, fields.isEmpty, field.isEmpty, !fieldWasQuoted, bytes[i] == UInt8(ascii: "#") {
                    while i < n && bytes[i] != 0x0A { i += 1 } // the newline ends the (empty) record below
                    continue
                }
                let b = bytes[i]
                switch b {
                case UInt8(ascii: "\""):
                    guard field.isEmpty && !fieldWasQuoted else {
                        throw CSVSyntaxError(line: line, "stray quote inside an unquoted field")
                    }
                    i = try quoted(from: i + 1)
                    continue
                case UInt8(ascii: ","):
                    endField()
                case 0x0D where i + 1 == n || bytes[i + 1] == 0x0A:
                    break // CR of a CRLF line end
                case 0x0A:
                    endRecord()
                    line += 1
                    recordLine = line
                default:
                    guard !fieldWasQuoted else { throw CSVSyntaxError(line: line, "text after a closing quote") }
                    field.append(b)
                }
                i += 1
            }
            if !field.isEmpty || !fields.isEmpty || fieldWasQuoted { endRecord() }
            return records
        }

        /// Reads a quoted field's content from just after its opening quote; returns the index
        /// after the closing quote.
        mutating func quoted(from start: Int) throws(CSVSyntaxError) -> Int {
            var i = start
            let n = bytes.count
            fieldWasQuoted = true
            while i < n {
                let b = bytes[i]
                if b == UInt8(ascii: "\"") {
                    if i + 1 < n, bytes[i + 1] == UInt8(ascii: "\"") {
                        field.append(b)
                        i += 2
                        continue
                    }
                    return i + 1
                }
                if b == 0x0A { line += 1 }
                field.append(b)
                i += 1
            }
            throw CSVSyntaxError(line: recordLine, "unterminated quoted field")
        }

        mutating func endField() {
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            fieldWasQuoted = false
        }

        mutating func endRecord() {
            let blank = fields.isEmpty && field.isEmpty && !fieldWasQuoted
            endField()
            if !blank {
                if let sink {
                    sink(Record(line: recordLine, fields: fields))
                } else {
                    records.append(Record(line: recordLine, fields: fields))
                }
            }
            fields.removeAll(keepingCapacity: true)
        }
    }
}

/// A CSV syntax error at a line; callers add the file name.
package struct CSVSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    package var line: Int
    package var message: String
    package init(line: Int, _ message: String) {
        self.line = line
        self.message = message
    }
    package var description: String { "line \(line): \(message)" }
}

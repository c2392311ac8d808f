/// Streams CSV rows (RFC 4180) into a file through a 1 MiB buffer.
///
/// ```swift
/// let csv = try CSVWriter(path: folder + "/summary.csv")
/// try csv.writeRow(["profile", "apcer_max"])
/// try csv.writeRow(["basic", CSVFormat.number(0.031)])
/// try csv.close()
/// ```
/// Fields containing a comma, a quote, CR or LF are quoted, with quotes doubled.
package final class CSVWriter {
    package let path: String
    private let file: any ClosableByteSink
    private var buffer: [UInt8] = []
    private let flushThreshold = 1 << 20

    package init(path: String, append: Bool = false) throws {
        self.path = path
        file = try FileSink(path: path, append: append)
        buffer.reserveCapacity(flushThreshold + 4096)
    }

    /// Rows into a run-folder file that is compressed for the archive as it is written;
    /// ``close()`` also ends the member's frame.
    package init(member: ArchiveMemberWriter) {
        path = member.path
        file = member
        buffer.reserveCapacity(flushThreshold + 4096)
    }

    package func writeRow<S: Sequence>(_ fields: S) throws where S.Element == String {
        var first = true
        for field in fields {
            if !first { buffer.append(UInt8(ascii: ",")) }
            first = false
            CSVFormat.appendField(field, to: &buffer)
        }
        buffer.append(0x0A)
        if buffer.count >= flushThreshold { try flush() }
    }

    /// Bytes already formatted as CSV rows (each ending in a newline).
    package func writeRaw(_ bytes: [UInt8]) throws {
        try flush()
        try file.write(bytes)
    }

    /// The same from memory the caller owns (``CSVBlock``).
    package func writeRaw(_ bytes: UnsafeRawBufferPointer) throws {
        try flush()
        try file.write(bytes)
    }

    package func flush() throws {
        guard !buffer.isEmpty else { return }
        try file.write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    package func close() throws {
        try flush()
        try file.close()
    }

    /// A whole table as CSV bytes (small reports).
    package static func encode(header: [String], rows: [[String]]) -> [UInt8] {
        var bytes: [UInt8] = []
        for row in [header] + rows {
            for (i, field) in row.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                CSVFormat.appendField(field, to: &bytes)
            }
            bytes.append(0x0A)
        }
        return bytes
    }
}

/// How padbench writes values into CSV cells, everywhere.
package enum CSVFormat {
    /// Shortest text that reads back to the same Double; integers without `.0`; NaN (not
    /// assessable) as the empty field; infinities as `inf` / `-inf`.
    package static func number(_ value: Double) -> String {
        if value.isNaN { return "" }
        if value.isInfinite { return value > 0 ? "inf" : "-inf" }
        if value == value.rounded(.towardZero), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// Appends exactly the bytes of ``number(_:)`` to `buffer`, with no String in between: the
    /// fast path for files of millions of rows (``NumberText``).
    @inlinable
    package static func appendNumber(_ value: Double, to buffer: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: NumberText.maximumLength) { text in
            let n = NumberText.write(value, into: text)
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: text[..<n]))
        }
    }

    /// Appends the decimal digits of `value` (what `String(value)` gives).
    @inlinable
    package static func appendInteger(_ value: Int64, to buffer: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: NumberText.maximumLength) { text in
            let n = NumberText.writeInteger(value, into: text)
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: text[..<n]))
        }
    }

    @inlinable
    package static func appendNumber(_ value: UInt64, to buffer: inout [UInt8]) {
        if value <= UInt64(Int64.max) {
            appendInteger(Int64(value), to: &buffer)
        } else {
            buffer.append(contentsOf: String(value).utf8)
        }
    }

    package static func number(_ value: Int) -> String { String(value) }
    package static func number(_ value: UInt64) -> String { String(value) }

    /// Parses what ``number(_:)`` writes (and ordinary decimal text); empty or `nan` is NaN.
    package static func parseNumber(_ text: Substring) -> Double? {
        if text.isEmpty { return .nan }
        switch text.lowercased() {
        case "nan": return .nan
        case "inf", "+inf", "infinity": return .infinity
        case "-inf", "-infinity": return -.infinity
        default: return Double(text)
        }
    }

    /// Appends numbers as one CSV row (after an optional CSV-safe prefix field) to a byte buffer.
    package static func appendNumberRow(prefix: String, _ values: UnsafeBufferPointer<Double>, to buffer: inout [UInt8])
    {
        if !prefix.isEmpty {
            appendField(prefix, to: &buffer)
            buffer.append(UInt8(ascii: ","))
        }
        for (i, value) in values.enumerated() {
            if i > 0 { buffer.append(UInt8(ascii: ",")) }
            appendNumber(value, to: &buffer)
        }
        buffer.append(0x0A)
    }

    /// A row of an already CSV-encoded prefix (one or more fields) and numbers.
    package static func appendRawPrefixNumberRow(
        prefix: String, _ values: UnsafeBufferPointer<Double>, to buffer: inout [UInt8]
    ) {
        buffer.append(contentsOf: prefix.utf8)
        for value in values {
            buffer.append(UInt8(ascii: ","))
            appendNumber(value, to: &buffer)
        }
        buffer.append(0x0A)
    }

    /// RFC 4180: a field holding a comma, a quote, CR or LF is quoted (quotes doubled).
    @inlinable
    package static func needsQuotes(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
    }

    package static func appendField(_ field: String, to buffer: inout [UInt8]) {
        // One look at contiguous bytes (ids of ten million rows pass here): most fields need no quotes.
        var text = field
        let plain = text.withUTF8 { bytes -> Bool in
            if needsQuotes(bytes) { return false }
            buffer.append(contentsOf: bytes)
            return true
        }
        if plain { return }
        buffer.append(UInt8(ascii: "\""))
        for byte in field.utf8 {
            if byte == UInt8(ascii: "\"") { buffer.append(byte) }
            buffer.append(byte)
        }
        buffer.append(UInt8(ascii: "\""))
    }
}

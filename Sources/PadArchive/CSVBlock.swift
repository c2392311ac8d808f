#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// CSV text of millions of rows built in one fixed block of memory with plain stores and handed
/// to a ``CSVWriter`` whenever it fills: the per-row writers of `samples.csv` and `decisions.csv`.
/// A `[UInt8]` buffer costs a uniqueness check and often a retain and release per append (a row
/// has a dozen pieces); this block is allocated once and reused, so its pages are touched once.
///
/// ```swift
/// let block = CSVBlock(writer: csv)
/// try block.appendField(utf8: idBytes)       // quoted when it needs to be (RFC 4180)
/// try block.append(byte: UInt8(ascii: ","))
/// try block.appendNumber(0.25)
/// try block.append(byte: 0x0A)
/// try block.flush()
/// ```
/// The bytes are exactly those of ``CSVFormat/appendField(_:to:)`` and
/// ``CSVFormat/appendNumber(_:to:)-(Double,_)`` appended to an array.
package final class CSVBlock {
    @usableFromInline let writer: CSVWriter
    @usableFromInline let base: UnsafeMutablePointer<UInt8>
    @usableFromInline let capacity: Int
    /// The bytes in the block, kept in memory of its own: a stored `var` of a class is checked
    /// for exclusive access at run time on every change (a dozen times a row).
    @usableFromInline let filled: UnsafeMutablePointer<Int>

    @usableFromInline var count: Int {
        @inline(__always) get { filled.pointee }
        @inline(__always) set { filled.pointee = newValue }
    }

    package init(writer: CSVWriter, capacity: Int = 1 << 20) {
        self.writer = writer
        self.capacity = max(capacity, 2 * NumberText.maximumLength)
        base = .allocate(capacity: self.capacity)
        filled = .allocate(capacity: 1)
        filled.initialize(to: 0)
    }

    deinit {
        base.deallocate()
        filled.deallocate()
    }

    /// Hands the bytes so far to the writer.
    package func flush() throws {
        guard count > 0 else { return }
        try writer.writeRaw(UnsafeRawBufferPointer(start: base, count: count))
        count = 0
    }

    /// Room for `n` more bytes (flushing first when they do not fit); false when `n` is larger
    /// than the whole block (then the caller writes them through ``flush()`` and the writer).
    @inlinable
    func makeRoom(_ n: Int) throws -> Bool {
        if count + n > capacity { try flush() }
        return n <= capacity
    }

    @inlinable
    package func append(byte: UInt8) throws {
        if count == capacity { try flush() }
        base[count] = byte
        count += 1
    }

    @inlinable
    package func append(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        guard try makeRoom(bytes.count) else {
            try writer.writeRaw(UnsafeRawBufferPointer(bytes))
            return
        }
        if bytes.count > 0 { memcpy(base + count, bytes.baseAddress!, bytes.count) }
        count += bytes.count
    }

    /// A field as ``CSVFormat/appendField(_:to:)`` writes it: as it is, or quoted with quotes
    /// doubled when it holds a comma, a quote, CR or LF.
    @inlinable
    package func appendField(utf8 bytes: UnsafeBufferPointer<UInt8>) throws {
        if CSVFormat.needsQuotes(bytes) { return try appendQuoted(bytes) }
        try append(bytes)
    }

    @usableFromInline
    func appendQuoted(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        try append(byte: UInt8(ascii: "\""))
        for byte in bytes {
            if byte == UInt8(ascii: "\"") { try append(byte: byte) }
            try append(byte: byte)
        }
        try append(byte: UInt8(ascii: "\""))
    }

    /// ``CSVFormat/number(_:)``'s bytes (``NumberText``).
    @inlinable
    package func appendNumber(_ value: Double) throws {
        _ = try makeRoom(NumberText.maximumLength)
        count += NumberText.write(value, into: UnsafeMutableBufferPointer(start: base + count, count: capacity - count))
    }
}

/// The constant parts of a file's rows (`,name,eval,attack,print,`), each made once and found
/// by number, for ``CSVBlock`` row loops: ``withPieces(_:)`` gives them as plain memory, so a
/// row appends its parts without touching an array.
///
/// ```swift
/// var parts = CSVPieces()
/// let accepted = parts.add("ok,1,,\n")
/// try parts.withPieces { pieces in try block.append(pieces[accepted]) }
/// ```
package struct CSVPieces {
    private var bytes: [UInt8] = []
    private var ranges: [Range<Int>] = []

    package init() {}

    /// Adds `text` as it is (callers escape fields with ``CSVFormat/appendField(_:to:)``) and
    /// returns its number.
    @discardableResult
    package mutating func add(_ text: [UInt8]) -> Int {
        ranges.append(bytes.count..<(bytes.count + text.count))
        bytes += text
        return ranges.count - 1
    }

    @discardableResult
    package mutating func add(_ text: String) -> Int { add(Array(text.utf8)) }

    package func withPieces<R>(_ body: (Pieces) throws -> R) rethrows -> R {
        try bytes.withUnsafeBufferPointer { bytes in
            try ranges.withUnsafeBufferPointer { ranges in try body(Pieces(bytes: bytes, ranges: ranges)) }
        }
    }

    /// The pieces' memory, valid inside ``withPieces(_:)``.
    package struct Pieces {
        @usableFromInline let bytes: UnsafeBufferPointer<UInt8>
        @usableFromInline let ranges: UnsafeBufferPointer<Range<Int>>

        @inlinable
        package subscript(k: Int) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: bytes[ranges[k]]) }
    }
}

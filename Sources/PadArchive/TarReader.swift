/// Reads the entries of a tar stream (ustar and pax `path` records) from a ``ZstdStream``, one
/// header at a time: data is handed out in chunks or skipped, never held whole.
///
/// Example: `PadArchiveDocExamples.tarOverZstd`
/// in `Tests/PadArchiveTests/DocExamplesTests.swift` (compiled and run by `swift test`).
/// A member whose declared size would take the stream past `totalLimit` is refused at its header,
/// before any of its data is read.
package final class TarReader {
    package struct Entry: Sendable, Equatable {
        package var name: String
        package var size: Int
    }

    /// pax extended headers hold a few records; more than this is not a padbench archive.
    static let paxLimit = 1 << 20
    let path: String
    let totalLimit: Int
    private let stream: ZstdStream
    private var dataLeft = 0, paddingLeft = 0
    private var block = [UInt8](repeating: 0, count: 512)

    package init(stream: ZstdStream, totalLimit: Int) {
        self.stream = stream
        self.path = stream.path
        self.totalLimit = totalLimit
    }

    /// The next regular file; nil after the end-of-archive block.
    package func next() throws -> Entry? {
        try skip(dataLeft + paddingLeft)
        dataLeft = 0
        paddingLeft = 0
        var paxName: String?
        while true {
            let offset = stream.produced
            try readExactly(&block, what: "tar stream")
            if block.allSatisfy({ $0 == 0 }) { return nil } // end-of-archive block
            let (size, type) = try parseHeader(at: offset)
            if stream.produced + size > totalLimit {
                throw ArchiveError.limit(
                    path: path,
                    message:
                        "tar member at byte \(offset) declares \(size) bytes, "
                        + "beyond the total limit of \(totalLimit) bytes"
                )
            }
            let nameField = block[0..<100].prefix { $0 != 0 }
            let name = String(decoding: nameField, as: UTF8.self)
            let padding = (512 - size % 512) % 512
            if type == UInt8(ascii: "x") {
                guard size <= Self.paxLimit else {
                    throw ArchiveError.limit(path: path, message: "pax header of \(size) bytes at byte \(offset)")
                }
                var record = [UInt8](repeating: 0, count: size)
                try readExactly(&record, what: "tar entry")
                try skip(padding)
                paxName = Self.parsePaxPath(record[...])
            } else if type == UInt8(ascii: "0") || type == 0 {
                dataLeft = size
                paddingLeft = padding
                return Entry(name: paxName ?? name, size: size)
            } else {
                try skip(size + padding)
            }
        }
    }

    /// Hands the current entry's data to `consume` in chunks of at most 64 KiB.
    package func readData(_ consume: (UnsafeRawBufferPointer) throws -> Void) throws {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while dataLeft > 0 {
            let want = min(dataLeft, chunk.count)
            let n = try chunk.withUnsafeMutableBytes {
                try stream.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<want]))
            }
            if n == 0 { throw ArchiveError.tar(path: path, message: "truncated tar entry at byte \(stream.produced)") }
            try chunk.withUnsafeBytes { try consume(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            dataLeft -= n
        }
    }

    private func parseHeader(at offset: Int) throws -> (size: Int, type: UInt8) {
        let header = block[...]
        let stored = Self.parseOctal(header, from: 148, count: 8)
        var sum = 0
        for i in 0..<512 { sum += (148..<156).contains(i) ? 0x20 : Int(block[i]) }
        guard let stored, stored == sum else {
            throw ArchiveError.tar(path: path, message: "not a tar stream (bad header checksum at byte \(offset))")
        }
        guard let size = Self.parseOctal(header, from: 124, count: 12) else {
            throw ArchiveError.tar(path: path, message: "bad size field at byte \(offset)")
        }
        return (size, block[156])
    }

    private func readExactly(_ buffer: inout [UInt8], what: String) throws {
        var filled = 0
        let count = buffer.count
        while filled < count {
            let n = try buffer.withUnsafeMutableBytes {
                try stream.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[filled..<count]))
            }
            if n == 0 { throw ArchiveError.tar(path: path, message: "truncated \(what) at byte \(stream.produced)") }
            filled += n
        }
    }

    private func skip(_ count: Int) throws {
        var left = count
        var chunk = [UInt8](repeating: 0, count: min(max(left, 1), 1 << 16))
        while left > 0 {
            let want = min(left, chunk.count)
            let n = try chunk.withUnsafeMutableBytes {
                try stream.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<want]))
            }
            if n == 0 { throw ArchiveError.tar(path: path, message: "truncated tar entry at byte \(stream.produced)") }
            left -= n
        }
    }

    /// An octal field (NUL or space terminated); nil when it holds anything else or overflows.
    static func parseOctal(_ bytes: ArraySlice<UInt8>, from start: Int, count: Int) -> Int? {
        var value = 0
        var digits = 0
        for b in bytes[(bytes.startIndex + start)..<(bytes.startIndex + start + count)] {
            if b == 0 || b == 0x20 { if digits > 0 { break } else { continue } }
            guard b >= 0x30, b <= 0x37, digits < 20 else { return nil }
            value = value * 8 + Int(b - 0x30)
            digits += 1
        }
        return digits > 0 ? value : nil
    }

    /// The `path` of a pax extended header: records `<length> <key>=<value>\n` read by their
    /// length (which counts the whole record), so a name holding a newline comes back whole.
    static func parsePaxPath(_ record: ArraySlice<UInt8>) -> String? {
        var i = record.startIndex
        var path: String?
        while i < record.endIndex {
            guard let space = record[i...].firstIndex(of: 0x20),
                let length = Int(String(decoding: record[i..<space], as: UTF8.self)), length > space - i,
                length <= record.endIndex - i
            else { return path }
            let end = i + length
            let body = record[(space + 1)..<(record[end - 1] == 0x0A ? end - 1 : end)]
            if body.starts(with: Array("path=".utf8)) { path = String(decoding: body.dropFirst(5), as: UTF8.self) }
            i = end
        }
        return path
    }
}

/// Writes a POSIX tar stream (ustar headers, pax extended headers for long names) into a sink.
///
/// ```swift
/// let tar = TarWriter(into: zstd)
/// try tar.add(name: "manifest.json", contents: bytes, modified: 1_700_000_000)
/// try tar.addFile(name: "samples.csv", fromPath: run + "/samples.csv", modified: 1_700_000_000)
/// try tar.finish()
/// ```
/// Format: POSIX.1-2001 (pax) as read by GNU tar, bsdtar and Python's tarfile.
package final class TarWriter {
    private let sink: ByteSink
    package init(into sink: ByteSink) { self.sink = sink }

    package func add(name: String, contents: [UInt8], modified: Int) throws {
        try writeHeader(name: name, size: contents.count, modified: modified)
        try sink.write(contents)
        try pad(contents.count)
    }

    /// The header of a member whose bytes (and padding to the next 512-byte block) the caller
    /// writes into the stream itself (``ResultArchiveWriter/addCompressed(_:)``).
    package func addHeader(name: String, size: Int, modified: Int) throws {
        try writeHeader(name: name, size: size, modified: modified)
    }

    /// Streams a file from disk in 1 MiB chunks (bounded memory whatever its size).
    package func addFile(name: String, fromPath path: String, modified: Int) throws {
        let reader = try FileSource(path: path)
        let size = try reader.size()
        try writeHeader(name: name, size: size, modified: modified)
        var copied = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while copied < size {
            let n = try reader.read(into: &chunk)
            if n == 0 { throw ArchiveError.io(path: path, message: "file shrank while archiving") }
            let take = min(n, size - copied)
            try chunk.withUnsafeBytes { try sink.write(UnsafeRawBufferPointer(rebasing: $0[0..<take])) }
            copied += take
        }
        try pad(size)
    }

    /// Two zero blocks end the archive.
    package func finish() throws {
        try sink.write([UInt8](repeating: 0, count: 1024))
    }

    private func pad(_ size: Int) throws {
        let remainder = size % 512
        if remainder != 0 { try sink.write([UInt8](repeating: 0, count: 512 - remainder)) }
    }

    /// The ustar size field holds 11 octal digits: members must be smaller than 8 GiB.
    package static let maximumMemberSize = (1 << 33) - 1
    /// Names go in pax records when longer than 100 bytes; beyond this they are refused.
    package static let maximumNameBytes = 4096

    /// Refuses what a header cannot represent, instead of writing a field that overflows.
    static func validate(name: String, size: Int, modified: Int) throws {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= maximumNameBytes, !bytes.contains(0) else {
            throw ArchiveError.tar(
                path: name,
                message:
                    "cannot store a member named '\(name.prefix(200))' "
                    + "(empty, NUL byte or over \(maximumNameBytes) bytes)"
            )
        }
        guard size >= 0, size <= maximumMemberSize else {
            throw ArchiveError.limit(
                path: name,
                message: "member of \(size) bytes does not fit a tar size field (at most \(maximumMemberSize) bytes)")
        }
        guard modified <= (1 << 33) - 1 else {
            throw ArchiveError.tar(path: name, message: "modification time \(modified) does not fit a tar header")
        }
    }

    private func writeHeader(name: String, size: Int, modified: Int) throws {
        try Self.validate(name: name, size: size, modified: modified)
        let nameBytes = Array(name.utf8)
        if nameBytes.count > 100 {
            // pax extended header: records "<len> path=<name>\n", where len counts itself.
            let body = " path=" + name + "\n"
            var length = body.utf8.count + 1
            while String(length).utf8.count + body.utf8.count != length {
                length = String(length).utf8.count + body.utf8.count
            }
            let record = Array((String(length) + body).utf8)
            try sink.write(
                Self.header(
                    name: Array("PaxHeaders/\(name.suffix(80))".utf8.prefix(100)), size: record.count,
                    modified: modified, type: UInt8(ascii: "x")))
            try sink.write(record)
            try pad(record.count)
        }
        try sink.write(
            Self.header(name: Array(nameBytes.prefix(100)), size: size, modified: modified, type: UInt8(ascii: "0")))
    }

    static func header(name: [UInt8], size: Int, modified: Int, type: UInt8) -> [UInt8] {
        var block = [UInt8](repeating: 0, count: 512)
        func put(_ bytes: [UInt8], at offset: Int) { for (i, b) in bytes.enumerated() { block[offset + i] = b } }
        func octal(_ value: Int, width: Int) -> [UInt8] {
            let digits = String(value, radix: 8)
            return Array((String(repeating: "0", count: max(0, width - 1 - digits.count)) + digits).utf8) + [0]
        }
        put(name, at: 0)
        put(octal(0o644, width: 8), at: 100) // mode
        put(octal(0, width: 8), at: 108) // uid
        put(octal(0, width: 8), at: 116) // gid
        put(octal(size, width: 12), at: 124) // size (up to 8 GiB in 11 octal digits)
        put(octal(max(0, modified), width: 12), at: 136)
        put([UInt8](repeating: 0x20, count: 8), at: 148) // checksum field counts as spaces
        block[156] = type
        put(Array("ustar".utf8) + [0], at: 257)
        put(Array("00".utf8), at: 263)
        let checksum = block.reduce(0) { $0 + Int($1) }
        put(octal(checksum, width: 7) + [0x20], at: 148)
        return block
    }
}

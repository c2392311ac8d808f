#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A run-folder file that is compressed for the archive while it is written: every byte goes to
/// the file and into one zstd frame in `<path>.zst.part` at once, so the archive never reads the
/// file back (on ten million scores that is about 2 GB not copied out of the page cache again and
/// the compression done by the threads that make the text, not after them).
///
/// ```swift
/// let member = try ArchiveMemberWriter(name: "decisions.csv", path: folder + "/decisions.csv", level: 1)
/// let csv = CSVWriter(member: member)
/// try csv.writeRow(["id", "score"])
/// try csv.close()                                 // closes the file and ends the frame
/// try archive.addCompressed(try member.finished()) // header, then the frame as it is
/// ```
/// The frame holds the member's bytes and the zero padding to the next 512-byte tar block, so
/// ``ResultArchiveWriter/addCompressed(_:)`` writes only the tar header (in a frame of its own)
/// before copying the frame: the archive is a sequence of zstd frames, which zstd, `tar --zstd`
/// and ``ZstdStream`` read as one stream.
package final class ArchiveMemberWriter: ClosableByteSink {
    package let name: String
    package let path: String
    private let file: FileSink
    private let frameFile: FileSink
    private let zstd: ZstdWriter
    private var size = 0
    private var closed = false

    /// - Parameters: `level` and `workers` as for ``ZstdWriter``.
    package init(name: String, path: String, level: Int, workers: Int = 0) throws {
        self.name = name
        self.path = path
        file = try FileSink(path: path)
        frameFile = try FileSink(path: path + ".zst.part")
        zstd = try ZstdWriter(into: frameFile, path: path + ".zst.part", level: level, workers: workers)
    }

    package func write(_ bytes: UnsafeRawBufferPointer) throws {
        precondition(!closed, "write after close")
        try file.write(bytes)
        try zstd.write(bytes)
        size += bytes.count
    }

    /// Closes the file and ends the frame (with the tar padding).
    package func close() throws {
        guard !closed else { return }
        closed = true
        try file.close()
        let remainder = size % 512
        if remainder != 0 { try zstd.write([UInt8](repeating: 0, count: 512 - remainder)) }
        try zstd.finish()
        try frameFile.close()
    }

    /// The closed member, ready for ``ResultArchiveWriter/addCompressed(_:)``.
    package func finished() throws -> CompressedMember {
        guard closed else { throw ArchiveError.io(path: path, message: "archive member \(name) is still open") }
        return CompressedMember(name: name, size: size, framePath: path + ".zst.part")
    }

    deinit {
        if !closed {
            try? file.close()
            try? frameFile.close()
            unlink(path + ".zst.part")
        }
    }
}

/// A member compressed beside its file by ``ArchiveMemberWriter``: its name, its size in the tar
/// and the file holding its zstd frame (removed once the archive has copied it).
package struct CompressedMember: Sendable, Equatable {
    package var name: String
    package var size: Int
    package var framePath: String
}

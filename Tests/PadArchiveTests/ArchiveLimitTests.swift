import Foundation
import Testing
@testable import PadArchive

/// Archives are read as streams with limits: bombs are refused in bounded memory, and the writer
/// refuses members a tar header cannot represent.
@Suite struct ArchiveLimitTests {
    /// A zstd stream of hand-made tar blocks.
    static func writeZstd(_ path: String, _ write: (ZstdWriter) throws -> Void) throws {
        let file = try FileSink(path: path)
        let zstd = try ZstdWriter(into: file, path: path, level: 1)
        try write(zstd)
        try zstd.finish()
        try file.close()
    }

    @Test func memberDeclaringMoreThanTheTotalLimitIsRefusedAtItsHeader() throws {
        let path = temporaryFolder() + "/bomb.tar.zst"
        // A header that declares 5 GiB, followed by 1 MiB of zeros (the 197 KB bomb of the issue, cut short).
        try Self.writeZstd(path) { zstd in
            try zstd.write(
                TarWriter.header(name: Array("samples.csv".utf8), size: 5 << 30, modified: 0, type: UInt8(ascii: "0")))
            try zstd.write([UInt8](repeating: 0, count: 1 << 20))
        }
        #expect { try ResultArchiveReader(path: path) } throws: { error in
            guard case .limit(_, let message)? = error as? ArchiveError else { return false }
            return message.contains("declares 5368709120 bytes") && message.contains("total limit of 4294967296")
        }
    }

    @Test func streamThatExpandsPastTheTotalLimitIsRefused() throws {
        let folder = temporaryFolder()
        let writer = try ResultArchiveWriter(finalPath: folder + "/r.tar.zst", level: 1)
        let zeros = [UInt8](repeating: 0, count: 6 << 20)
        for i in 0..<4 { try writer.add(name: "part\(i).bin", contents: zeros) } // 24 MiB of zeros, a few KB compressed
        try writer.commit()
        let compressed = try FileSource(path: folder + "/r.tar.zst").size()
        #expect(compressed < 64 << 10)
        let small = ArchiveLimits(totalBytes: 16 << 20, memberBytes: 4 << 20)
        #expect { try ResultArchiveReader(path: folder + "/r.tar.zst", limits: small) } throws: { error in
            guard case .limit? = error as? ArchiveError else { return false }
            return true
        }
        // Within the total limit, a member above the member limit is refused; streaming it works.
        let reader = try ResultArchiveReader(
            path: folder + "/r.tar.zst", limits: ArchiveLimits(totalBytes: 32 << 20, memberBytes: 4 << 20))
        #expect(reader.entryNames == ["part0.bin", "part1.bin", "part2.bin", "part3.bin"])
        #expect(reader.size(of: "part2.bin") == 6 << 20)
        #expect { try reader.entry(named: "part2.bin") } throws: { error in
            guard case .limit? = error as? ArchiveError else { return false }
            return true
        }
        var streamed = 0, nonZero = 0
        try reader.streamEntry(named: "part3.bin") { chunk in
            streamed += chunk.count
            nonZero += chunk.filter { $0 != 0 }.count
        }
        #expect(streamed == 6 << 20 && nonZero == 0)
    }

    @Test func directoryIsNotAnArchive() throws {
        let folder = temporaryFolder()
        #expect { try ResultArchiveReader(path: folder) } throws: { error in "\(error)".contains("not a regular file") }
    }

    @Test func writerRefusesMembersATarHeaderCannotHold() throws {
        let folder = temporaryFolder()
        // A sparse 9 GiB file: its size does not fit the 11 octal digits of the size field.
        let huge = folder + "/huge.bin"
        let fd = open(huge, O_CREAT | O_WRONLY, 0o644)
        #expect(ftruncate(fd, 9 << 30) == 0)
        close(fd)
        let writer = try ResultArchiveWriter(finalPath: folder + "/r.tar.zst", level: 1)
        #expect { try writer.addFile(name: "huge.bin", fromPath: huge) } throws: { error in
            guard case .limit(_, let message)? = error as? ArchiveError else { return false }
            return message.contains("9663676416 bytes")
        }
        #expect(throws: ArchiveError.self) { try writer.add(name: "a\u{0}b", contents: [1]) }
        #expect(throws: ArchiveError.self) { try writer.add(name: "", contents: [1]) }
    }
}

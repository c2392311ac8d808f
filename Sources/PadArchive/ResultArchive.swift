import Foundation
import PadVocabulary

/// Writes `results.tar.zst`: a tar stream compressed with zstd, readable with `tar --zstd -xf`.
///
/// ```swift
/// let archive = try ResultArchiveWriter(finalPath: run + "/results.tar.zst")
/// try archive.add(name: "manifest.json", contents: manifestBytes)
/// try archive.addFile(name: "samples.csv", fromPath: run + "/samples.csv")
/// try archive.commit()      // renames `results.tar.zst.partial` to the final name
/// ```
/// The archive is written under `<final>.partial` and renamed only when complete, so an
/// interrupted run never leaves a truncated archive under the final name.
package final class ResultArchiveWriter {
    package let finalPath: String
    package var partialPath: String { finalPath + ".partial" }
    private let file: FileSink
    private let zstd: ZstdWriter
    private let tar: TarWriter
    private let modified: Int
    private var committed = false

    package init(finalPath: String, level: Int = 6, workers: Int = 0, modified: Int = Int(Date().timeIntervalSince1970))
        throws
    {
        self.finalPath = finalPath
        self.modified = modified
        file = try FileSink(path: finalPath + ".partial")
        zstd = try ZstdWriter(into: file, path: finalPath, level: level, workers: workers)
        tar = TarWriter(into: zstd)
    }

    package func add(name: String, contents: [UInt8]) throws {
        try tar.add(name: name, contents: contents, modified: modified)
    }

    package func addFile(name: String, fromPath path: String) throws {
        try tar.addFile(name: name, fromPath: path, modified: modified)
    }

    /// A member compressed while its file was written (``ArchiveMemberWriter``): its tar header
    /// ends the current zstd frame, then the member's own frame (bytes and padding) is copied
    /// into the archive as it is, and its frame file removed. The archive stays one zstd stream
    /// (frames one after another) holding the same tar as ``addFile(name:fromPath:)`` would write.
    package func addCompressed(_ member: CompressedMember) throws {
        try tar.addHeader(name: member.name, size: member.size, modified: modified)
        try zstd.endFrame()
        let frame = try FileSource(path: member.framePath)
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = try frame.read(into: &chunk)
            if n == 0 { break }
            try chunk.withUnsafeBytes { try file.write(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
        }
        unlink(member.framePath)
    }

    package func commit() throws {
        try tar.finish()
        try zstd.finish()
        try file.close()
        if rename(partialPath, finalPath) != 0 {
            throw ArchiveError.io(
                path: finalPath, message: "cannot rename \(partialPath): \(String(cString: strerror(errno)))")
        }
        committed = true
    }

    deinit {
        if !committed { try? file.close() }
    }
}

/// Size limits for reading an archive: the whole decompressed stream, and one member returned
/// in memory by ``ResultArchiveReader/entry(named:)``.
package struct ArchiveLimits: Sendable, Equatable {
    /// Decompressed bytes (tar headers and all members) one pass may read: 4 GiB.
    package var totalBytes: Int
    /// Size of one member handed out whole: 1 GiB (stream bigger ones with `streamEntry`).
    package var memberBytes: Int
    package static let standard = ArchiveLimits(totalBytes: 4 << 30, memberBytes: 1 << 30)

    package init(totalBytes: Int, memberBytes: Int) {
        self.totalBytes = totalBytes
        self.memberBytes = memberBytes
    }
}

/// Reads a result archive back: entry names and contents, streamed.
///
/// ```swift
/// let archive = try ResultArchiveReader(path: run + "/results.tar.zst")
/// let manifest = try RunManifest.decode(from: archive.entry(named: "manifest.json"))
/// try archive.streamEntry(named: "samples.csv") { chunk in received += chunk.count }    // bounded memory
/// ```
/// The archive is never held whole: opening walks the tar headers over a zstd decompression
/// stream and keeps only small members (each at most 1 MiB, 16 MiB in all); other members are
/// decompressed again, streamed, when asked for. A stream that decompresses past
/// `limits.totalBytes`, or a member declared beyond it, is refused at once (decompression bombs),
/// as is `entry(named:)` of a member above `limits.memberBytes`.
package struct ResultArchiveReader: Sendable {
    static let keptMemberBytes = 1 << 20
    static let keptTotalBytes = 16 << 20

    package let path: String
    package let limits: ArchiveLimits
    package let entryNames: [String]
    private let sizes: [String: Int]
    /// Position of each name among the entries (each name appears once).
    private let positions: [String: Int]
    private let kept: [String: [UInt8]]

    package init(path: String) throws { try self.init(path: path, limits: .standard) }

    package init(path: String, limits: ArchiveLimits) throws {
        self.path = path
        self.limits = limits
        let tar = try Self.open(path, limits)
        var names: [String] = [], sizes: [String: Int] = [:], positions: [String: Int] = [:],
            kept: [String: [UInt8]] = [:]
        var keptTotal = 0
        while let entry = try tar.next() {
            // padbench writes each member once. A second `decisions.csv` (`tar -r`, an edit) would
            // let a reader that streams the first and one that looks up the last disagree, and
            // `tar -x` keeps the last: one archive, two readings. Refused, naming both.
            if let first = positions[entry.name] {
                throw ArchiveError.tar(
                    path: path,
                    message: "member '\(MessageText.quote(entry.name))' appears twice (entries \(first + 1) and "
                        + "\(names.count + 1)): edited or damaged")
            }
            positions[entry.name] = names.count
            names.append(entry.name)
            sizes[entry.name] = entry.size
            kept[entry.name] = nil
            if entry.size <= Self.keptMemberBytes && keptTotal + entry.size <= Self.keptTotalBytes {
                var bytes: [UInt8] = []
                bytes.reserveCapacity(entry.size)
                try tar.readData { bytes.append(contentsOf: $0) }
                kept[entry.name] = bytes
                keptTotal += entry.size
            }
        }
        entryNames = names
        self.sizes = sizes
        self.positions = positions
        self.kept = kept
    }

    private static func open(_ path: String, _ limits: ArchiveLimits) throws -> TarReader {
        var info = stat()
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
            throw ArchiveError.io(path: path, message: "not a regular file")
        }
        return TarReader(stream: try ZstdStream(path: path, limit: limits.totalBytes), totalLimit: limits.totalBytes)
    }

    package func contains(_ name: String) -> Bool { positions[name] != nil }

    /// Declared size of a member, nil when there is none of that name.
    package func size(of name: String) -> Int? { sizes[name] }

    package func entry(named name: String) throws -> [UInt8] {
        if let bytes = kept[name] { return bytes }
        guard let size = sizes[name] else { throw ArchiveError.missingEntry(path: path, entry: name) }
        guard size <= limits.memberBytes else {
            throw ArchiveError.limit(
                path: path,
                message:
                    "\(name) is \(size) bytes, above the \(limits.memberBytes)-byte limit for a member read into memory"
            )
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(size)
        try streamEntry(named: name) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// Largest JSON member (`manifest.json`, `results.json`) read: 32 MiB, far below the 1 GiB
    /// member limit, because parsing JSON takes some 20 times its size in memory (a 100 MB
    /// `results.json` in a 34 KB archive made `show` peak at 2.3 GB). padbench's own are a few
    /// hundred KiB (about 300 bytes per species and profile in `results.json`).
    package static let jsonMemberBytes = 32 << 20

    /// A JSON member, refused above ``jsonMemberBytes`` before it is decompressed.
    package func jsonEntry(named name: String) throws -> [UInt8] {
        if let size = sizes[name], size > Self.jsonMemberBytes {
            throw ArchiveError.limit(
                path: path,
                message: "\(name) is \(size) bytes, above the \(Self.jsonMemberBytes)-byte limit for a JSON member")
        }
        return try entry(named: name)
    }

    /// Hands a member's bytes to `consume` in chunks (at most 64 KiB each), in bounded memory.
    package func streamEntry(named name: String, to consume: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard let position = positions[name] else { throw ArchiveError.missingEntry(path: path, entry: name) }
        if let bytes = kept[name] { return try bytes.withUnsafeBytes { try consume($0) } }
        let tar = try Self.open(path, limits)
        var index = 0
        while let entry = try tar.next() {
            if index == position && entry.name == name { return try tar.readData(consume) }
            index += 1
        }
        throw ArchiveError.tar(path: path, message: "\(name) vanished: the archive changed while it was read")
    }
}

import Foundation

/// Writes `results.tar.zst`: a tar stream compressed with zstd, readable with `tar --zstd -xf`.
///
/// ```swift
/// let archive = try ResultArchiveWriter(finalPath: "reports/run/results.tar.zst")
/// try archive.add(name: "manifest.json", contents: manifestBytes)
/// try archive.addFile(name: "samples.csv", fromPath: "reports/run/samples.csv")
/// try archive.commit()      // renames `results.tar.zst.partial` to the final name
/// ```
/// The archive is written under `<final>.partial` and renamed only when complete, so an
/// interrupted run never leaves a truncated archive under the final name.
public final class ResultArchiveWriter {
    public let finalPath: String
    public var partialPath: String { finalPath + ".partial" }
    private let file: FileSink
    private let zstd: ZstdWriter
    private let tar: TarWriter
    private let modified: Int
    private var committed = false

    public init(finalPath: String, level: Int = 6, workers: Int = 0, modified: Int = Int(Date().timeIntervalSince1970)) throws {
        self.finalPath = finalPath
        self.modified = modified
        file = try FileSink(path: finalPath + ".partial")
        zstd = try ZstdWriter(into: file, path: finalPath, level: level, workers: workers)
        tar = TarWriter(into: zstd)
    }

    public func add(name: String, contents: [UInt8]) throws {
        try tar.add(name: name, contents: contents, modified: modified)
    }

    public func addFile(name: String, fromPath path: String) throws {
        try tar.addFile(name: name, fromPath: path, modified: modified)
    }

    public func commit() throws {
        try tar.finish()
        try zstd.finish()
        try file.close()
        if rename(partialPath, finalPath) != 0 {
            throw ArchiveError.io(path: finalPath, message: "cannot rename \(partialPath): \(String(cString: strerror(errno)))")
        }
        committed = true
    }

    deinit {
        if !committed { try? file.close() }
    }
}

/// Reads a result archive back: entry names and contents.
///
/// ```swift
/// let archive = try ResultArchiveReader(path: "reports/run/results.tar.zst")
/// let manifest = try RunManifest.decode(from: archive.entry(named: "manifest.json"))
/// ```
public struct ResultArchiveReader: Sendable {
    public let path: String
    private let bytes: [UInt8]
    private let index: [String: Range<Int>]
    public let entryNames: [String]

    public init(path: String) throws {
        self.path = path
        bytes = try ZstdReader.decompressFile(path)
        let entries = try TarReader.entries(of: bytes, path: path)
        entryNames = entries.map(\.name)
        var index: [String: Range<Int>] = [:]
        for entry in entries { index[entry.name] = entry.range }
        self.index = index
    }

    public func contains(_ name: String) -> Bool { index[name] != nil }

    public func entry(named name: String) throws -> [UInt8] {
        guard let range = index[name] else { throw ArchiveError.missingEntry(path: path, entry: name) }
        return Array(bytes[range])
    }
}

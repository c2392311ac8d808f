import Foundation
import Glibc
import PadArchive

/// Columns of a measurement table kept on disk instead of in memory: one file per column of
/// native-endian Doubles in sample order, appended through a small buffer. A bench run keeps
/// only the outputs its profiles read in memory; the others are needed once, at the end, one
/// column at a time (which output separates which attack), so a million samples of thirty
/// outputs cost eight megabytes at a time instead of 240.
final class ColumnSpill: @unchecked Sendable {
    let folder: String
    private let spilled: [Bool]
    private var files: [Int: FileSink] = [:]
    private var buffers: [Int: [Double]] = [:]
    private let lock = NSLock()
    private static let bufferValues = 8192

    /// - Parameter columns: indices of the spilled columns.
    init(folder: String, columns: [Int]) throws {
        self.folder = folder
        var spilled = [Bool](repeating: false, count: (columns.max() ?? -1) + 1)
        for c in columns { spilled[c] = true }
        self.spilled = spilled
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for c in columns {
            files[c] = try FileSink(path: path(c))
            buffers[c] = []
            buffers[c]!.reserveCapacity(Self.bufferValues)
        }
    }

    func holds(_ c: Int) -> Bool { c < spilled.count && spilled[c] }

    private func path(_ c: Int) -> String { folder + "/column-\(c).f64" }

    /// Appends the spilled columns' values of one row.
    func append(_ row: [Double]) throws {
        lock.lock()
        defer { lock.unlock() }
        for (c, file) in files {
            buffers[c]!.append(row[c])
            if buffers[c]!.count >= Self.bufferValues { try flush(c, file) }
        }
    }

    private func flush(_ c: Int, _ file: FileSink) throws {
        try buffers[c]!.withUnsafeBytes { try file.write($0) }
        buffers[c]!.removeAll(keepingCapacity: true)
    }

    /// The first `count` values of column `c`.
    func read(_ c: Int, count: Int) throws -> [Double] {
        lock.lock()
        defer { lock.unlock() }
        if let file = files[c] { try flush(c, file) }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path(c)))
        guard bytes.count >= count * 8 else {
            throw EvaluationError("\(path(c)): \(bytes.count / 8) values spilled for \(count) samples")
        }
        return bytes.withUnsafeBytes { raw in (0..<count).map { raw.load(fromByteOffset: $0 * 8, as: Double.self) } }
    }

    /// The values of column `c` at `rows` (ascending sample numbers), read block by block: only
    /// the chosen values are held, never the whole column (`outputs.csv` reads the reported split).
    func read(_ c: Int, rows: [Int32]) throws -> [Double] {
        lock.lock()
        defer { lock.unlock() }
        if let file = files[c] { try flush(c, file) }
        let fd = open(path(c), O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw EvaluationError("\(path(c)): cannot read: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var block = [Double](repeating: 0, count: Self.bufferValues)
        var blockStart = 0, blockCount = 0
        var result: [Double] = []
        result.reserveCapacity(rows.count)
        for row in rows.lazy.map(Int.init) {
            if row < blockStart || row >= blockStart + blockCount {
                blockStart = row - row % Self.bufferValues
                blockCount = try Self.readBlock(fd, at: blockStart, into: &block, path: path(c))
                guard row < blockStart + blockCount else {
                    throw EvaluationError(
                        "\(path(c)): \(blockStart + blockCount) values spilled, sample \(row) asked for")
                }
            }
            result.append(block[row - blockStart])
        }
        return result
    }

    /// Fills `block` with the values from number `first` on (fewer at the end of the file);
    /// returns how many were read.
    private static func readBlock(_ fd: Int32, at first: Int, into block: inout [Double], path: String) throws -> Int {
        try block.withUnsafeMutableBytes { buffer in
            var filled = 0
            while filled < buffer.count {
                let n = pread(fd, buffer.baseAddress! + filled, buffer.count - filled, off_t(first * 8 + filled))
                if n < 0 && errno == EINTR { continue }
                guard n >= 0 else { throw EvaluationError("\(path): read failed: \(String(cString: strerror(errno)))") }
                if n == 0 { break }
                filled += n
            }
            return filled / 8
        }
    }

    /// Replaces every value of column `c` (the table was reordered).
    func rewrite(_ c: Int, _ values: [Double]) throws {
        lock.lock()
        defer { lock.unlock() }
        if let file = files[c] { try flush(c, file) }
        try values.withUnsafeBytes { try Data($0).write(to: URL(fileURLWithPath: path(c))) }
    }

    deinit {
        for file in files.values { try? file.close() }
        try? FileManager.default.removeItem(atPath: folder)
    }
}

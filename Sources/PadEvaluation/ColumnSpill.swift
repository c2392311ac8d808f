import Foundation
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

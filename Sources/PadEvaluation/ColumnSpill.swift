import Foundation
import Glibc
import PadArchive
import PadText
import Synchronization

/// Columns of a measurement table kept on disk instead of in memory. A bench run keeps only the
/// outputs its profiles read in memory; the others are needed once, at the end, one column at a
/// time (which output separates which attack), so a million samples of thirty outputs cost a few
/// megabytes at a time instead of 240.
///
/// One file, one descriptor, whatever the number of columns (1,500 outputs under `ulimit -n 1024`
/// work): rows are gathered in a block of `blockRows` rows and written as one piece in which each
/// spilled column's values lie together (column-major within the block), so a column is read back
/// with one `pread` per block. The block holds at most about 8 MiB of values (`blockRows` shrinks
/// as the columns grow, from 8,192 rows down to 64). The file lives in the run's work folder and
/// goes with it, also when the run is killed.
final class ColumnSpill: Sendable {
    let folder: String
    /// Spilled columns' positions in the block (-1: held in memory).
    private let slot: [Int]
    private let columns: [Int]
    let blockRows: Int
    private let descriptor: Int32
    private let buffer: Mutex<Buffer>
    static let blockBytes = 8 << 20

    /// The block being gathered and how much of the file is written.
    private struct Buffer {
        var block: [Double]
        var pendingRows = 0
        var writtenBlocks = 0
        var failure: String?
    }

    /// - Parameter columns: indices of the spilled columns.
    init(folder: String, columns: [Int]) throws {
        self.folder = folder
        self.columns = columns
        var slot = [Int](repeating: -1, count: (columns.max() ?? -1) + 1)
        for (s, c) in columns.enumerated() { slot[c] = s }
        self.slot = slot
        blockRows = min(8192, max(64, Self.blockBytes / (8 * max(1, columns.count))))
        buffer = Mutex(Buffer(block: [Double](repeating: 0, count: blockRows * columns.count)))
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw EvaluationError("\(folder): cannot create the spill folder: \(RegularFile.reason(error))")
        }
        descriptor = open(folder + "/columns.f64", O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw EvaluationError("\(folder)/columns.f64: cannot create: \(String(cString: strerror(errno)))")
        }
    }

    func holds(_ c: Int) -> Bool { c < slot.count && slot[c] >= 0 }

    private var path: String { folder + "/columns.f64" }

    /// Byte offset of column slot `s` in block `k`.
    private func offset(block k: Int, slot s: Int) -> off_t { off_t((k * columns.count + s) * blockRows * 8) }

    /// Appends the spilled columns' values of one row. A failed write (a full disk) is kept and
    /// thrown by every later ``read(_:rows:)``, which the run's `outputs.csv` makes before it commits.
    func append(_ row: [Double]) {
        buffer.withLock { buffer in
            for (s, c) in columns.enumerated() { buffer.block[s * blockRows + buffer.pendingRows] = row[c] }
            buffer.pendingRows += 1
            guard buffer.pendingRows == blockRows else { return }
            // Safety: the bytes are written by pwrite before the closure returns; none is kept.
            let written = buffer.block.withUnsafeBytes {
                Self.writeAll(descriptor, $0, at: offset(block: buffer.writtenBlocks, slot: 0))
            }
            if let written, buffer.failure == nil { buffer.failure = "\(path): write failed: \(written)" }
            buffer.writtenBlocks += 1
            buffer.pendingRows = 0
        }
    }

    /// The first `count` values of column `c`.
    func read(_ c: Int, count: Int) throws -> [Double] {
        try read(c, rows: (0..<Int32(count)).map { $0 })
    }

    /// The values of column `c` at `rows` (ascending sample numbers), read block by block: only
    /// the chosen values and one block of the column are held (`outputs.csv` reads the reported split).
    func read(_ c: Int, rows: [Int32]) throws -> [Double] {
        try buffer.withLock { buffer in
            if let failure = buffer.failure { throw EvaluationError(failure) }
            let s = slot[c]
            var piece = [Double](repeating: 0, count: blockRows)
            var loaded = -1
            var result: [Double] = []
            result.reserveCapacity(rows.count)
            for row in rows.lazy.map(Int.init) {
                let k = row / blockRows, i = row % blockRows
                if k == buffer.writtenBlocks && i < buffer.pendingRows {
                    result.append(buffer.block[s * blockRows + i])
                    continue
                }
                guard k < buffer.writtenBlocks else {
                    let spilled = buffer.writtenBlocks * blockRows + buffer.pendingRows
                    throw EvaluationError("\(path): \(spilled) rows spilled, row \(row) asked for")
                }
                if k != loaded {
                    // Safety: pread fills the array's own bytes before the closure returns; none is kept.
                    try piece.withUnsafeMutableBytes {
                        try Self.readAll(descriptor, $0, at: offset(block: k, slot: s), path: path)
                    }
                    loaded = k
                }
                result.append(piece[i])
            }
            return result
        }
    }

    /// Replaces every value of column `c` (the table was reordered).
    func rewrite(_ c: Int, _ values: [Double]) throws {
        try buffer.withLock { buffer in
            let s = slot[c]
            for k in 0..<buffer.writtenBlocks {
                let range = (k * blockRows)..<((k + 1) * blockRows)
                // Safety: the bytes are written by pwrite before the closure returns; none is kept.
                if let error = values[range].withUnsafeBytes({
                    Self.writeAll(descriptor, $0, at: offset(block: k, slot: s))
                }) {
                    throw EvaluationError("\(path): write failed: \(error)")
                }
            }
            for i in 0..<buffer.pendingRows {
                buffer.block[s * blockRows + i] = values[buffer.writtenBlocks * blockRows + i]
            }
        }
    }

    /// pwrite(2) of all of `bytes`; the reason on failure.
    private static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at start: off_t) -> String? {
        var done = 0
        while done < bytes.count {
            let n = pwrite(fd, bytes.baseAddress! + done, bytes.count - done, start + off_t(done))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return String(cString: strerror(errno)) }
            done += n
        }
        return nil
    }

    /// pread(2) of all of `buffer`; a short file is an error.
    private static func readAll(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer, at start: off_t, path: String)
        throws
    {
        var done = 0
        while done < buffer.count {
            let n = pread(fd, buffer.baseAddress! + done, buffer.count - done, start + off_t(done))
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw EvaluationError("\(path): read failed: \(String(cString: strerror(errno)))") }
            guard n > 0 else { throw EvaluationError("\(path): the spill file is shorter than written") }
            done += n
        }
    }

    deinit {
        close(descriptor)
        try? FileManager.default.removeItem(atPath: folder)
    }
}

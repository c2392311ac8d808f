#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Something bytes can be streamed into: a file, a zstd compressor, a tar entry.
package protocol ByteSink: AnyObject {
    func write(_ bytes: UnsafeRawBufferPointer) throws
}

/// A sink that ends with `close()`: a file, or a file and its archive frame (``ArchiveMemberWriter``).
package protocol ClosableByteSink: ByteSink {
    func close() throws
}

extension ByteSink {
    package func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { raw in try write(raw) }
    }
}

/// An output file written with POSIX `write(2)`; buffering is the caller's (CSVWriter, ZstdWriter).
///
/// ```swift
/// let file = try FileSink(path: folder + "/out.bin")
/// try file.write([1, 2, 3])
/// try file.close()
/// ```
///
/// Big files are written "drop-behind": every ``dropBehindWindow`` bytes, the file's pages up to
/// there are advised away (`posix_fadvise(POSIX_FADV_DONTNEED)`), which starts their writeback and
/// frees those already written back, a few windows behind. The page cache then holds tens of
/// megabytes of a file being written, not all of it: a run writing gigabytes of CSV (ten million
/// rows of `samples.csv` and `decisions.csv`) reuses the same pages instead of taking fresh ones
/// for every byte, which on a virtual machine whose free memory goes back to the host costs more
/// than the copy itself (1.4 GB: 4-5 s of kernel time written plainly, 0.7-1.1 s drop-behind). The
/// advice never waits for the disk and its failure (a pipe, a file system without it) is ignored:
/// the bytes written are the same either way.
package final class FileSink: ClosableByteSink {
    package let path: String
    private var descriptor: Int32
    /// Bytes written since opening, and where the last advice ended (drop-behind; not in append mode).
    private var bytesWritten: Int64 = 0
    private var advised: Int64 = 0
    private let dropsBehind: Bool

    /// 8 MiB: small files (reports, manifests) are never advised.
    static let dropBehindWindow: Int64 = 8 << 20

    /// - Parameter append: keep what the file holds and write after it (a resumed journal).
    package init(path: String, append: Bool = false) throws {
        self.path = path
        dropsBehind = !append
        descriptor = open(path, O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC) | O_CLOEXEC, 0o644)
        if descriptor < 0 {
            throw ArchiveError.io(path: path, message: "cannot create: \(String(cString: strerror(errno)))")
        }
    }

    /// Advises away the pages from four windows before the last advice up to what is written: the
    /// newest start their writeback, older ones written back by now are freed (advice again on a
    /// range still in writeback is harmless).
    private func dropBehind() {
        #if os(Linux)
        let from = max(0, advised - 4 * Self.dropBehindWindow)
        _ = posix_fadvise(descriptor, off_t(from), off_t(bytesWritten - from), POSIX_FADV_DONTNEED)
        #endif
        advised = bytesWritten
    }

    package func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard var pointer = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            let written = Glibc.write(descriptor, pointer, remaining)
            if written < 0 {
                if errno == EINTR { continue }
                throw ArchiveError.io(path: path, message: "write failed: \(String(cString: strerror(errno)))")
            }
            remaining -= written
            pointer += written
        }
        bytesWritten += Int64(bytes.count)
        if dropsBehind && bytesWritten - advised >= Self.dropBehindWindow { dropBehind() }
    }

    /// Flushes the written bytes to the disk (fsync(2)): before a rename that replaces a file.
    package func sync() throws {
        guard descriptor >= 0, fsync(descriptor) == 0 else {
            throw ArchiveError.io(path: path, message: "cannot flush to disk: \(String(cString: strerror(errno)))")
        }
    }

    package func close() throws {
        guard descriptor >= 0 else { return }
        let status = Glibc.close(descriptor)
        descriptor = -1
        if status != 0 {
            throw ArchiveError.io(path: path, message: "close failed: \(String(cString: strerror(errno)))")
        }
    }

    deinit { if descriptor >= 0 { _ = Glibc.close(descriptor) } }
}

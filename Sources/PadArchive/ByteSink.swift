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
package final class FileSink: ClosableByteSink {
    package let path: String
    private var descriptor: Int32

    /// - Parameter append: keep what the file holds and write after it (a resumed journal).
    package init(path: String, append: Bool = false) throws {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC) | O_CLOEXEC, 0o644)
        if descriptor < 0 {
            throw ArchiveError.io(path: path, message: "cannot create: \(String(cString: strerror(errno)))")
        }
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

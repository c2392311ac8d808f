#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file read sequentially in large chunks with POSIX `read(2)`.
package final class FileSource {
    package let path: String
    private var descriptor: Int32

    package init(path: String) throws {
        self.path = path
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            throw ArchiveError.io(path: path, message: "cannot open: \(String(cString: strerror(errno)))")
        }
    }

    deinit { if descriptor >= 0 { _ = close(descriptor) } }

    package func size() throws -> Int {
        var info = stat()
        if fstat(descriptor, &info) != 0 { throw ArchiveError.io(path: path, message: "cannot stat") }
        return Int(info.st_size)
    }

    /// Reads up to `buffer.count` bytes; 0 at end of file.
    package func read(into buffer: inout [UInt8]) throws -> Int {
        let capacity = buffer.count
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, capacity) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ArchiveError.io(path: path, message: "read failed: \(String(cString: strerror(errno)))")
            }
            return n
        }
    }
}

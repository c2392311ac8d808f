#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file that must be a regular file: a directory, FIFO, socket or device given where a
/// file is expected is refused after `stat`, before any `open` (a FIFO would block the reader,
/// a device could be endless).
///
/// Example: `PadTextDocExamples.regularFile`
/// in `Tests/PadDatasetTests/DocExamplesTests.swift` (compiled and run by `swift test`).
public enum RegularFile {
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public var path: String
        public var message: String
        public var description: String { "\(path): \(message)" }
    }

    /// Why `path` is not a readable regular file, or nil when it is one.
    public static func problem(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return String(cString: strerror(errno)) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "is a directory, not a file"
        case S_IFIFO: return "is a FIFO (named pipe), not a regular file"
        case S_IFCHR, S_IFBLK: return "is a device, not a regular file"
        case S_IFSOCK: return "is a socket, not a regular file"
        default: return "is not a regular file"
        }
    }

    public static func read(_ path: String, limit: Int = Int.max) throws(Failure) -> [UInt8] {
        if let problem = problem(path) { throw Failure(path: path, message: problem) }
        // O_NONBLOCK: should the file be swapped for a FIFO after stat, open does not hang.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw Failure(path: path, message: "cannot open: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw Failure(path: path, message: "is not a regular file")
        }
        guard Int(info.st_size) <= limit else {
            throw Failure(path: path, message: "is \(info.st_size) bytes, above the limit of \(limit)")
        }
        var result = [UInt8]()
        result.reserveCapacity(Int(info.st_size))
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(path: path, message: "read failed: \(String(cString: strerror(errno)))")
            }
            if n == 0 { return result }
            guard result.count + n <= limit else {
                throw Failure(path: path, message: "grew above the limit of \(limit) bytes while read")
            }
            result.append(contentsOf: chunk[0..<n])
        }
    }
}

import Foundation

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
package enum RegularFile {
    package struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        package var path: String
        package var message: String
        /// The `errno` behind the failure (ENOENT, EMFILE, ENOMEM, ...), 0 when it is not a system error.
        package var code: Int32
        package init(path: String, message: String, code: Int32 = 0) {
            self.path = path
            self.message = message
            self.code = code
        }
        package var description: String { "\(path): \(message)" }
    }

    /// True when this process has no descriptor left (EMFILE): for errors that arrive without
    /// their POSIX cause (Foundation's bare error 512, a bundle lookup that finds nothing), so the
    /// message can name the exhausted limit instead of a missing file.
    package static func descriptorsExhausted() -> Bool {
        let probe = open("/dev/null", O_RDONLY)
        if probe >= 0 { close(probe) }
        return probe < 0 && errno == EMFILE
    }

    /// A system error in the words a user acts on: a full descriptor table or exhausted memory
    /// (`ulimit -n`, `ulimit -v`) say so plainly, never as if the file were missing.
    package static func errorText(_ code: Int32) -> String {
        switch code {
        case EMFILE: return "too many open files (the limit of this process, ulimit -n)"
        case ENFILE: return "too many open files (the system's limit)"
        case ENOMEM: return "out of memory"
        case ENOENT: return "no such file"
        default: return String(cString: strerror(code))
        }
    }

    /// The size `stat` gives for `path`, nil when it cannot be read.
    package static func size(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(info.st_size)
    }

    /// Why `path` is not a readable regular file, or nil when it is one.
    package static func problem(_ path: String) -> String? { check(path)?.message }

    /// Why `path` is not a readable regular file (with its errno), or nil when it is one.
    package static func check(_ path: String) -> Failure? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            return Failure(path: path, message: errorText(code), code: code)
        }
        let message: String
        switch info.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: message = "is a directory, not a file"
        case S_IFIFO: message = "is a FIFO (named pipe), not a regular file"
        case S_IFCHR, S_IFBLK: message = "is a device, not a regular file"
        case S_IFSOCK: message = "is a socket, not a regular file"
        default: message = "is not a regular file"
        }
        return Failure(path: path, message: message)
    }

    /// The whole file, at most `limit` bytes. Never more than `stat` announced: a file that
    /// yields more (a `/proc` or `/sys` file reports size 0 and may be endless, like
    /// `/proc/self/pagemap`, or a file growing while read) is refused after one byte too many.
    package static func read(_ path: String, limit: Int = Int.max) throws(Failure) -> [UInt8] {
        let (fd, size) = try openRegular(path)
        defer { close(fd) }
        guard size <= limit else {
            throw Failure(path: path, message: "is \(size) bytes, above the limit of \(limit)")
        }
        return try readAll(fd, path: path, size: size)
    }

    /// The file in chunks of at most `chunkSize` bytes, in order, never more than `stat`
    /// announced when it was opened (the same refusals as ``read(_:limit:)``): a journal of a
    /// million rows is parsed as it is read, never held whole. Errors of `body` pass through.
    package static func readChunks(
        _ path: String, chunkSize: Int = 1 << 20, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        let (fd, size) = try openRegular(path)
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: max(1, chunkSize))
        var total = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                let code = errno
                throw Failure(path: path, message: "read failed: \(errorText(code))", code: code)
            }
            if n == 0 { return }
            // Only what stat announced is handed over: bytes past it are refused before any is used.
            guard total + n <= size else {
                throw Failure(
                    path: path,
                    message: size == 0
                        ? "reports a size of 0 bytes but has data (a /proc or /sys file?); not read"
                        : "holds more than the \(size) bytes stat reported (growing while read?); not read")
            }
            total += n
            try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
        }
    }

    /// `path` opened for reading once it is checked to be a regular file (before the open, and
    /// again on the descriptor), with the size `fstat` gives. The caller closes the descriptor.
    private static func openRegular(_ path: String) throws(Failure) -> (fd: Int32, size: Int) {
        if let failure = check(path) { throw failure }
        // O_NONBLOCK: should the file be swapped for a FIFO after stat, open does not hang.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            let code = errno
            throw Failure(path: path, message: "cannot open: \(errorText(code))", code: code)
        }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw Failure(path: path, message: "is not a regular file")
        }
        return (fd, Int(info.st_size))
    }

    /// Reads `size` bytes and checks that nothing follows them.
    private static func readAll(_ fd: Int32, path: String, size: Int) throws(Failure) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: size + 1)
        var filled = 0
        while filled < result.count {
            let n = result.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, $0.count - filled) }
            if n < 0 {
                if errno == EINTR { continue }
                let code = errno
                throw Failure(path: path, message: "read failed: \(errorText(code))", code: code)
            }
            if n == 0 { break }
            filled += n
        }
        guard filled <= size else {
            throw Failure(
                path: path,
                message: size == 0
                    ? "reports a size of 0 bytes but has data (a /proc or /sys file?); not read"
                    : "holds more than the \(size) bytes stat reported (growing while read?); not read")
        }
        result.removeLast(result.count - filled)
        return result
    }
}

extension RegularFile {
    /// An error's reason without the path (the caller's message names it): strerror for a POSIX
    /// error underneath Foundation's, Foundation's text for its other errors, or the error's own
    /// description.
    package static func reason(_ error: Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))) }
        // Foundation reports some failures (creating a folder with no descriptor left) as a bare
        // error 512 without the POSIX cause: name the exhausted descriptor table when that is it.
        if RegularFile.descriptorsExhausted() { return RegularFile.errorText(EMFILE) }
        // Foundation's own codes for a full disk and a read-only one (Data.write reports ENOSPC as
        // "There isn't enough space." with no POSIX error underneath): the C library's words.
        if ns.domain == NSCocoaErrorDomain && ns.code == CocoaError.fileWriteOutOfSpace.rawValue {
            return String(cString: strerror(ENOSPC))
        }
        if ns.domain == NSCocoaErrorDomain && ns.code == CocoaError.fileWriteVolumeReadOnly.rawValue {
            return String(cString: strerror(EROFS))
        }
        // Foundation's codes for what the C library has words for ("The file doesn't exist." is
        // ENOENT without the POSIX error underneath).
        let cocoa: [CocoaError.Code: Int32] = [
            .fileNoSuchFile: ENOENT, .fileReadNoSuchFile: ENOENT, .fileReadNoPermission: EACCES,
            .fileWriteNoPermission: EACCES, .fileReadTooLarge: EFBIG, .fileWriteFileExists: EEXIST,
            .fileReadInvalidFileName: EINVAL, .fileWriteInvalidFileName: EINVAL,
        ]
        if ns.domain == NSCocoaErrorDomain, let code = cocoa[CocoaError.Code(rawValue: ns.code)] {
            return String(cString: strerror(code))
        }
        if ns.domain == NSCocoaErrorDomain { return ns.localizedDescription }
        return "\(error)"
    }
}

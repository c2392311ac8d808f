import Foundation
import PadEvaluation

#if canImport(Glibc)
import Glibc
#endif

/// `<out>.lock`: an exclusive `flock` held while a run is written; the kernel drops it when the
/// process dies, so a lock proves its writer alive.
///
/// The lock cannot be turned against the user: it is opened with `O_NOFOLLOW` (a planted symbolic
/// link is refused, never followed and overwritten) and must be a regular file. It is unlinked
/// only while held, and a writer that got the lock checks that the path still names the file it
/// locked (same device and inode) and starts again if not: a writer that opened the file just
/// before the holder unlinked it would otherwise hold a lock on a file no one else sees, and two
/// writers would both hold "the" lock.
///
/// ```swift
/// let lock = try RunLock(path: reports + "/run.lock", run: reports + "/run")
/// defer { lock.release() }
/// ```
final class RunLock {
    let path: String
    private var descriptor: Int32

    init(path: String, run final: String) throws {
        self.path = path
        descriptor = -1
        for _ in 0..<100 {
            let fd = try Self.open(path)
            guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
                let holder = Self.holder(fd)
                close(fd)
                throw EvaluationError(
                    "\(final): another padbench (pid \(holder)) is writing this run; wait for it or choose another --out"
                )
            }
            if Self.stillNamed(path, fd) {
                descriptor = fd
                _ = ftruncate(fd, 0)
                let pid = Array("\(getpid())\n".utf8)
                _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
                return
            }
            close(fd) // the holder unlinked it meanwhile: lock the file now under the name
        }
        throw EvaluationError("\(path): the run's lock keeps changing; is another padbench starting?")
    }

    /// Opens (creating) the lock file without following a link and checks it is a regular file.
    private static func open(_ path: String) throws -> Int32 {
        let fd = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o644)
        guard fd >= 0 else {
            let reason =
                errno == ELOOP
                ? "it is a symbolic link"
                : errno == EISDIR ? "it is not a regular file" : String(cString: strerror(errno))
            throw EvaluationError("\(path): cannot use the run's lock: \(reason)")
        }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw EvaluationError("\(path): cannot use the run's lock: it is not a regular file")
        }
        return fd
    }

    /// True when `path` still names the file open as `fd` (not unlinked or replaced meanwhile).
    private static func stillNamed(_ path: String, _ fd: Int32) -> Bool {
        var opened = stat(), named = stat()
        guard fstat(fd, &opened) == 0, lstat(path, &named) == 0 else { return false }
        return opened.st_dev == named.st_dev && opened.st_ino == named.st_ino
    }

    /// The pid the holder wrote (at most 32 bytes read), for the message.
    private static func holder(_ fd: Int32) -> String {
        var bytes = [UInt8](repeating: 0, count: 32)
        let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        let text = String(decoding: bytes.prefix(max(0, n)), as: UTF8.self).trimmingCharacters(
            in: .whitespacesAndNewlines)
        return text.isEmpty || !text.allSatisfy(\.isNumber) ? "?" : text
    }

    /// Unlinks the lock file while still holding it, then lets go (see the type's note).
    func release() {
        guard descriptor >= 0 else { return }
        if Self.stillNamed(path, descriptor) { unlink(path) }
        flock(descriptor, LOCK_UN)
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }
}

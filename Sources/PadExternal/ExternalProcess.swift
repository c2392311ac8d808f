import CLinux
import Foundation
import PadEstimators
#if canImport(Glibc)
import Glibc
#endif

/// One running external program with line-oriented pipes, owned by padbench from start to end.
///
/// Example: `PadEstimatorsDocExamples.externalProcessExchange`
/// in `Tests/PadEstimatorsTests/DocExamplesTests.swift` (compiled and run by `swift test`).
/// Why not Foundation's `Process`: the child must start with an empty signal mask and default
/// dispositions (padbench ignores SIGPIPE, and ignored signals survive `exec`), in a process group
/// of its own, so that a timeout can end the program *and* whatever it started (`kill(-pgid)`),
/// and with `PR_SET_PDEATHSIG`, so that it dies with padbench even when padbench is killed with
/// SIGKILL; `waitpid` reaps it so no zombie remains. What it starts outside its group (a daemon
/// that calls `setsid`) is ended by ``ChildProcesses/endAll()`` at the end of the run.
/// Standard error is read continuously into a bounded tail (last 20 lines, at most 4 KiB) that
/// failure messages quote; the program never blocks on a full stderr pipe while padbench waits.
/// Shared across threads only by ``ExternalChannel``, where one thread writes the program's input
/// and another reads its output and standard error; those touch disjoint descriptors and state.
final class ExternalProcess: @unchecked Sendable {
    // Safety: one thread at a time, but ExternalChannel's writer (`send`, `signalKill`) beside its reader (the rest);
    // the descriptors are `let` and retired, never closed, until deinit (``retire(_:)``).
    /// Seconds between SIGTERM and SIGKILL.
    static let gracePeriod = 1.0
    static let stderrTailBytes = 4096
    static let stderrTailLines = 20
    /// Longest answer line (`describe` or one sample's answer) read: 1 MiB, room for some
    /// 20,000 outputs with their ranges.
    static let maximumLineBytes = 1 << 20

    let pid: pid_t
    private let stdinFD: Int32
    private let stdoutFD: Int32
    private let stderrFD: Int32
    private var pending: [UInt8] = []
    private var stderrTail: [UInt8] = []
    private var exitStatus: Int32?

    init(command: String) throws(EstimatorFailure) {
        var toChild: [Int32] = [-1, -1], fromChild: [Int32] = [-1, -1], errors: [Int32] = [-1, -1]
        guard pipe(&toChild) == 0, pipe(&fromChild) == 0, pipe(&errors) == 0 else {
            for fd in toChild + fromChild + errors where fd >= 0 { close(fd) }
            throw EstimatorFailure(.estimatorError, "cannot create pipes: \(String(cString: strerror(errno)))")
        }
        // Close-on-exec so that no other child inherits these ends (dup2 in the child clears it on 0-2).
        for fd in toChild + fromChild + errors { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let spawned = Self.spawn(command: command, stdin: toChild[0], stdout: fromChild[1], stderr: errors[1])
        close(toChild[0]); close(fromChild[1]); close(errors[1])
        guard case .success(let pid) = spawned else {
            close(toChild[1]); close(fromChild[0]); close(errors[0])
            if case .failure(let error) = spawned { throw error }
            fatalError("unreachable")
        }
        self.pid = pid
        stdinFD = toChild[1]
        stdoutFD = fromChild[0]
        stderrFD = errors[0]
        _ = fcntl(stderrFD, F_SETFL, fcntl(stderrFD, F_GETFL) | O_NONBLOCK)
        _ = fcntl(stdoutFD, F_SETFL, fcntl(stdoutFD, F_GETFL) | O_NONBLOCK)
        // Writes wait for room under the request's deadline: a program that answers without reading
        // fills the pipe, and a blocking write would then wait forever.
        _ = fcntl(stdinFD, F_SETFL, fcntl(stdinFD, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        terminate()
        for fd in [stdinFD, stdoutFD, stderrFD] { close(fd) }
    }

    /// `/bin/sh -c "exec COMMAND"` with a clean signal mask, default signal handlers, its own
    /// process group and `PR_SET_PDEATHSIG` (SIGKILL when padbench dies), forked from the
    /// ``SpawnThread`` by the C shim `padbench_spawn` (no Swift code runs between fork and exec).
    private static func spawn(command: String, stdin: Int32, stdout: Int32, stderr: Int32) -> Result<
        pid_t, EstimatorFailure
    > {
        let arguments = ["/bin/sh", "-c", "exec " + command]
        let result = SpawnThread.shared.run { () -> (pid: pid_t, error: Int32) in
            var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
            defer { for pointer in argv { free(pointer) } }
            let pid = padbench_spawn("/bin/sh", &argv, environ, stdin, stdout, stderr)
            return (pid, pid < 0 ? errno : 0)
        }
        if result.pid < 0 {
            return .failure(
                EstimatorFailure(
                    .estimatorError, "cannot start the program: \(String(cString: strerror(result.error)))"))
        }
        return .success(result.pid)
    }

    /// Sends one line (a newline is appended) and waits for one line back, reading standard
    /// error meanwhile. Throws `timeout` when no full line arrives in time, `estimator_error`
    /// when the program closes its output; both messages end with the stderr tail.
    func exchange(_ request: [UInt8], timeout: Double) throws(EstimatorFailure) -> [UInt8] {
        let deadline = Date().addingTimeInterval(timeout)
        try send(request + [0x0A], until: deadline, timeout: timeout)
        guard let line = try readLine(until: deadline) else {
            throw EstimatorFailure(.timeout, "no answer within \(timeout) s" + stderrSuffix())
        }
        return line
    }

    /// The next line the program writes, or nil when none is complete by `deadline`. Throws when
    /// the program closes its output (with its exit status and stderr tail) or a line is too long.
    /// Only one thread reads a program's output.
    func readLine(until deadline: Date) throws(EstimatorFailure) -> [UInt8]? {
        // Bytes of `pending` already searched for a newline: each byte is looked at once.
        var searched = 0
        while true {
            if let newline = pending[searched...].firstIndex(of: 0x0A) {
                guard newline <= Self.maximumLineBytes else { throw lineTooLong() }
                let line = Array(pending[..<newline])
                pending.removeSubrange(...newline)
                return line
            }
            searched = pending.count
            if pending.count > Self.maximumLineBytes { throw lineTooLong() }
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { return nil }
            var fds = [
                pollfd(fd: stdoutFD, events: Int16(POLLIN), revents: 0),
                pollfd(fd: stderrFD, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, 2, Int32(min(remaining * 1000, 1_000_000).rounded(.up)))
            if ready < 0 {
                if errno == EINTR { continue }
                throw EstimatorFailure(.estimatorError, "poll failed: \(String(cString: strerror(errno)))")
            }
            if fds[1].revents != 0 { drainStderr() }
            if fds[0].revents != 0, try !readOutput() {
                drainStderr(waitingUpTo: 0.5)
                throw EstimatorFailure(
                    .estimatorError, "the program exited without answering\(exitDescription())" + stderrSuffix())
            }
        }
    }

    /// An answer line longer than ``maximumLineBytes`` fails its sample at once; what the
    /// program sends after it cannot be trusted to be in step, so the caller ends the program.
    private func lineTooLong() -> EstimatorFailure {
        pending = []
        return EstimatorFailure(
            .estimatorError, "answer line longer than \(Self.maximumLineBytes) bytes (the limit of one answer)")
    }

    /// Writes `line` whole by `deadline`, waiting for room in the pipe (poll) without blocking.
    /// `timeout` is named in the message of a program that does not read its input in time.
    /// `quietly`: leave the stderr tail and exit status to the thread that reads the program
    /// (pipelined channels, where another thread owns them).
    func send(_ line: [UInt8], until deadline: Date, timeout: Double, quietly: Bool = false)
        throws(EstimatorFailure)
    {
        var sent = 0
        while sent < line.count {
            let n = line.withUnsafeBytes { Glibc.write(stdinFD, $0.baseAddress! + sent, line.count - sent) }
            if n >= 0 {
                sent += n
                continue
            }
            if errno == EINTR { continue }
            if errno == EAGAIN {
                let remaining = deadline.timeIntervalSinceNow
                guard remaining > 0 else {
                    throw EstimatorFailure(
                        .timeout,
                        "the program did not read its input within \(timeout) s (\(sent) of \(line.count) bytes "
                            + "of the request written)" + (quietly ? "" : stderrSuffix()))
                }
                var fd = pollfd(fd: stdinFD, events: Int16(POLLOUT), revents: 0)
                _ = poll(&fd, 1, Int32(min(remaining * 1000, 1_000_000).rounded(.up)))
                continue
            }
            if !quietly { drainStderr(waitingUpTo: 0.5) }
            throw EstimatorFailure(
                .estimatorError,
                "the program closed its input (crashed?)" + (quietly ? "" : exitDescription() + stderrSuffix()))
        }
    }

    /// Sends SIGKILL to the program's group without touching its descriptors (another thread may be
    /// reading them); the reader then sees the end of its output and calls ``terminate()``.
    func signalKill() { _ = Glibc.kill(-pid, SIGKILL) }

    /// Reads what standard output has; false at end of file.
    private func readOutput() throws(EstimatorFailure) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let n = chunk.withUnsafeMutableBytes { Glibc.read(stdoutFD, $0.baseAddress, $0.count) }
        if n < 0 { return errno == EINTR || errno == EAGAIN }
        if n == 0 { return false }
        pending.append(contentsOf: chunk[0..<n])
        return true
    }

    /// Appends what standard error has to the bounded tail; with a wait, keeps reading until end
    /// of file or the wait is over (the program's last words arrive just before it exits).
    private func drainStderr(waitingUpTo wait: Double = 0) {
        let deadline = Date().addingTimeInterval(wait)
        var chunk = [UInt8](repeating: 0, count: 8192)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(stderrFD, $0.baseAddress, $0.count) }
            if n > 0 {
                stderrTail.append(contentsOf: chunk[0..<n])
                if stderrTail.count > Self.stderrTailBytes {
                    stderrTail.removeFirst(stderrTail.count - Self.stderrTailBytes)
                }
                continue
            }
            if n == 0 || (errno != EAGAIN && errno != EINTR) { return }
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 { return }
            var fd = pollfd(fd: stderrFD, events: Int16(POLLIN), revents: 0)
            _ = poll(&fd, 1, Int32(remaining * 1000) + 1)
        }
    }

    /// The last stderr lines (at most 20 lines and 4 KiB are kept).
    var stderrLines: [String] {
        let lines = String(decoding: stderrTail, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return Array(lines.suffix(Self.stderrTailLines))
    }

    /// `; stderr: line | line` with the last lines, at most 300 characters (the end is kept).
    func stderrSuffix() -> String {
        drainStderr()
        let joined = stderrLines.joined(separator: " | ")
        guard !joined.isEmpty else { return "" }
        return "; stderr: " + (joined.count > 300 ? "..." + joined.suffix(300) : joined)
    }

    func exitDescription() -> String {
        guard reap(waiting: 0.2) else { return "" }
        guard let status = exitStatus else { return "" }
        if status & 0x7F == 0 { return " (exit status \((status >> 8) & 0xFF))" }
        return " (killed by signal \(status & 0x7F))"
    }

    /// Waits up to `waiting` seconds for the program to end; true once it is reaped.
    @discardableResult
    private func reap(waiting: Double) -> Bool {
        if exitStatus != nil { return true }
        let deadline = Date().addingTimeInterval(waiting)
        while true {
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid || (result < 0 && errno == ECHILD) {
                exitStatus = result == pid ? status : -1
                return true
            }
            if Date() >= deadline { return false }
            usleep(10_000)
        }
    }

    /// Ends the program and everything in its process group: closes its input, SIGTERM, then
    /// SIGKILL after the grace period, and reaps it. Safe to call more than once, and from the
    /// channel's reader while its writer may still be in ``send(_:until:timeout:quietly:)``: the
    /// pipes are retired (``retire(_:)``), not closed, so no descriptor number is freed for another
    /// file while a thread may still use it; deinit closes them.
    func terminate() {
        Self.retire(stdinFD)
        if exitStatus == nil {
            _ = kill(-pid, SIGTERM)
            if !reap(waiting: Self.gracePeriod) {
                _ = kill(-pid, SIGKILL)
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                exitStatus = status
            }
        }
        // Whatever the program started in its group goes too, even after the leader exited.
        _ = kill(-pid, SIGKILL)
        Self.retire(stdoutFD)
        Self.retire(stderrFD)
    }

    /// The program's standard input, output and error descriptors (tests check what they point at).
    var descriptors: [Int32] { [stdinFD, stdoutFD, stderrFD] }

    /// Points descriptor `fd` at /dev/null (`dup2`, atomic; close-on-exec set again after it, a
    /// program spawned in between would inherit only /dev/null): the pipe end it
    /// held is closed, so the program reads end of input (or its writes fail), and a thread still
    /// writing or reading `fd` meets /dev/null. Closing it instead would free the number, and the
    /// next file opened anywhere in padbench (a run's CSV, an image) could get it and receive the
    /// rest of a request meant for the program.
    static func retire(_ fd: Int32) {
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        guard null >= 0 else { return }
        if dup2(null, fd) >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        close(null)
    }
}

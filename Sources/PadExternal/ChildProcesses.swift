import CLinux
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// padbench's descendants end with the run: padbench becomes a child subreaper
/// (`PR_SET_CHILD_SUBREAPER`, prctl(2)), so a program an estimator starts and orphans (a daemon
/// that double-forks and calls `setsid`, leaving the estimator's process group) is re-parented to
/// padbench instead of init, and ``endAll()`` ends every child left at the end of the run.
/// Estimators themselves also get `PR_SET_PDEATHSIG` (``ExternalProcess``), for when padbench is
/// killed before it can clean up.
///
/// ```swift
/// ChildProcesses.becomeSubreaper()
/// // ... the run ...
/// let ended = ChildProcesses.endAll()
/// ```
package enum ChildProcesses {
    /// Seconds a child has between SIGTERM and SIGKILL.
    static let gracePeriod = 0.5

    /// Makes this process the reaper of its orphaned descendants; false when the kernel refuses.
    @discardableResult
    package static func becomeSubreaper() -> Bool { padbench_become_subreaper() == 0 }

    /// Ends every child of this process (SIGTERM, then SIGKILL after the grace period) and reaps
    /// it; repeated while new orphans arrive (a killed daemon's own children are re-parented
    /// here). Returns how many processes were ended.
    @discardableResult
    package static func endAll() -> Int {
        var ended = 0
        for _ in 0..<20 {
            let children = self.children()
            if children.isEmpty { break }
            for pid in children { _ = kill(pid, SIGTERM) }
            let deadline = Date().addingTimeInterval(gracePeriod)
            var left = Set(children)
            while !left.isEmpty && Date() < deadline {
                left = left.filter { waitpid($0, nil, WNOHANG) == 0 }
                if !left.isEmpty { usleep(10_000) }
            }
            for pid in left {
                _ = kill(pid, SIGKILL)
                while waitpid(pid, nil, 0) < 0 && errno == EINTR {}
            }
            ended += children.count
        }
        return ended
    }

    /// The pids whose parent is this process, from `/proc/<pid>/stat` (field 4, after the command
    /// name in parentheses, which may itself hold spaces and parentheses).
    static func children() -> [pid_t] {
        let me = getpid()
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { name -> pid_t? in
            guard let pid = pid_t(name), pid != me,
                let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            // fields[0] is the state, fields[1] the parent pid; a zombie only needs reaping.
            guard fields.count > 1, pid_t(fields[1]) == me else { return nil }
            if fields[0] == "Z" {
                _ = waitpid(pid, nil, WNOHANG)
                return nil
            }
            return pid
        }
    }
}

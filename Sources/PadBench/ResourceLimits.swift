#if canImport(Glibc)
import Glibc
#endif

/// Limits of the process that padbench cannot work under, checked once at start so that they
/// give one line instead of a trap later: Swift stops the process when an allocation fails (a
/// `ulimit -v 200000` run died inside the cascade parser with SIGSEGV), so an address-space limit
/// too small for any run is refused before anything starts. So is a descriptor limit (`ulimit -n`)
/// below ``minimumDescriptors``: libdispatch's thread-pool monitor opens `/proc/self/task/*/stat`
/// while a run is busy and traps (SIGILL, exit 132, no message) when that open fails, which a run
/// with 14 descriptors did once it held them all (lock, journal, dispatch's own, images in flight).
///
/// Example: `ResourceLimitsTests.addressSpaceBelowTheMinimumIsNamed` in
/// `Tests/PadBenchTests/ResourceLimitsTests.swift` (compiled and run by `swift test`).
package enum ResourceLimits {
    /// Least address space (`ulimit -v`) a run needs: 1 GiB. Each thread reserves its stack and
    /// glibc gives busy threads malloc arenas of 64 MiB of address space each, before any image.
    package static let minimumAddressSpace = 1 << 30

    /// Least descriptor limit (`ulimit -n`) a run needs: 32. A bench of the sample holds about 12
    /// at its peak with the default concurrency (standard streams, lock, journal, dispatch's epoll,
    /// event and timer descriptors, images being read); twice that leaves room for the pool
    /// monitor's one and for a writer opening the next report file. Beyond it, running out is a
    /// per-file error naming the file (``PadText/RegularFile``), never a trap.
    package static let minimumDescriptors = 32

    /// Why this process cannot run (its address-space limit below ``minimumAddressSpace``, or its
    /// descriptor limit below ``minimumDescriptors``), or nil.
    package static func problem() -> String? {
        var limit = rlimit()
        if getrlimit(RLIMIT_AS_VALUE, &limit) == 0, let problem = addressSpaceProblem(limit: limit.rlim_cur) {
            return problem
        }
        guard getrlimit(RLIMIT_NOFILE_VALUE, &limit) == 0 else { return nil }
        return descriptorProblem(limit: limit.rlim_cur)
    }

    /// The message for an address-space limit of `limit` bytes (`RLIM_INFINITY`, all bits set: none).
    package static func addressSpaceProblem(limit: rlim_t) -> String? {
        guard limit != rlim_t.max, limit < rlim_t(minimumAddressSpace) else { return nil }
        return "out of memory: the address-space limit (ulimit -v) is \(limit >> 20) MiB; "
            + "padbench needs at least \(minimumAddressSpace >> 20) MiB"
    }

    /// The message for a descriptor limit of `limit` (`RLIM_INFINITY`: none). The soft limit is the
    /// one that fails an open; it is not raised here, so that the user's `ulimit` stays what it says.
    package static func descriptorProblem(limit: rlim_t) -> String? {
        guard limit != rlim_t.max, limit < rlim_t(minimumDescriptors) else { return nil }
        return "too many open files: the descriptor limit (ulimit -n) is \(limit); "
            + "padbench needs at least \(minimumDescriptors)"
    }

    private static var RLIMIT_NOFILE_VALUE: __rlimit_resource_t { __rlimit_resource_t(RLIMIT_NOFILE.rawValue) }
    private static var RLIMIT_AS_VALUE: __rlimit_resource_t { __rlimit_resource_t(RLIMIT_AS.rawValue) }
}

#if canImport(Glibc)
import Glibc
#endif

/// Limits of the process that padbench cannot work under, checked once at start so that they
/// give one line instead of a trap later: Swift stops the process when an allocation fails (a
/// `ulimit -v 200000` run died inside the cascade parser with SIGSEGV), so an address-space limit
/// too small for any run is refused before anything starts.
///
/// Example: `ResourceLimitsTests.addressSpaceBelowTheMinimumIsNamed` in
/// `Tests/PadBenchTests/ResourceLimitsTests.swift` (compiled and run by `swift test`).
package enum ResourceLimits {
    /// Least address space (`ulimit -v`) a run needs: 1 GiB. Each thread reserves its stack and
    /// glibc gives busy threads malloc arenas of 64 MiB of address space each, before any image.
    package static let minimumAddressSpace = 1 << 30

    /// Why this process cannot run (its address-space limit below ``minimumAddressSpace``), or nil.
    package static func problem() -> String? {
        var limit = rlimit()
        guard getrlimit(RLIMIT_AS_VALUE, &limit) == 0 else { return nil }
        return addressSpaceProblem(limit: limit.rlim_cur)
    }

    /// The message for an address-space limit of `limit` bytes (`RLIM_INFINITY`, all bits set: none).
    package static func addressSpaceProblem(limit: rlim_t) -> String? {
        guard limit != rlim_t.max, limit < rlim_t(minimumAddressSpace) else { return nil }
        return "out of memory: the address-space limit (ulimit -v) is \(limit >> 20) MiB; "
            + "padbench needs at least \(minimumAddressSpace >> 20) MiB"
    }

    private static var RLIMIT_AS_VALUE: __rlimit_resource_t { __rlimit_resource_t(RLIMIT_AS.rawValue) }
}

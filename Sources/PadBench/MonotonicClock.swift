#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Nanoseconds from the monotonic clock (`CLOCK_MONOTONIC`): immune to wall-clock changes,
/// which is what per-sample timing needs.
package enum MonotonicClock {
    @inline(__always)
    package static func nanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }
}

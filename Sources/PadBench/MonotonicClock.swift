#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Nanoseconds from the monotonic clock (`CLOCK_MONOTONIC`): immune to wall-clock changes,
/// which is what per-sample timing needs; and the thread's CPU clock beside it.
package enum MonotonicClock {
    @inline(__always)
    package static func nanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }

    /// CPU nanoseconds the calling thread has run (`CLOCK_THREAD_CPUTIME_ID`): what a step cost
    /// itself. Time the thread waits (on a lock, on another process, descheduled) is not in it,
    /// and neither is work it hands to other threads; a host that slows every instruction (other
    /// tenants of a virtual machine) still stretches it (``SpeedProbe``).
    @inline(__always)
    package static func threadCPUNanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }
}

/// A point on both clocks at once: the monotonic wall clock and the calling thread's CPU clock.
/// A step's cost is the difference of two points taken on the same thread.
package struct StepClock: Sendable {
    package var wall: UInt64
    package var cpu: UInt64

    @inline(__always)
    package static func now() -> StepClock {
        StepClock(wall: MonotonicClock.nanoseconds(), cpu: MonotonicClock.threadCPUNanoseconds())
    }

    /// Nanoseconds on each clock from `start` to now.
    @inline(__always)
    package static func since(_ start: StepClock) -> StepClock {
        let end = now()
        return StepClock(wall: end.wall &- start.wall, cpu: end.cpu &- start.cpu)
    }
}

import PadMetrics
import Synchronization

/// The machine's own speed during a run, measured by timing a fixed piece of work now and then
/// on the measuring threads' CPU clock: the `reference` row of `timing.csv`.
///
/// Why: on a shared or virtual machine the same binary on the same samples can run 1.5x slower
/// in one run than in the next, on the CPU clock as on the wall clock: other tenants of the host
/// slow every instruction, in phases of seconds (measured on this project's 2-core VM,
/// 2026-11-28: a fixed 10 ms loop's fastest repetition per half second moved between 8.7 and
/// 19 ms with nothing else running in the guest; 40 comparisons of identical reruns of the sample
/// under a load of 4 reached a lower bound of x1.54 on a step's CPU-time ratio,
/// `Benchmarks/latency_reruns.sh`). No clock of the guest tells that from a slower estimator, but
/// a fixed piece of work slows with it, so `compare` gates latency only when the two runs'
/// reference times agree (``LatencyComparison``). It is a detector, not a divisor: the reference
/// work slowed 1.6-1.7x in slow phases where the sample's estimators slowed 1.2-1.3x.
///
/// The work: four passes of a 3x3 box sum with an integer and a float accumulator over a fixed
/// 128x128 byte plane (about 60-140 us in a release build). It runs after a sample, on that
/// sample's thread, when at least ``interval`` nanoseconds of wall time and 100 times the last
/// probe's cost have passed since the last probe of the run: at most about 1% of the run's time.
package final class SpeedProbe: Sendable {
    /// Least wall time between two probes.
    package static let interval: UInt64 = 10_000_000

    private struct State {
        var wall = TimingHistogram(), cpu = TimingHistogram()
        /// Keeps the work's result alive so the optimiser cannot drop the work.
        var checksum: UInt32 = 0
    }
    private let state = Mutex(State())
    /// When the next probe is due (monotonic nanoseconds; `UInt64.max` while one runs). Read by
    /// every sample of the run without a lock: a million tiny samples take no mutex for it.
    private let due = Atomic<UInt64>(0)

    package init() {}

    /// Runs the reference work when a probe is due (one thread at a time takes it).
    package func probeIfDue() {
        let now = MonotonicClock.nanoseconds()
        let next = due.load(ordering: .relaxed)
        guard now >= next,
            due.compareExchange(expected: next, desired: UInt64.max, ordering: .relaxed).exchanged
        else { return }
        let start = StepClock.now()
        let result = Self.work()
        let spent = StepClock.since(start)
        state.withLock { s in
            s.wall.record(nanoseconds: spent.wall)
            s.cpu.record(nanoseconds: spent.cpu)
            s.checksum ^= result
        }
        due.store(MonotonicClock.nanoseconds() + max(Self.interval, spent.wall &* 100), ordering: .relaxed)
    }

    /// The `reference` step of the run's timing: the probes' wall and CPU times (nil when none
    /// ran).
    package func step(wallSeconds: Double) -> TimingStep? {
        state.withLock { s in
            guard s.cpu.count > 0 else { return nil }
            return TimingStep(
                name: Self.stepName, summary: s.wall.summary(wallSeconds: wallSeconds),
                cpu: s.cpu.summary(wallSeconds: wallSeconds))
        }
    }

    /// The row's name in `timing.csv`.
    package static let stepName = "reference"

    /// The plane the work reads: fixed bytes from a multiplicative hash of the index.
    private static let plane: [UInt8] = (0..<(side * side)).map {
        UInt8(truncatingIfNeeded: (UInt32($0) &* 2_654_435_761) >> 13)
    }
    private static let side = 128

    @inline(never)
    static func work() -> UInt32 {
        plane.withUnsafeBufferPointer { p in
            var sum: UInt32 = 0
            var energy: Float = 0
            for pass in 0..<4 {
                for y in 1..<(side - 1) {
                    for x in 1..<(side - 1) {
                        let i = y * side + x
                        var box = UInt32(p[i - side - 1]) + UInt32(p[i - side]) + UInt32(p[i - side + 1])
                        box += UInt32(p[i - 1]) + UInt32(p[i]) + UInt32(p[i + 1])
                        box += UInt32(p[i + side - 1]) + UInt32(p[i + side]) + UInt32(p[i + side + 1])
                        sum = sum &+ box &* UInt32(truncatingIfNeeded: x ^ y ^ pass)
                        energy += Float(box) * 0.001
                    }
                }
            }
            return sum ^ energy.bitPattern
        }
    }
}

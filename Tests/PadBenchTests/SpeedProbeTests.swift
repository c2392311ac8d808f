import Testing
@testable import PadBench

/// The reference workload runs when due, once per interval, whatever the number of callers: the
/// first call probes, a call right after it does not (the next is at least 10 ms away), and a
/// run with no call has no `reference` row.
@Suite struct SpeedProbeTests {
    @Test func probesOncePerInterval() throws {
        let probe = SpeedProbe()
        #expect(probe.step(wallSeconds: 1) == nil)
        probe.probeIfDue()
        probe.probeIfDue()
        let step = try #require(probe.step(wallSeconds: 1))
        #expect(step.name == "reference" && step.summary.count == 1 && step.cpu?.count == 1)
        #expect((step.cpu?.p50Nanoseconds ?? 0) > 0)
    }
}

import Testing
@testable import PadBench

/// An address-space limit too small for any run is one line, not a trap (issue 25).
@Suite struct ResourceLimitsTests {
    @Test func addressSpaceBelowTheMinimumIsNamed() {
        #expect(
            ResourceLimits.addressSpaceProblem(limit: 200_000 * 1024)
                == "out of memory: the address-space limit (ulimit -v) is 195 MiB; padbench needs at least 1024 MiB")
        #expect(ResourceLimits.addressSpaceProblem(limit: 1 << 30) == nil)
        #expect(ResourceLimits.addressSpaceProblem(limit: .max) == nil) // unlimited
    }

    /// A descriptor limit that lets libdispatch's pool monitor trap mid-run is one line at start.
    @Test func descriptorLimitBelowTheMinimumIsNamed() {
        #expect(
            ResourceLimits.descriptorProblem(limit: 14)
                == "too many open files: the descriptor limit (ulimit -n) is 14; padbench needs at least 32")
        #expect(ResourceLimits.descriptorProblem(limit: 31) != nil)
        #expect(ResourceLimits.descriptorProblem(limit: 32) == nil)
        #expect(ResourceLimits.descriptorProblem(limit: .max) == nil) // unlimited
    }
}

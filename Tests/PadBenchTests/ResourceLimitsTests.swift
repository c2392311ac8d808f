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
}

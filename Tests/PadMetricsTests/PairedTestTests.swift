import Foundation
import Testing
@testable import PadMetrics

@Suite struct PairedTestTests {
    /// Exact binomial tail by hand: P(X >= 3 | d = 4) = (C(4,3) + C(4,4)) / 16 = 5/16.
    @Test func mcnemarTailByHand() {
        #expect(abs(McNemar.oneSidedPValue(worse: 3, better: 1) - 5.0 / 16) < 1e-12)
        #expect(McNemar.oneSidedPValue(worse: 0, better: 5) == 1)
        #expect(abs(McNemar.oneSidedPValue(worse: 12, better: 0) - 1.0 / 4096) < 1e-15)
    }

    /// Median of 1...10 at 97.5%: B ~ Bin(10, 0.5); P(B <= 1) = 11/1024 <= 0.0125 and
    /// P(B <= 2) = 56/1024 > 0.0125, so l = 2; P(B <= 8) = 1013/1024 >= 0.9875 and
    /// P(B <= 7) = 968/1024 < 0.9875, so u = 9: [x_(2), x_(9)] = [2, 9].
    @Test func medianIntervalByHand() {
        let ci = QuantileInterval(sorted: (1...10).map(Double.init), quantile: 0.5, confidence: 0.975)
        #expect(ci.estimate == 5 && ci.low == 2 && ci.high == 9 && ci.isBounded)
        // p99 of 80 samples cannot be bounded at 97.5%: 0.99^80 = 0.45 > 0.0125.
        #expect(!QuantileInterval(sorted: (1...80).map(Double.init), quantile: 0.99, confidence: 0.975).isBounded)
        #expect(QuantileInterval(sorted: (1...500).map(Double.init), quantile: 0.99, confidence: 0.975).isBounded)
    }
}

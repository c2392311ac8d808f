import Foundation
import Testing
@testable import PadMetrics

/// Values from scipy.stats.beta.ppf (SciPy 1.17): lo = beta.ppf(0.025, x, n-x+1), hi = beta.ppf(0.975, x+1, n-x).
@Suite struct ClopperPearsonTests {
    @Test(arguments: [
        (3, 100, 0.006229971538306395, 0.08517605297428002),
        (0, 50, 0.0, 0.07112173646419764),
        (50, 50, 0.9288782635358024, 1.0),
        (1, 1, 0.025, 1.0),
        (7, 13, 0.25134548227030357, 0.807767558198712),
    ])
    func matchesScipy(_ x: Int, _ n: Int, _ low: Double, _ high: Double) {
        let interval = ClopperPearson.interval(errors: x, total: n)
        #expect(abs(interval.low - low) < 1e-12)
        #expect(abs(interval.high - high) < 1e-12)
    }

    @Test func zeroErrorsUpperBoundIsNearThreeOverN() {
        // The "rule of three": with no errors in N, the 95% upper bound is about 3/N.
        let high = ClopperPearson.interval(errors: 0, total: 1000).high
        #expect(high > 0.0029 && high < 0.0037)
    }
}

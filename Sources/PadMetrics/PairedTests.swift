import Foundation

/// Exact McNemar test for paired decisions on the same samples (McNemar 1947; exact binomial
/// form, e.g. Fagerland, Lydersen & Laake 2013, BMC Medical Research Methodology 13:91).
///
/// ```swift
/// // 12 attacks accepted now that were rejected before, 2 the other way round:
/// let p = McNemar.oneSidedPValue(worse: 12, better: 2)    // 0.0065
/// ```
/// Only discordant pairs carry information: `worse` samples changed from a correct to a wrong
/// decision, `better` the other way. Under "no change", each of the d = worse + better
/// discordant pairs is worse with probability 1/2, so
/// p = P(X >= worse), X ~ Binomial(d, 1/2) = sum_{k=worse}^{d} C(d, k) / 2^d.
package enum McNemar {
    package static func oneSidedPValue(worse: Int, better: Int) -> Double {
        let d = worse + better
        guard d > 0, worse > 0 else { return 1 }
        var p = 0.0
        for k in worse...d { p += exp(logChoose(d, k) - Double(d) * log(2.0)) }
        return min(1, p)
    }

    static func logChoose(_ n: Int, _ k: Int) -> Double {
        lgamma(Double(n + 1)) - lgamma(Double(k + 1)) - lgamma(Double(n - k + 1))
    }
}

/// Distribution-free confidence interval of a quantile from order statistics (e.g. Conover,
/// Practical Nonparametric Statistics, 3rd ed., section 3.2): with B ~ Binomial(n, q), the sorted
/// sample x_(1) <= ... <= x_(n) gives P(x_(l) <= xi_q <= x_(u)) = P(l <= B <= u - 1).
///
/// ```swift
/// let ci = QuantileInterval(sorted: times, quantile: 0.5, confidence: 0.975)
/// let (median, low, high) = (ci.estimate, ci.low, ci.high)
/// ```
/// l is the largest rank with P(B <= l - 1) <= alpha / 2 and u the smallest with
/// P(B <= u - 1) >= 1 - alpha / 2, clamped to [1, n] (then the coverage is at least the
/// confidence, never less).
package struct QuantileInterval: Sendable, Equatable {
    package var estimate: Double
    package var low: Double
    package var high: Double
    /// False when n is too small for the interval at this confidence (a bound fell outside the
    /// sample and was clamped to its minimum or maximum): e.g. p99 needs n >= 436 at 97.5%,
    /// since below that even the largest sample is not an upper bound with that confidence.
    package var isBounded: Bool

    package init(sorted x: [Double], quantile q: Double, confidence: Double) {
        let n = x.count
        precondition(n > 0, "no samples")
        let alpha = 1 - confidence
        // Nearest-rank estimate (the order statistic at ceil(q n)).
        estimate = x[max(0, min(n - 1, Int((q * Double(n)).rounded(.up)) - 1))]
        // Binomial(n, q) CDF, term by term in log space; after adding pmf(k) it is P(B <= k),
        // the coverage condition of rank k + 1.
        var lowerRank: Int?, upperRank: Int?
        var cdf = 0.0
        let logQ = log(q), log1q = log1p(-q)
        for k in 0...n {
            cdf += exp(McNemar.logChoose(n, k) + Double(k) * logQ + Double(n - k) * log1q)
            if cdf <= alpha / 2 { lowerRank = k + 1 }
            if upperRank == nil && cdf >= 1 - alpha / 2 { upperRank = k + 1 }
        }
        isBounded = lowerRank != nil && (upperRank ?? n + 1) <= n
        let lower = lowerRank ?? 1, upper = min(n, upperRank ?? n)
        low = x[max(0, lower - 1)]
        high = x[max(0, upper - 1)]
    }
}

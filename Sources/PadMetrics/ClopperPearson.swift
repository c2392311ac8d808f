import Foundation

/// A proportion with its counts and exact 95% confidence interval.
///
/// ```swift
/// let apcer = Proportion(errors: 3, total: 100)    // 0.03, CI [0.0062, 0.0852]
/// ```
package struct Proportion: Sendable, Equatable, Codable {
    package var errors: Int
    package var total: Int
    package var confidence: Double

    package init(errors: Int, total: Int, confidence: Double = 0.95) {
        self.errors = errors
        self.total = total
        self.confidence = confidence
    }

    /// errors / total; NaN when total is 0 (no samples: the rate is undefined, not zero).
    package var value: Double { total > 0 ? Double(errors) / Double(total) : .nan }
    package var interval: (low: Double, high: Double) {
        ClopperPearson.interval(errors: errors, total: total, confidence: confidence)
    }

    /// (a + b) / 2 of two proportions as one exact fraction rounded once:
    /// (e_a n_b + e_b n_a) / (2 n_a n_b), so an EER of 17/40 prints `0.425`, where
    /// (17/40 + ... ) / 2 in floating point can give `0.42500000000000004`. Falls back to the
    /// floating-point mean when the products do not fit in 53 bits. NaN when a total is 0.
    package static func mean(_ a: Proportion, _ b: Proportion) -> Double {
        guard a.total > 0, b.total > 0 else { return .nan }
        let limit = 1 << 53
        let (p, o1) = a.errors.multipliedReportingOverflow(by: b.total)
        let (q, o2) = b.errors.multipliedReportingOverflow(by: a.total)
        let (d, o3) = a.total.multipliedReportingOverflow(by: 2 * b.total)
        if !o1 && !o2 && !o3 && p + q < limit && d < limit {
            return Double(p + q) / Double(d)
        }
        return (a.value + b.value) / 2
    }
}

/// Clopper-Pearson ("exact") binomial confidence interval, as bob.measure and ISO/IEC 30107-3
/// reporting practice use: with x errors in n trials and alpha = 1 - confidence,
/// low = BetaInv(alpha/2; x, n - x + 1) (0 when x = 0), high = BetaInv(1 - alpha/2; x + 1, n - x)
/// (1 when x = n). Source: Clopper & Pearson (1934), Biometrika 26(4).
package enum ClopperPearson {
    package static func interval(errors x: Int, total n: Int, confidence: Double = 0.95) -> (low: Double, high: Double)
    {
        guard n > 0 else { return (.nan, .nan) }
        let alpha = 1 - confidence
        let low = x == 0 ? 0 : IncompleteBeta.inverse(alpha / 2, a: Double(x), b: Double(n - x + 1))
        let high = x == n ? 1 : IncompleteBeta.inverse(1 - alpha / 2, a: Double(x + 1), b: Double(n - x))
        return (low, high)
    }
}

/// The regularised incomplete beta function I_x(a, b) and its inverse in x.
/// Continued fraction by the modified Lentz method (Numerical Recipes, 3rd ed., 6.4), using the
/// symmetry I_x(a, b) = 1 - I_{1-x}(b, a) where the fraction converges slowly.
package enum IncompleteBeta {
    package static func regularized(_ x: Double, a: Double, b: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        let logFront = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x)
        if x < (a + 1) / (a + b + 2) {
            return exp(logFront) * continuedFraction(x, a: a, b: b) / a
        }
        return 1 - exp(logFront) * continuedFraction(1 - x, a: b, b: a) / b
    }

    static func continuedFraction(_ x: Double, a: Double, b: Double) -> Double {
        let tiny = 1e-300
        var c = 1.0
        var d = 1 - (a + b) * x / (a + 1)
        if abs(d) < tiny { d = tiny }
        d = 1 / d
        var h = d
        for m in 1...10_000 {
            let m = Double(m)
            let even = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
            d = 1 + even * d; if abs(d) < tiny { d = tiny }
            c = 1 + even / c; if abs(c) < tiny { c = tiny }
            d = 1 / d
            h *= d * c
            let odd = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
            d = 1 + odd * d; if abs(d) < tiny { d = tiny }
            c = 1 + odd / c; if abs(c) < tiny { c = tiny }
            d = 1 / d
            let delta = d * c
            h *= delta
            if abs(delta - 1) < 1e-16 { break }
        }
        return h
    }

    /// The x in [0, 1] with I_x(a, b) = p, by bisection to machine precision (I is increasing in x).
    package static func inverse(_ p: Double, a: Double, b: Double) -> Double {
        var low = 0.0, high = 1.0
        for _ in 0..<200 {
            let mid = (low + high) / 2
            if mid == low || mid == high { break }
            if regularized(mid, a: a, b: b) < p { low = mid } else { high = mid }
        }
        return (low + high) / 2
    }
}

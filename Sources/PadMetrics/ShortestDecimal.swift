import Foundation

/// Thresholds a person can read back: the shortest decimal that gives exactly the same accepted
/// set as the threshold an algorithm computed.
///
/// With "accepted when score >= t", every t in the half-open gap (a, b] between two consecutive
/// distinct scores a < b accepts the same samples on that set. Thresholds chosen by a criterion
/// are bob's exact doubles (``EqualErrorRate``), because a threshold applied to another split must
/// be bob's to give bob's rates there; this type names only the curve's terminal point (the
/// shortest decimal above the highest score, where nothing is accepted).
package enum ShortestDecimal {
    /// The shortest decimal d with a < d <= b, searched first in the middle half of the gap (so a
    /// midpoint stays near the middle), then in the whole gap. `b` may be +inf (above the highest
    /// score): then the shortest decimal above `a` within max(1, |a|) (capped at the largest finite
    /// double; above that only +inf is left). Widths are taken from halves (b / 2 - a / 2), so gaps
    /// wider than the largest double (-1e308 to 1e308) do not overflow.
    package static func between(_ a: Double, _ b: Double) -> Double {
        guard a.isFinite else { return b }
        guard a < b else { return b }
        if a == .greatestFiniteMagnitude { return b }
        let upper = b.isFinite ? b : min(a + max(1, abs(a)), .greatestFiniteMagnitude)
        if b.isFinite {
            let quarter = (upper / 2 - a / 2) / 2
            if let d = shortest(from: a + quarter, to: upper - quarter, strictlyAbove: a, atMost: upper) { return d }
        }
        return shortest(from: a, to: upper, strictlyAbove: a, atMost: upper) ?? (b.isFinite ? b : a.nextUp)
    }

    /// Shortest decimal in [low, high] that is also in (a, b].
    static func shortest(from low: Double, to high: Double, strictlyAbove a: Double, atMost b: Double) -> Double? {
        let middle = low / 2 + high / 2
        guard middle.isFinite else { return nil }
        for digits in 1...17 {
            guard let d = Double(String(format: "%.\(digits - 1)e", middle)), d.isFinite else { continue }
            if d >= low && d <= high && d > a && d <= b { return d }
            // Rounding the middle may fall just outside; try the neighbours at this precision.
            let exponent = d == 0 ? 0 : Int(floor(log10(abs(d))))
            let step = pow(10, Double(exponent - digits + 1))
            for candidate in [d - step, d + step] {
                guard let c = Double(String(format: "%.\(digits - 1)e", candidate)) else { continue }
                if c >= low && c <= high && c > a && c <= b { return c }
            }
        }
        return nil
    }
}

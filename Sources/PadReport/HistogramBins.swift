import Foundation

/// The bins of a score histogram that stays readable on skewed scores: the range is the robust
/// 0.5%-99.5% quantile range of the pooled finite scores (what lies outside is counted in an
/// underflow and an overflow bin, drawn beside the range), and the axis is log or logit when the
/// scores call for it.
///
/// ```swift
/// let bins = HistogramBins(values: [1, 2, 3, 5000], counts: [10, 10, 10, 1])!
/// let axis = bins.axis    // .log10: all positive and max / median = 5000 / 2 > 100
/// ```
/// Rules (checked in this order on the finite scores):
/// - logit, x = ln(s / (1 - s)), when every score is in (0, 1) and at least half of them lie
///   within 0.01 of 0 or of 1 (a classifier's saturated probabilities);
/// - log10 when every score is positive and max / median > 100 (a sharpness or variance measure
///   whose tail spans decades);
/// - linear otherwise.
/// Range: the quantiles q(0.005) and q(0.995) by the nearest rank (the value at rank
/// ceil(p n), 1-based, on the sorted scores), transformed; `count` equal bins between them in the
/// transformed space. When the quantiles coincide (one value carries the range), the range is the
/// whole data; when the data is one value, one unit around it. Underflow: transformed value below
/// the first edge; overflow: above the last edge (the last bin includes its upper edge).
package struct HistogramBins: Sendable, Equatable {
    package enum Axis: String, Sendable { case linear, log10, logit }
    package var axis: Axis
    /// Bin edges in the transformed space, `count + 1` of them.
    package var edges: [Double]
    package var count: Int { edges.count - 1 }
    /// The range's ends in the score's own scale (exact: the quantiles themselves).
    package var lowScore: Double
    package var highScore: Double

    /// `values` sorted ascending, distinct, each seen `counts[k]` times; nil without finite values.
    package init?(values: [Double], counts: [Int], bins: Int = 30) {
        let pairs = zip(values, counts).filter { $0.0.isFinite && $0.1 > 0 }
        let n = pairs.reduce(0) { $0 + $1.1 }
        guard n > 0, bins > 0 else { return nil }
        func quantile(_ p: Double) -> Double {
            let rank = max(1, Int((p * Double(n)).rounded(.up)))
            var seen = 0
            for (v, c) in pairs {
                seen += c
                if seen >= rank { return v }
            }
            return pairs[pairs.count - 1].0
        }
        let lowest = pairs[0].0, highest = pairs[pairs.count - 1].0
        let nearEnds = pairs.filter { $0.0 < 0.01 || $0.0 > 0.99 }.reduce(0) { $0 + $1.1 }
        if lowest > 0 && highest < 1 && 2 * nearEnds >= n {
            axis = .logit
        } else if lowest > 0 && highest / quantile(0.5) > 100 {
            axis = .log10
        } else {
            axis = .linear
        }
        (lowScore, highScore) = (quantile(0.005), quantile(0.995))
        if !(highScore > lowScore) { (lowScore, highScore) = (lowest, highest) }
        if !(highScore > lowScore) && axis == .linear { (lowScore, highScore) = (lowest - 0.5, highest + 0.5) }
        var low = Self.transform(lowScore, axis), high = Self.transform(highScore, axis)
        if !(high > low) { (low, high) = (low - 0.5, high + 0.5) }
        if !(Self.transform(highScore, axis) > Self.transform(lowScore, axis)) {
            (lowScore, highScore) = (Self.inverse(low, axis), Self.inverse(high, axis))
        }
        let width = (high - low) / Double(bins)
        edges = (0...bins).map { $0 == bins ? high : low + width * Double($0) }
    }

    package static func transform(_ v: Double, _ axis: Axis) -> Double {
        switch axis {
        case .linear: return v
        case .log10: return Foundation.log10(v)
        case .logit: return log(v / (1 - v))
        }
    }

    package static func inverse(_ x: Double, _ axis: Axis) -> Double {
        switch axis {
        case .linear: return x
        case .log10: return pow(10, x)
        case .logit: return 1 / (1 + exp(-x))
        }
    }

    /// The bin of a score: -1 underflow, `count` overflow, else 0..<count.
    package func bin(of v: Double) -> Int {
        if v < lowScore { return -1 }
        if v > highScore { return count }
        let x = Self.transform(v, axis)
        return min(count - 1, edges.lastIndex { $0 <= x } ?? 0)
    }

    /// The edges in the score's own scale (for counting on a curve).
    package var scoreEdges: [Double] {
        [lowScore] + edges.dropFirst().dropLast().map { Self.inverse($0, axis) } + [highScore]
    }

    /// The axis title: `score`, `log10(score)`, `logit(score) = ln(s / (1 - s))`.
    package func axisTitle(_ score: String) -> String {
        switch axis {
        case .linear: return score
        case .log10: return "log10(\(score))"
        case .logit: return "logit(\(score)) = ln(s / (1 - s))"
        }
    }
}

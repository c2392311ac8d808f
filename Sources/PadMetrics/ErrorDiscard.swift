import Foundation

/// Error versus discard (EDC) of a quality measure, ISO/IEC 29794-1:2024 (section on EDC)
/// adapted to PAD: the presentations of one class are ordered by a quality output, the
/// lowest-quality fraction is discarded, and the error rate of the PAD decision (made at the
/// profile's fixed threshold, never re-chosen) is computed on the rest. A quality measure that
/// predicts the PAD decision's errors makes the curve fall fast.
///
/// Example: `ErrorDiscardTests.handWorkedBonaFide`
/// in `Tests/PadMetricsTests/ErrorDiscardTests.swift` (compiled and run by `swift test`).
///
/// Conventions (as NIST FATE Quality's and OFIQ's EDC):
/// - Discarding goes by quality threshold t: a presentation is kept when quality >= t, so tied
///   qualities are kept or discarded together and the curve has one point per distinct quality
///   (plus t = -inf, nothing discarded). A quality of NaN (not assessable) is the lowest of all.
/// - discarded fraction f(t) = #(quality < t) / N, over the class's N presentations.
/// - error(t) = max over groups g of errors_g(kept) / n_g(kept): for BPCER one group (bona fide
///   rejected), for APCER_max one group per species (attacks accepted), as ISO/IEC 30107-3's
///   headline; a group with nothing kept takes no part.
/// - ideal(f) = max(0, (e0 − f) / (1 − f)), e0 = error at f = 0: the curve of a quality measure
///   that discards exactly the errors first (ISO/IEC 29794-1's "ideal" / theoretical best EDC;
///   for APCER_max with several species it is the ideal of the pooled rate, an approximation).
/// - Area under a curve up to f = `limit` (0.2 by default, the standard's partial AUC): the step
///   function integrated exactly (each point's error holds until the next point's fraction).
package enum ErrorDiscard {
    package struct Point: Sendable, Equatable {
        /// Fraction of the class's presentations discarded.
        package var discarded: Double
        /// Kept presentations have quality >= this (-inf: all kept).
        package var qualityThreshold: Double
        /// The error rate on the kept presentations (NaN when no group has one kept).
        package var error: Double
        /// Errors and kept presentations of the group attaining the maximum.
        package var errors: Int
        package var kept: Int
        package var ideal: Double
    }

    /// The EDC of one class: `quality[i]`, `group[i]` (0..<groupCount: 0 for bona fide, the
    /// species index for attacks) and `isError[i]` (bona fide rejected, attack accepted). Points up
    /// to `maxDiscard` of the presentations discarded.
    package static func curve(
        quality: [Double], group: [Int32], isError: [Bool], groupCount: Int, maxDiscard: Double = 0.5
    ) -> [Point] {
        let n = quality.count
        guard n > 0 else { return [] }
        // NaN first (lowest quality), then ascending; stable so the result is deterministic.
        // 32-bit positions: the order is the largest array made per quality output.
        let order = (0..<Int32(n)).sorted {
            let a = quality[Int($0)], b = quality[Int($1)]
            if a.isNaN || b.isNaN { return a.isNaN && (!b.isNaN || $0 < $1) }
            return a < b || (a == b && $0 < $1)
        }
        var kept = [Int](repeating: 0, count: groupCount), errors = kept
        for i in 0..<n { kept[Int(group[i])] += 1; if isError[i] { errors[Int(group[i])] += 1 } }
        var points: [Point] = []
        var e0 = Double.nan
        for p in 0...n {
            let discarded = Double(p) / Double(n)
            if discarded > maxDiscard { break }
            let boundary = p == 0 || p == n || !sameQuality(quality[Int(order[p])], quality[Int(order[p - 1])])
            if boundary && p < n {
                var point = worst(kept: kept, errors: errors)
                if p == 0 { e0 = point.error }
                point.discarded = discarded
                point.qualityThreshold = p == 0 ? -.infinity : quality[Int(order[p])]
                point.ideal = e0.isNaN ? .nan : max(0, (e0 - discarded) / (1 - discarded))
                points.append(point)
            }
            if p < n {
                let i = Int(order[p])
                kept[Int(group[i])] -= 1
                if isError[i] { errors[Int(group[i])] -= 1 }
            }
        }
        return points
    }

    static func sameQuality(_ a: Double, _ b: Double) -> Bool { a == b || (a.isNaN && b.isNaN) }

    /// The highest error rate over groups with something kept.
    static func worst(kept: [Int], errors: [Int]) -> Point {
        var best = Point(discarded: 0, qualityThreshold: 0, error: .nan, errors: 0, kept: 0, ideal: .nan)
        for g in kept.indices where kept[g] > 0 {
            let rate = Double(errors[g]) / Double(kept[g])
            if best.error.isNaN || rate > best.error {
                best.error = rate; best.errors = errors[g]; best.kept = kept[g]
            }
        }
        return best
    }

    /// Area under the step curve from f = 0 to `limit` (each point's value until the next
    /// point's fraction, the last until `limit`); NaN when a point before `limit` has no rate.
    package static func area(_ points: [Point], limit: Double = 0.2) -> Double {
        var area = 0.0
        for (k, point) in points.enumerated() where point.discarded < limit {
            let end = min(limit, k + 1 < points.count ? points[k + 1].discarded : limit)
            if point.error.isNaN { return .nan }
            area += point.error * (end - point.discarded)
        }
        return area
    }

    /// Area under the ideal curve max(0, (e0 − f)/(1 − f)) from 0 to `limit`, in closed form:
    /// with F = min(limit, e0), ∫₀^F (1 − (1 − e0)/(1 − f)) df = F + (1 − e0)·ln(1 − F).
    package static func idealArea(e0: Double, limit: Double = 0.2) -> Double {
        guard !e0.isNaN else { return .nan }
        let f = min(limit, e0)
        guard f > 0 else { return 0 }
        return e0 >= 1 ? f : f + (1 - e0) * log1p(-f)
    }

    /// One quality band of ``decileOf(quality:)``: presentations with quality in [low, high]
    /// (`low` NaN: the band of presentations whose quality is not assessable).
    package struct Band: Sendable, Equatable {
        package var decile: Int
        package var low: Double
        package var high: Double
    }

    /// Quality deciles over all `quality` values: band d (1...10) holds the values in
    /// [b_d, b_{d+1}), b_d = the value at sorted position ⌊(d−1)·N/10⌋ (N the assessable values),
    /// the last band closed above; tied values stay in one band, the lowest whose bound they are,
    /// so a band may be empty (left out). NaN values form band 0. Returns the bands present and
    /// each value's decile (0 for NaN): one byte a value, no index list per band.
    package static func decileOf(quality: [Double]) -> (bands: [Band], decile: [UInt8]) {
        var sorted = quality.filter { !$0.isNaN }
        sorted.sort()
        var decile = [UInt8](repeating: 0, count: quality.count)
        var low = [Double](repeating: .infinity, count: 11), high = [Double](repeating: -.infinity, count: 11)
        var used = [Bool](repeating: false, count: 11)
        used[0] = quality.count > sorted.count
        if !sorted.isEmpty {
            let n = sorted.count
            let bounds = (0..<10).map { sorted[$0 * n / 10] }
            for i in quality.indices where !quality[i].isNaN {
                var d = bounds.lastIndex { $0 <= quality[i] }!
                while d > 0 && bounds[d - 1] == bounds[d] { d -= 1 }
                decile[i] = UInt8(d + 1)
                low[d + 1] = min(low[d + 1], quality[i])
                high[d + 1] = max(high[d + 1], quality[i])
                used[d + 1] = true
            }
        }
        let bands = (0...10).filter { used[$0] }.map {
            $0 == 0
                ? Band(decile: 0, low: .nan, high: .nan)
                : Band(decile: $0, low: low[$0], high: high[$0])
        }
        return (bands, decile)
    }
}

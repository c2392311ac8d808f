/// How the frame values of one presentation are combined into the presentation's value (the run's
/// `--aggregate`): the mean by default, as OULU-NPU (Boulkenafet et al., FG 2017) and bob.pad users
/// do with per-frame scores of one video; the median, minimum or maximum on request. Frames whose
/// value is not assessable (NaN) are left out; with none left the value is NaN.
package enum FrameAggregate: String, Sendable, CaseIterable {
    case mean, median, min, max

    /// The aggregate of the assessable (non-NaN) values; NaN when there are none. The median of
    /// an even count is the mean of the two middle values (numpy's `median`).
    package func combine(_ values: [Double]) -> Double {
        if case .mean = self {
            // Summed in frame order, as numpy's mean of a short row (pairwise summation only
            // differs past 8 values by rounding; tests hold both to 1e-12); no copy of the
            // assessable values (a million presentations).
            var sum = 0.0, n = 0
            for v in values where !v.isNaN {
                sum += v
                n += 1
            }
            return n == 0 ? .nan : sum / Double(n)
        }
        let assessable = values.filter { !$0.isNaN }
        guard !assessable.isEmpty else { return .nan }
        switch self {
        case .mean:
            return assessable.reduce(0, +) / Double(assessable.count)
        case .median:
            let sorted = assessable.sorted()
            let m = sorted.count / 2
            return sorted.count % 2 == 1 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2
        case .min: return assessable.min()!
        case .max: return assessable.max()!
        }
    }
}

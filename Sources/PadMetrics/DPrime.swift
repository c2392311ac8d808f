/// The decidability index d' (sensitivity index) between bona fide and attack scores, as pyeer
/// 0.5.6 computes it (`pyeer.eer_info.get_eer_stats`, `pyeer.eer_stats.get_decidability_value`;
/// the measure of the NICE:II iris evaluation, Daugman's d'):
///
///     d' = |mean_bf - mean_att| / sqrt((std_bf^2 + std_att^2) / 2)
///
/// ```swift
/// let d = DecidabilityIndex(bonaFide: [0.8, 0.6], attacks: [0.3, 0.1]).value  // 5 (to rounding)
/// ```
/// - Standard deviations are population ones (divisor n, not n - 1): pyeer calls `np.std` with
///   its default `ddof=0`. Means and deviations are computed as NumPy does (sum / n; then the
///   deviations from that mean squared, summed, / n, square root), summed in order, where NumPy
///   sums pairwise: the two agree to rounding.
/// - When both deviations are 0, pyeer returns 1 (not +inf or NaN), and so does this.
/// - NaN scores (failures to process) are dropped first; pyeer has no such rule (its `np.mean`
///   would make d' NaN). Samples rejected at every threshold
///   (``ScoreSet/appendRejectedAtEveryThreshold(species:)``) have no score and are not counted.
/// - A class with no score gives NaN (NumPy's mean of nothing).
/// - pyeer's genuine class is bona fide, its impostor class every attack species pooled.
package struct DecidabilityIndex: Sendable, Equatable {
    package let bonaFideCount: Int
    package let attackCount: Int
    package let bonaFideMean: Double
    package let bonaFideStandardDeviation: Double
    package let attackMean: Double
    package let attackStandardDeviation: Double
    /// d'.
    package let value: Double

    package init(bonaFide: [Double], attacks: [Double]) {
        let bonaFideScores = bonaFide.filter { !$0.isNaN }, attackScores = attacks.filter { !$0.isNaN }
        bonaFideCount = bonaFideScores.count
        attackCount = attackScores.count
        (bonaFideMean, bonaFideStandardDeviation) = Self.meanAndStandardDeviation(bonaFideScores)
        (attackMean, attackStandardDeviation) = Self.meanAndStandardDeviation(attackScores)
        if bonaFideStandardDeviation == 0 && attackStandardDeviation == 0 {
            value = 1
        } else {
            let pooledVariance =
                0.5
                * (bonaFideStandardDeviation * bonaFideStandardDeviation
                    + attackStandardDeviation * attackStandardDeviation)
            value = abs(bonaFideMean - attackMean) / pooledVariance.squareRoot()
        }
    }

    /// Bona fide against every attack of the set, pooled over species.
    package init(_ set: ScoreSet) {
        var bonaFide: [Double] = [], attacks: [Double] = []
        for i in 0..<set.count {
            if set.isBonaFide(i) { bonaFide.append(set.scores[i]) } else { attacks.append(set.scores[i]) }
        }
        self.init(bonaFide: bonaFide, attacks: attacks)
    }

    /// NumPy's `np.mean(x)` and `np.std(x)` (ddof 0): NaN for no values.
    static func meanAndStandardDeviation(_ values: [Double]) -> (mean: Double, standardDeviation: Double) {
        guard !values.isEmpty else { return (.nan, .nan) }
        let n = Double(values.count)
        let mean = values.reduce(0, +) / n
        let squares = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        return (mean, (squares / n).squareRoot())
    }
}

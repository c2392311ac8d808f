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
        let bf = Self.meanAndStandardDeviation(bonaFideScores), att = Self.meanAndStandardDeviation(attackScores)
        self.init(
            bonaFideCount: bonaFideScores.count, bonaFide: bf, attackCount: attackScores.count, attacks: att)
    }

    /// d' of the classes' counts, means and population standard deviations.
    init(
        bonaFideCount: Int, bonaFide: (mean: Double, standardDeviation: Double), attackCount: Int,
        attacks: (mean: Double, standardDeviation: Double)
    ) {
        self.bonaFideCount = bonaFideCount
        self.attackCount = attackCount
        (bonaFideMean, bonaFideStandardDeviation) = bonaFide
        (attackMean, attackStandardDeviation) = attacks
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

    /// The same from the set's ``ErrorCurve``, without its scores: each distinct score (a curve
    /// point's threshold) added as many times as each class has samples there, in ascending order
    /// of score. The value then depends on the scores alone, not on the order of the samples (a
    /// run and the merge of its shards give the same bits), and costs no second sort. Samples
    /// rejected at every threshold are no point's and are not counted; NaN scores are not in the
    /// curve. Equal to the value from the set's scores to rounding (the sums run in another order).
    package init(_ curve: ErrorCurve) {
        let points = curve.count
        // Samples at point k: bona fide rejected at k + 1 but not at k; attacks accepted at k but not at k + 1.
        let bf = Self.meanAndStandardDeviation(curve.thresholds) { k in
            (k + 1 < points ? curve.bonaFideRejected[k + 1] : curve.bonaFideCount) - curve.bonaFideRejected[k]
        }
        let att = Self.meanAndStandardDeviation(curve.thresholds) { k in
            curve.pooledAccepted[k] - (k + 1 < points ? curve.pooledAccepted[k + 1] : 0)
        }
        self.init(bonaFideCount: bf.count, bonaFide: bf.moments, attackCount: att.count, attacks: att.moments)
    }

    /// Mean and population standard deviation of `values[k]` taken `count(k)` times each, summed
    /// in order as NumPy's formulas over the values listed out (NaN for no values).
    static func meanAndStandardDeviation(_ values: [Double], count: (Int) -> Int)
        -> (count: Int, moments: (mean: Double, standardDeviation: Double))
    {
        var n = 0, sum = 0.0
        for k in values.indices {
            for _ in 0..<count(k) { sum += values[k] }
            n += count(k)
        }
        guard n > 0 else { return (0, (.nan, .nan)) }
        let mean = sum / Double(n)
        var squares = 0.0
        for k in values.indices {
            let d = values[k] - mean
            for _ in 0..<count(k) { squares += d * d }
        }
        return (n, (mean, (squares / Double(n)).squareRoot()))
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

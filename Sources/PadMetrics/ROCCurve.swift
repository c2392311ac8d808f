/// The ROC curve of a score set, point for point as scikit-learn's
/// `sklearn.metrics.roc_curve(y_true, y_score, drop_intermediate=...)` returns it, with bona fide
/// as the positive class (`y_true = 1`) and every attack species pooled as the negative class.
///
/// ```swift
/// let roc = try ROCCurve(try ErrorCurve(set), dropIntermediate: false)
/// for point in roc.points { print(point.falsePositiveRate, point.truePositiveRate, point.threshold) }
/// let auc = roc.area  // sklearn.metrics.roc_auc_score
/// ```
/// At threshold t (accepted when score >= t, padbench's and scikit-learn's rule):
/// - false positive rate = attacks with score >= t / processed attacks = pooled APCER(t);
/// - true positive rate = bona fide with score >= t / processed bona fide = 1 - BPCER(t).
///
/// The points are the ``ErrorCurve``'s points read from the highest threshold down, after one
/// point added first, as scikit-learn adds it: (0, 0) at threshold +inf, where nothing is
/// accepted (scikit-learn's documented convention; ``ErrorCurve`` puts that point at the shortest
/// decimal above the highest score instead, so the two differ in that one threshold only). Each
/// further threshold is a distinct processed score, the exact double. NaN scores (failures to
/// process) have no point and are left out of both rates, as they must be left out of scikit-learn's
/// input. Samples of the set rejected at every threshold
/// (``ScoreSet/appendRejectedAtEveryThreshold(species:)``) count in the denominators and are read
/// as scoring below every score: one last point (1, 1) at threshold -inf, the point scikit-learn
/// gives a score below all others. scikit-learn refuses infinite scores; here a +inf score is a
/// point like any other, after the first point at +inf.
///
/// `dropIntermediate` (scikit-learn's default, true) keeps the first and the last of the score
/// points and every point where the counts of false or true positives bend: where
/// `fps[i - 1] - 2 fps[i] + fps[i + 1]` or the same of `tps` is not 0 (scikit-learn's
/// `np.diff(fps, 2)`, on counts before the point at +inf is added). The dropped points lie on the
/// segment between their neighbours, so the area is the same with or without them.
package struct ROCCurve: Sendable, Equatable {
    package struct Point: Sendable, Equatable {
        /// Pooled APCER at the threshold (scikit-learn's `fpr`).
        package let falsePositiveRate: Double
        /// 1 - BPCER at the threshold (scikit-learn's `tpr`), computed as accepted / total, as
        /// scikit-learn divides, not as 1 - rejected / total (which can differ in the last bit).
        package let truePositiveRate: Double
        package let threshold: Double
    }

    package let points: [Point]

    /// - Throws: ``MetricsError/noBonaFide`` or ``MetricsError/noAttacks`` when a class has no
    ///   processed sample (scikit-learn returns NaN rates with a warning there).
    package init(_ curve: ErrorCurve, dropIntermediate: Bool = true) throws(MetricsError) {
        try curve.requireBothClasses()
        let bonaFide = curve.bonaFideCount, attacks = curve.attackCount
        // Score points only: the terminal point (nothing accepted) is scikit-learn's point at +inf.
        let highestScorePoint = curve.hasTerminalPoint ? curve.count - 2 : curve.count - 1
        var falsePositives: [Int] = [], truePositives: [Int] = [], thresholds: [Double] = []
        for k in stride(from: highestScorePoint, through: 0, by: -1) {
            falsePositives.append(curve.pooledAccepted[k])
            truePositives.append(bonaFide - curve.bonaFideRejected[k])
            thresholds.append(curve.thresholds[k])
        }
        // At the lowest score every scored sample is accepted; the rest are rejected at every threshold.
        if truePositives.last! < bonaFide || falsePositives.last! < attacks {
            falsePositives.append(attacks)
            truePositives.append(bonaFide)
            thresholds.append(-.infinity)
        }
        var kept = Array(falsePositives.indices)
        if dropIntermediate && falsePositives.count > 2 {
            func bends(_ counts: [Int], _ i: Int) -> Bool { counts[i - 1] - 2 * counts[i] + counts[i + 1] != 0 }
            let last = falsePositives.count - 1
            kept = [0] + (1..<last).filter { bends(falsePositives, $0) || bends(truePositives, $0) } + [last]
        }
        points =
            [Point(falsePositiveRate: 0, truePositiveRate: 0, threshold: .infinity)]
            + kept.map {
                Point(
                    falsePositiveRate: Double(falsePositives[$0]) / Double(attacks),
                    truePositiveRate: Double(truePositives[$0]) / Double(bonaFide), threshold: thresholds[$0])
            }
    }

    /// The ROC of a score set (one sort and sweep, ``ErrorCurve/init(_:)``).
    package init(_ set: ScoreSet, dropIntermediate: Bool = true) throws(MetricsError) {
        try self.init(try ErrorCurve(set), dropIntermediate: dropIntermediate)
    }

    /// Area under the curve by the trapezoidal rule, sum of (x[i+1] - x[i]) (y[i+1] + y[i]) / 2
    /// over consecutive points, as `sklearn.metrics.auc` (numpy's `trapezoid`) computes
    /// `roc_auc_score`. It equals ``areaUnderROC(_:)`` (the Mann-Whitney count: P(bona fide >
    /// attack) + P(equal) / 2) up to rounding: a tie run of a attacks and b bona fide at one
    /// threshold is a segment of width a / n_att and mean height (tps before + b / 2) / n_bf.
    package var area: Double {
        var sum = 0.0
        for i in 1..<points.count {
            let (a, b) = (points[i - 1], points[i])
            sum += (b.falsePositiveRate - a.falsePositiveRate) * (b.truePositiveRate + a.truePositiveRate) / 2
        }
        return sum
    }
}

/// The equal error rate by bob.measure's rule (`eer_threshold`): sweep candidate thresholds from
/// the lowest score upwards, at midpoints between consecutive distinct scores, until every attack
/// or every bona fide presentation is rejected; choose the candidate minimising
/// |APCER_max - BPCER| (the last one on ties, as bob's `<=`), and report the EER as the mean of the
/// two rates there, with both rates.
///
/// ```swift
/// let eer = try EqualErrorRate(try ErrorCurve(set))
/// print(eer.threshold, eer.value, eer.apcerMax, eer.bpcer)
/// ```
/// With one attack species APCER_max is bob's FAR, so threshold and rates equal bob.measure's;
/// with several, padbench uses APCER_max (ISO/IEC 30107-3 reports the worst species) where
/// bob.pad.base pools all attacks. `minHTERThreshold` minimises (APCER_max + BPCER) / 2 over the
/// same candidates (bob.measure `min_hter_threshold`).
public struct EqualErrorRate: Sendable {
    public let threshold: Double
    public let apcerMax: Double
    public let bpcer: Double
    public var value: Double { (apcerMax + bpcer) / 2 }
    public let minHTERThreshold: Double

    /// - Throws: ``MetricsError/noBonaFide`` or ``MetricsError/noAttacks`` for a one-class set.
    public init(_ curve: ErrorCurve) throws(MetricsError) {
        try curve.requireBothClasses()
        let (bestPoint, bestHTERPoint) = Self.sweep(curve)
        threshold = Self.candidate(curve, bestPoint)
        minHTERThreshold = Self.candidate(curve, bestHTERPoint)
        apcerMax = curve.apcerMax(bestPoint).value
        bpcer = curve.bpcer(bestPoint)
    }

    /// The points minimising |APCER_max - BPCER| and the HTER (the last one on ties), by bob's
    /// running sums. The curve's arrays are read through buffer pointers: ten million points,
    /// each touching a few of them (the same operations in the same order as indexing them).
    static func sweep(_ curve: ErrorCurve) -> (eer: Int, minHTER: Int) {
        var bestDifference = Double.infinity, bestPoint = 0
        var bestHTER = Double.infinity, bestHTERPoint = 0
        // Running rates kept as bob keeps them: far starts at 1 and loses 1/n per attack passed,
        // frr starts at 0 and gains 1/n per bona fide passed. Exact ties between candidates are then
        // broken by the same floating-point sums as bob's, so thresholds equal bob's exactly.
        // Samples rejected at every threshold (another gate failed) start far below 1 and frr above 0.
        let speciesCount = curve.attackCounts.count, points = curve.count
        let farDecrease = curve.attackCounts.map { $0 > 0 ? 1.0 / Double($0) : 0 }
        var far = (0..<speciesCount).map { s in
            curve.accepted(s, 0) == curve.attackCounts[s]
                ? 1.0 : Double(curve.accepted(s, 0)) / Double(max(1, curve.attackCounts[s]))
        }
        let frrIncrease = 1.0 / Double(curve.bonaFideCount), bonaFideCount = curve.bonaFideCount
        var frr = curve.bonaFideRejected[0] == 0 ? 0.0 : Double(curve.bonaFideRejected[0]) / Double(curve.bonaFideCount)
        let measured = curve.attackCounts.map { $0 > 0 }
        // Attacks passed between points k - 1 and k, species by species, read from each species'
        // steps with a cursor (one species: from the pooled counts).
        var passes = PassedAttacks(curve)
        curve.bonaFideRejected.withUnsafeBufferPointer { rejected in
            curve.pooledAccepted.withUnsafeBufferPointer { pooled in
                far.withUnsafeMutableBufferPointer { far in
                    var k = 0
                    while k < points {
                        if k > 0 {
                            for s in 0..<speciesCount {
                                let passed = passes.passed(s, at: k)
                                for _ in 0..<passed { far[s] -= farDecrease[s] }
                            }
                            for _ in 0..<(rejected[k] - rejected[k - 1]) { frr += frrIncrease }
                        }
                        var apcer = -Double.infinity
                        for s in 0..<speciesCount where measured[s] { apcer = max(apcer, far[s]) }
                        let difference = abs(apcer - frr)
                        if difference <= bestDifference {
                            bestDifference = difference
                            bestPoint = k
                        }
                        let hter = 0.5 * apcer + 0.5 * frr
                        if hter <= bestHTER {
                            bestHTER = hter
                            bestHTERPoint = k
                        }
                        // bob stops once one class is entirely rejected.
                        if pooled[k] == 0 || rejected[k] == bonaFideCount { break }
                        k += 1
                    }
                }
            }
        }
        return (bestPoint, bestHTERPoint)
    }

    /// bob's candidate for point k: the lowest score for k = 0, otherwise a threshold between the
    /// scores of points k - 1 and k (the shortest decimal near their midpoint: same accepted set).
    static func candidate(_ curve: ErrorCurve, _ k: Int) -> Double {
        if k == 0 { return curve.thresholds[0] }
        if curve.hasTerminalPoint && k == curve.count - 1 { return curve.thresholds[k] }
        return ShortestDecimal.between(curve.thresholds[k - 1], curve.thresholds[k])
    }
}

/// Attacks of each species passed between consecutive points of a curve, read in point order:
/// one cursor per species into its steps (``ErrorCurve/accepted(_:_:)`` without a search).
struct PassedAttacks {
    let curve: ErrorCurve
    var cursor: [Int]

    init(_ curve: ErrorCurve) {
        self.curve = curve
        cursor = curve.attackCounts.count > 1 ? Array(curve.stepStarts.dropLast()) : []
    }

    /// Attacks of species s accepted at point k - 1 but not at k; k must not decrease between calls.
    mutating func passed(_ s: Int, at k: Int) -> Int {
        if cursor.isEmpty { return curve.pooledAccepted[k - 1] - curve.pooledAccepted[k] }
        var j = cursor[s], passed = 0
        let end = curve.stepStarts[s + 1]
        while j + 1 < end && curve.stepPoints[j + 1] <= k {
            if curve.stepPoints[j + 1] == k { passed = curve.stepAccepted[j] - curve.stepAccepted[j + 1] }
            j += 1
        }
        cursor[s] = j
        return passed
    }
}

/// Area under the ROC curve with bona fide as the positive class and all attacks pooled:
/// P(bona fide score > attack score) + P(equal) / 2 (Mann-Whitney U / (n_bf n_att)); equals
/// scikit-learn's `roc_auc_score` with the trapezoidal rule on tied scores. Infinite scores count
/// like any other (+inf above every finite score); a sample rejected at every threshold counts
/// as scoring below every score. NaN for a one-class set.
public func areaUnderROC(_ curve: ErrorCurve) -> Double {
    guard curve.hasBonaFide && curve.hasAttacks else { return .nan }
    // Samples rejected at every threshold sit below the lowest point: ties among them count half.
    let heldBonaFide = Double(curve.bonaFideRejected[0])
    let heldAttacks = Double(curve.attackCount - curve.pooledAccepted[0])
    var sum = heldBonaFide * heldAttacks / 2
    for k in 0..<curve.count {
        let bonaFideHere = Double(curve.bonaFideRejectedAfter(k) - curve.bonaFideRejected[k])
        guard bonaFideHere > 0 else { continue }
        let attacksBelow = Double(curve.attackCount - curve.pooledAccepted[k])
        let attacksEqual = Double(curve.pooledAccepted[k] - curve.pooledAcceptedAfter(k))
        sum += bonaFideHere * (attacksBelow + attacksEqual / 2)
    }
    return sum / (Double(curve.bonaFideCount) * Double(curve.attackCount))
}

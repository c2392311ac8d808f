/// The equal error rate by bob.measure's rule (`eer_threshold`): sweep candidate thresholds from
/// the lowest score upwards, at midpoints between consecutive distinct scores, until every attack
/// or every bona fide presentation is rejected; choose the candidate minimising
/// |APCER_max - BPCER| (the last one on ties, as bob's `<=`), and report the EER as the mean of the
/// two rates there, with both rates.
///
/// ```swift
/// let eer = EqualErrorRate(try ErrorCurve(set))
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

    public init(_ curve: ErrorCurve) {
        var bestDifference = Double.infinity, bestThreshold = curve.thresholds[0]
        var bestHTER = Double.infinity, bestHTERThreshold = curve.thresholds[0]
        // Running rates kept as bob keeps them: far starts at 1 and loses 1/n per attack passed,
        // frr starts at 0 and gains 1/n per bona fide passed. Exact ties between candidates are then
        // broken by the same floating-point sums as bob's, so thresholds equal bob's exactly.
        let speciesCount = curve.attackCounts.count
        var far = [Double](repeating: 1, count: speciesCount)
        let farDecrease = curve.attackCounts.map { $0 > 0 ? 1.0 / Double($0) : 0 }
        var frr = 0.0
        let frrIncrease = 1.0 / Double(curve.bonaFideCount)
        var k = 0
        while k < curve.count {
            let threshold: Double
            if k == 0 {
                threshold = curve.thresholds[0]
            } else {
                threshold = curve.thresholds[k].isFinite ? (curve.thresholds[k - 1] + curve.thresholds[k]) / 2 : curve.thresholds[k - 1]
                for s in 0..<speciesCount {
                    for _ in 0..<(curve.accepted(s, k - 1) - curve.accepted(s, k)) { far[s] -= farDecrease[s] }
                }
                for _ in 0..<(curve.bonaFideRejected[k] - curve.bonaFideRejected[k - 1]) { frr += frrIncrease }
            }
            var apcer = -Double.infinity
            for s in 0..<speciesCount where curve.attackCounts[s] > 0 { apcer = max(apcer, far[s]) }
            let difference = abs(apcer - frr)
            if difference <= bestDifference {
                bestDifference = difference
                bestThreshold = threshold
            }
            let hter = 0.5 * apcer + 0.5 * frr
            if hter <= bestHTER {
                bestHTER = hter
                bestHTERThreshold = threshold
            }
            // bob stops once one class is entirely rejected.
            if curve.pooledAccepted[k] == 0 || curve.bonaFideRejected[k] == curve.bonaFideCount { break }
            k += 1
        }
        threshold = bestThreshold
        minHTERThreshold = bestHTERThreshold
        let point = curve.pointIndex(for: bestThreshold)
        apcerMax = curve.apcerMax(point).value
        bpcer = curve.bpcer(point)
    }
}

/// Area under the ROC curve with bona fide as the positive class and all attacks pooled:
/// P(bona fide score > attack score) + P(equal) / 2 (Mann-Whitney U / (n_bf n_att)); equals
/// scikit-learn's `roc_auc_score` with the trapezoidal rule on tied scores.
public func areaUnderROC(_ curve: ErrorCurve) -> Double {
    var sum = 0.0
    for k in 0..<(curve.count - 1) {
        let bonaFideHere = Double(curve.bonaFideRejected[k + 1] - curve.bonaFideRejected[k])
        guard bonaFideHere > 0 else { continue }
        let attacksBelow = Double(curve.attackCount - curve.pooledAccepted[k])
        let attacksEqual = Double(curve.pooledAccepted[k] - curve.pooledAccepted[k + 1])
        sum += bonaFideHere * (attacksBelow + attacksEqual / 2)
    }
    return sum / (Double(curve.bonaFideCount) * Double(curve.attackCount))
}

/// The equal error rate by bob.measure's rule (`eer_threshold`): sweep candidate thresholds from
/// the lowest score upwards, at midpoints between consecutive distinct scores, until every attack
/// or every bona fide presentation is rejected; choose the candidate minimising
/// |APCER_max - BPCER| (the last one on ties, as bob's `<=`; the state after the last score is
/// compared with `<`, as bob's final check), and report the EER as the mean of the two rates at
/// that threshold (bob.measure `eer`: `farfrr` at `eer_threshold`, then (far + frr) / 2), with both
/// rates.
///
/// ```swift
/// let eer = try EqualErrorRate(try ErrorCurve(set))
/// let (threshold, rate) = (eer.threshold, eer.value)    // rate = (APCER_max + BPCER) / 2 there
/// ```
/// The threshold is bob's exact double, (a + b) / 2 for consecutive distinct scores a < b (bob's
/// `current_threshold += next; current_threshold /= 2`): any value in (a, b] gives the same rates on
/// the set it was chosen on, but only bob's value gives bob's rates on another set (a dev threshold
/// applied to eval). Where a + b overflows (1e308 and 1.5e308) bob's midpoint is +inf; padbench
/// takes a / 2 + b / 2 there, which stays in the gap.
/// With one attack species APCER_max is bob's FAR, so threshold and rates equal bob.measure's;
/// with several, padbench uses APCER_max (ISO/IEC 30107-3 reports the worst species) where
/// bob.pad.base pools all attacks. `minHTERThreshold` minimises (APCER_max + BPCER) / 2 over the
/// same candidates (bob.measure `min_hter_threshold`).
/// The EER is computed from counts as one exact fraction rounded once:
/// (e_a n_b + e_b n_a) / (2 n_a n_b) for APCER_max = e_a / n_a and BPCER = e_b / n_b.
package struct EqualErrorRate: Sendable {
    package let threshold: Double
    package let apcerMax: Double
    package let bpcer: Double
    /// The rates at the threshold as counts (APCER_max's species, and bona fide).
    package let apcerMaxCount: Proportion
    package let bpcerCount: Proportion
    package var value: Double { Proportion.mean(apcerMaxCount, bpcerCount) }
    package let minHTERThreshold: Double

    /// - Throws: ``MetricsError/noBonaFide`` or ``MetricsError/noAttacks`` for a one-class set.
    package init(_ curve: ErrorCurve) throws(MetricsError) {
        try curve.requireBothClasses()
        let (bestPoint, bestHTERPoint) = Self.sweep(curve)
        threshold = Self.candidate(curve, bestPoint)
        minHTERThreshold = Self.candidate(curve, bestHTERPoint)
        let k = curve.pointIndex(for: threshold)
        let (_, species) = curve.apcerMax(k)
        apcerMaxCount = Proportion(errors: curve.accepted(species, k), total: curve.attackCounts[species])
        bpcerCount = Proportion(errors: curve.bonaFideRejected[k], total: curve.bonaFideCount)
        apcerMax = apcerMaxCount.value
        bpcer = bpcerCount.value
    }

    /// The EER of bona fide against one group of attacks: all attacks pooled (`pooled:`,
    /// bob.pad.base's rule, which feeds every attack to bob.measure's `eer_threshold` as one
    /// negative class; `--eer-rule pooled`), or one species alone (`species:`, per_species.csv).
    /// The sweep visits only the scores of bona fide and of the group, so the candidates are bob's
    /// midpoints between consecutive distinct scores of the two.
    package init(pooled curve: ErrorCurve) throws(MetricsError) {
        try curve.requireBothClasses()
        self.init(curve, group: nil)
    }

    /// - Throws: ``MetricsError/noAttacks`` when the species has no processed attack.
    package init(_ curve: ErrorCurve, species s: Int) throws(MetricsError) {
        try curve.requireBothClasses()
        guard curve.attackCounts[s] > 0 else { throw .noAttacks }
        self.init(curve, group: s)
    }

    /// One attack group (nil = all attacks pooled, else species s).
    init(_ curve: ErrorCurve, group: Int?) {
        let count = group.map { curve.attackCounts[$0] } ?? curve.attackCount
        let (eerT, hterT): (Double, Double)
        if let s = group, curve.attackCounts.count > 1 {
            var steps = SpeciesAccepted(curve, species: s)
            (eerT, hterT) = Self.sweep(curve, accepted: &steps, count: count)
        } else {
            var pooled = PooledAccepted(curve)
            (eerT, hterT) = Self.sweep(curve, accepted: &pooled, count: count)
        }
        threshold = eerT
        minHTERThreshold = hterT
        let k = curve.pointIndex(for: eerT)
        apcerMaxCount = Proportion(errors: group.map { curve.accepted($0, k) } ?? curve.pooledAccepted[k], total: count)
        bpcerCount = Proportion(errors: curve.bonaFideRejected[k], total: curve.bonaFideCount)
        apcerMax = apcerMaxCount.value
        bpcer = bpcerCount.value
    }

    /// ``sweep(_:accepted:count:)`` with the group's counts given by a function (tests compare it
    /// with counts made by brute force).
    static func sweep(_ curve: ErrorCurve, accepted: (Int) -> Int, count: Int) -> (eer: Double, minHTER: Double) {
        withoutActuallyEscaping(accepted) { accepted in
            var counts = FunctionAccepted(function: accepted)
            return sweep(curve, accepted: &counts, count: count)
        }
    }

    /// bob.measure's `minimizingThreshold` over bona fide and one attack group (accepted(k) of
    /// `count`): the EER and min-HTER thresholds, with bob's running sums and tie rules. The
    /// group's counts are read at points k and k + 1 with k rising (``GroupAccepted``), so the
    /// sweep is one pass over the points and the group's steps.
    static func sweep<Counts: GroupAccepted>(_ curve: ErrorCurve, accepted counts: inout Counts, count: Int)
        -> (eer: Double, minHTER: Double)
    {
        let bonaFide = curve.bonaFideCount, points = curve.count
        return curve.bonaFideRejected.withUnsafeBufferPointer { rejectedAt in
            func rejected(_ k: Int) -> Int { k < points ? rejectedAt[k] : bonaFide }
            func accepted(_ k: Int) -> Int { counts.at(k) }
            // Point k holds a score of bona fide or of the group.
            func relevant(_ k: Int) -> Bool { rejected(k + 1) > rejected(k) || accepted(k) > accepted(k + 1) }
            var k = 0
            while k < points - 1 && !relevant(k) { k += 1 }
            var far = accepted(k) == count ? 1.0 : Double(accepted(k)) / Double(count)
            var frr = rejected(k) == 0 ? 0.0 : Double(rejected(k)) / Double(bonaFide)
            let decrease = 1.0 / Double(count), increase = 1.0 / Double(bonaFide)
            var candidate = curve.thresholds[k]
            var best = (difference: Double.infinity, eer: candidate, hter: Double.infinity, minHTER: candidate)
            while true {
                let last = accepted(k) == 0 || rejected(k) == bonaFide
                let difference = abs(far - frr), hter = 0.5 * far + 0.5 * frr
                if difference < best.difference || (!last && difference == best.difference) {
                    best.difference = difference; best.eer = candidate
                }
                if hter < best.hter || (!last && hter == best.hter) { best.hter = hter; best.minHTER = candidate }
                if last || k >= points - 1 { break }
                for _ in 0..<(accepted(k) - accepted(k + 1)) { far -= decrease }
                for _ in 0..<(rejected(k + 1) - rejected(k)) { frr += increase }
                let score = curve.thresholds[k]
                k += 1
                while k < points - 1 && !relevant(k) { k += 1 }
                // Both lists ended on `score`: bob keeps it; otherwise the midpoint to the next score.
                candidate = relevant(k) ? midpoint(score, curve.thresholds[k]) : score
            }
            return (best.eer, best.minHTER)
        }
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
                        // bob compares the state after its last score with `<`, every other with `<=`.
                        let last = pooled[k] == 0 || rejected[k] == bonaFideCount
                        let difference = abs(apcer - frr)
                        if difference < bestDifference || (!last && difference == bestDifference) {
                            bestDifference = difference
                            bestPoint = k
                        }
                        let hter = 0.5 * apcer + 0.5 * frr
                        if hter < bestHTER || (!last && hter == bestHTER) {
                            bestHTER = hter
                            bestHTERPoint = k
                        }
                        // bob stops once one class is entirely rejected.
                        if last { break }
                        k += 1
                    }
                }
            }
        }
        return (bestPoint, bestHTERPoint)
    }

    /// bob's candidate for point k: the lowest score for k = 0; bob's midpoint (a + b) / 2 of the
    /// scores of points k - 1 and k otherwise; past the highest score (the terminal point, reached
    /// when both classes end on the same score) bob keeps that last score itself.
    static func candidate(_ curve: ErrorCurve, _ k: Int) -> Double {
        if k == 0 { return curve.thresholds[0] }
        if curve.hasTerminalPoint && k == curve.count - 1 { return curve.thresholds[k - 1] }
        return midpoint(curve.thresholds[k - 1], curve.thresholds[k])
    }

    /// bob's midpoint (a + b) / 2; a / 2 + b / 2 where a + b overflows (bob's would be +inf, above
    /// every score).
    package static func midpoint(_ a: Double, _ b: Double) -> Double {
        let m = (a + b) / 2
        return m.isFinite || !a.isFinite || !b.isFinite ? m : a / 2 + b / 2
    }
}

/// One attack group's accepted counts as ``EqualErrorRate``'s group sweep reads them: at point k
/// (0 past the last point), for k rising with a step back now and then (k + 1, then k again).
protocol GroupAccepted {
    mutating func at(_ k: Int) -> Int
}

/// All attacks pooled: the curve's pooled counts.
struct PooledAccepted: GroupAccepted {
    let pooled: [Int]
    init(_ curve: ErrorCurve) { pooled = curve.pooledAccepted }
    @inline(__always)
    mutating func at(_ k: Int) -> Int { k < pooled.count ? pooled[k] : 0 }
}

/// One species of two or more: a cursor in its steps that moves a step at a time either way
/// (``ErrorCurve/accepted(_:at:)`` without its checks per call), so the whole sweep costs
/// O(points + steps) with no search.
struct SpeciesAccepted: GroupAccepted {
    let stepPoints: [Int]
    let stepAccepted: [Int]
    let first: Int
    let end: Int
    let points: Int
    var step: Int

    init(_ curve: ErrorCurve, species s: Int) {
        (stepPoints, stepAccepted, points) = (curve.stepPoints, curve.stepAccepted, curve.count)
        (first, end) = (curve.stepStarts[s], curve.stepStarts[s + 1])
        step = first
    }

    @inline(__always)
    mutating func at(_ k: Int) -> Int {
        guard k < points else { return 0 }
        while step > first && stepPoints[step] > k { step -= 1 }
        while step + 1 < end && stepPoints[step + 1] <= k { step += 1 }
        return stepAccepted[step]
    }
}

/// Counts from a function (tests: counts made by brute force).
struct FunctionAccepted: GroupAccepted {
    let function: (Int) -> Int
    mutating func at(_ k: Int) -> Int { function(k) }
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
package func areaUnderROC(_ curve: ErrorCurve) -> Double {
    guard curve.hasBonaFide && curve.hasAttacks else { return .nan }
    var pooled = PooledAccepted(curve)
    return areaUnderROC(curve, accepted: &pooled, count: curve.attackCount)
}

/// The sum behind both AUCs: bona fide against the attack group whose accepted counts `accepted`
/// reads (at k, then k + 1, k rising), of `count` processed attacks.
func areaUnderROC<Counts: GroupAccepted>(_ curve: ErrorCurve, accepted: inout Counts, count: Int) -> Double {
    // Samples rejected at every threshold sit below the lowest point: ties among them count half.
    let heldBonaFide = Double(curve.bonaFideRejected[0])
    let heldAttacks = Double(count - accepted.at(0))
    var sum = heldBonaFide * heldAttacks / 2
    curve.bonaFideRejected.withUnsafeBufferPointer { rejected in
        let points = rejected.count, bonaFide = curve.bonaFideCount
        for k in 0..<points {
            let after = k + 1 < points ? rejected[k + 1] : bonaFide
            guard after > rejected[k] else { continue }
            let acceptedHere = accepted.at(k), acceptedAfter = accepted.at(k + 1)
            let attacksBelow = Double(count - acceptedHere)
            let attacksEqual = Double(acceptedHere - acceptedAfter)
            sum += Double(after - rejected[k]) * (attacksBelow + attacksEqual / 2)
        }
    }
    return sum / (Double(curve.bonaFideCount) * Double(count))
}

/// ``areaUnderROC(_:)`` of bona fide against attack species s of the curve alone: the same sum
/// over the same bona fide points in the same order, with that species' counts (below and equal
/// at each point, read with a cursor in its steps), so it equals, bit for bit, the AUC of a curve
/// swept over bona fide and species s only, without sweeping that curve. Between two points of
/// the whole curve that hold a bona fide score no bona fide or species-s count changes but at
/// those points, whatever other species score there. NaN when either class is empty.
package func areaUnderROC(_ curve: ErrorCurve, species s: Int) -> Double {
    let attacks = curve.attackCounts[s]
    guard curve.hasBonaFide && attacks > 0 else { return .nan }
    if curve.attackCounts.count == 1 { return areaUnderROC(curve) }
    var steps = SpeciesAccepted(curve, species: s)
    return areaUnderROC(curve, accepted: &steps, count: attacks)
}

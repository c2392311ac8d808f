/// The exact APCER/BPCER step functions of a score set over every distinct threshold, computed
/// by one sort and one sweep (O(n log n)).
///
/// ```swift
/// let curve = try ErrorCurve(set)
/// for k in curve.thresholds.indices { print(curve.thresholds[k], curve.bpcer(k), curve.apcerMax(k)) }
/// ```
/// Point k is the threshold `thresholds[k]`: samples with score >= it are accepted. Thresholds are
/// the distinct processed scores in ascending order, followed by +inf (nothing accepted), so the
/// curve runs from (APCER 1, BPCER 0) at the lowest score to (APCER 0, BPCER 1).
/// APCER(species, t) = attacks of the species with score >= t / processed attacks of the species;
/// BPCER(t) = bona fide with score < t / processed bona fide (ISO/IEC 30107-3).
public struct ErrorCurve: Sendable {
    public let thresholds: [Double]
    public let speciesNames: [String]
    /// Processed counts.
    public let bonaFideCount: Int
    public let attackCounts: [Int]
    /// Bona fide with score < thresholds[k] (rejected), per point.
    public let bonaFideRejected: [Int]
    /// Attacks of species s with score >= thresholds[k] (accepted): `attackAccepted[s][k]`.
    public let attackAccepted: [[Int]]
    /// All attacks accepted at point k.
    public let pooledAccepted: [Int]
    /// Failures (NaN scores) by class; the headline rates leave them out.
    public let bonaFideFailed: Int
    public let attackFailed: [Int]

    public init(_ set: ScoreSet) throws(MetricsError) {
        let speciesCount = set.speciesNames.count
        var order: [Int] = []
        order.reserveCapacity(set.count)
        var bonaFideFailed = 0
        var attackFailed = [Int](repeating: 0, count: speciesCount)
        var attackCounts = [Int](repeating: 0, count: speciesCount)
        var bonaFideCount = 0
        for i in 0..<set.count {
            let s = set.speciesIndex[i]
            if set.scores[i].isNaN {
                if s < 0 { bonaFideFailed += 1 } else { attackFailed[Int(s)] += 1 }
                continue
            }
            if s < 0 { bonaFideCount += 1 } else { attackCounts[Int(s)] += 1 }
            order.append(i)
        }
        guard bonaFideCount > 0 else { throw .noBonaFide }
        guard attackCounts.reduce(0, +) > 0 else { throw .noAttacks }
        let scores = set.scores
        order.sort { scores[$0] < scores[$1] }

        // Sweep ascending: before point k, every sample with score < thresholds[k] is rejected.
        var thresholds: [Double] = []
        var bonaFideRejected: [Int] = []
        var attackRejected = Array(repeating: [Int](), count: speciesCount)
        var rejectedBonaFide = 0
        var rejectedAttacks = [Int](repeating: 0, count: speciesCount)
        var i = 0
        let species = set.speciesIndex
        while i <= order.count {
            let threshold = i < order.count ? scores[order[i]] : Double.infinity
            thresholds.append(threshold)
            bonaFideRejected.append(rejectedBonaFide)
            for s in 0..<speciesCount { attackRejected[s].append(rejectedAttacks[s]) }
            if i == order.count { break }
            // Everything equal to this threshold becomes rejected for the next point.
            while i < order.count && scores[order[i]] == threshold {
                let s = species[order[i]]
                if s < 0 { rejectedBonaFide += 1 } else { rejectedAttacks[Int(s)] += 1 }
                i += 1
            }
        }
        self.thresholds = thresholds
        self.speciesNames = set.speciesNames
        self.bonaFideCount = bonaFideCount
        self.attackCounts = attackCounts
        self.bonaFideRejected = bonaFideRejected
        self.attackAccepted = (0..<speciesCount).map { s in attackRejected[s].map { attackCounts[s] - $0 } }
        var pooled = [Int](repeating: 0, count: thresholds.count)
        for s in 0..<speciesCount { for k in pooled.indices { pooled[k] += attackAccepted[s][k] } }
        self.pooledAccepted = pooled
        self.bonaFideFailed = bonaFideFailed
        self.attackFailed = attackFailed
    }

    public var count: Int { thresholds.count }
    public var attackCount: Int { attackCounts.reduce(0, +) }

    public func bpcer(_ k: Int) -> Double { Double(bonaFideRejected[k]) / Double(bonaFideCount) }

    /// APCER of species s at point k; NaN for a species with no processed attacks.
    public func apcer(_ s: Int, _ k: Int) -> Double {
        attackCounts[s] > 0 ? Double(attackAccepted[s][k]) / Double(attackCounts[s]) : .nan
    }

    /// The maximum APCER over species (species with processed attacks only) and the species.
    public func apcerMax(_ k: Int) -> (value: Double, species: Int) {
        var best = -1.0, which = -1
        for s in attackCounts.indices where attackCounts[s] > 0 {
            let v = apcer(s, k)
            if v > best { best = v; which = s }
        }
        return (best, which)
    }

    public func apcerPooled(_ k: Int) -> Double { Double(pooledAccepted[k]) / Double(attackCount) }

    /// Index of the point for an arbitrary threshold t: the first point whose threshold is >= t
    /// (the same accepted set as t itself, since no score lies strictly between).
    public func pointIndex(for t: Double) -> Int {
        var low = 0, high = thresholds.count - 1
        if t.isNaN { return high }
        while low < high {
            let mid = (low + high) / 2
            if thresholds[mid] >= t { high = mid } else { low = mid + 1 }
        }
        return low
    }
}

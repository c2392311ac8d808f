import Dispatch

/// The exact APCER/BPCER step functions of a score set over every distinct threshold, computed
/// by one sort and one sweep (O(n log n)).
///
/// ```swift
/// var set = ScoreSet()
/// set.append(score: 0.9, species: nil)
/// set.append(score: 0.2, species: "print")
/// let curve = try ErrorCurve(set)
/// for k in 0..<curve.count { print(curve.thresholds[k], curve.bpcer(k), curve.apcerMax(k).value) }
/// ```
/// Point k is the threshold `thresholds[k]`: samples with score >= it are accepted. Thresholds are
/// the distinct processed scores in ascending order (infinite ones included: +inf orders above
/// every finite score), followed, when the highest score is finite, by a terminal threshold above
/// it where nothing is accepted (the shortest decimal above the highest score, never +inf).
/// Samples added with ``ScoreSet/appendRejectedAtEveryThreshold(species:)`` count in every
/// denominator and are rejected at every point.
/// APCER(species, t) = attacks of the species with score >= t / processed attacks of the species;
/// BPCER(t) = bona fide with score < t (or rejected at every threshold) / processed bona fide
/// (ISO/IEC 30107-3). A set with one class only is allowed: the other class's rate is NaN.
public struct ErrorCurve: Sendable {
    public let thresholds: [Double]
    public let speciesNames: [String]
    /// Processed counts (including those rejected at every threshold).
    public let bonaFideCount: Int
    public let attackCounts: [Int]
    /// Bona fide with score < thresholds[k] (rejected), per point.
    public let bonaFideRejected: [Int]
    /// Attacks of species s with score >= thresholds[k] (accepted), flattened species-major:
    /// element `s * count + k`, read with ``accepted(_:_:)`` (one array, so hot loops do not
    /// retain an inner array per access).
    public let attackAccepted: [Int]
    /// All attacks accepted at point k.
    public let pooledAccepted: [Int]
    /// Failures (NaN scores) by class; the headline rates leave them out.
    public let bonaFideFailed: Int
    public let attackFailed: [Int]
    /// Whether the last point is the terminal one (nothing accepted, threshold above every score).
    public let hasTerminalPoint: Bool

    /// - Throws: ``MetricsError/noScores`` when no processed sample has a score to sweep.
    public init(_ set: ScoreSet) throws(MetricsError) {
        let speciesCount = set.speciesNames.count
        var bonaFideFailed = 0
        var attackFailed = [Int](repeating: 0, count: speciesCount)
        // All processed scores in one buffer, class by class (0 = bona fide, s + 1 = species s),
        // each class segment sorted on its own: sorting plain Doubles is several times faster than
        // sorting indices by score, and the sweep below merges the segments.
        let classCount = speciesCount + 1
        var lengths = [Int](repeating: 0, count: classCount)
        for i in 0..<set.count {
            let s = Int(set.speciesIndex[i])
            if set.scores[i].isNaN {
                if s < 0 { bonaFideFailed += 1 } else { attackFailed[s] += 1 }
            } else {
                lengths[s + 1] += 1
            }
        }
        var starts = [Int](repeating: 0, count: classCount + 1)
        for c in 0..<classCount { starts[c + 1] = starts[c] + lengths[c] }
        let total = starts[classCount]
        guard total > 0 else { throw .noScores }
        var flat = [Double](unsafeUninitializedCapacity: total) { buffer, initialized in
            var fill = starts
            set.scores.withUnsafeBufferPointer { scores in
                set.speciesIndex.withUnsafeBufferPointer { species in
                    for i in 0..<scores.count where !scores[i].isNaN {
                        let c = Int(species[i]) + 1
                        buffer[fill[c]] = scores[i]
                        fill[c] += 1
                    }
                }
            }
            initialized = total
        }
        // Sort the class segments on all cores (bona fide and attacks are usually the two big ones).
        flat.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let shared = buffer
            let bounds = starts
            DispatchQueue.concurrentPerform(iterations: classCount) { c in
                RadixSort.sort(UnsafeMutableBufferPointer(rebasing: shared[bounds[c]..<bounds[c + 1]]))
            }
        }
        let heldBonaFide = set.rejectedAtEveryThresholdBonaFide
        let heldAttacks = (0..<speciesCount).map {
            $0 < set.rejectedAtEveryThresholdAttacks.count ? set.rejectedAtEveryThresholdAttacks[$0] : 0
        }
        let bonaFideCount = lengths[0] + heldBonaFide
        let attackCounts = (0..<speciesCount).map { lengths[$0 + 1] + heldAttacks[$0] }
        let freeAttacks = lengths.dropFirst().reduce(0, +)

        // Sweep ascending: at point k every sample with score < thresholds[k] is rejected. A k-way
        // merge over the sorted segments with raw pointers (this loop runs once per distinct score).
        let stride = total + 1
        var thresholds = [Double](repeating: 0, count: stride)
        var bonaFideRejected = [Int](repeating: 0, count: stride)
        var attackAccepted = [Int](repeating: 0, count: stride * speciesCount)
        var pooledAccepted = [Int](repeating: 0, count: stride)
        var points = 0
        var position = [Int](repeating: 0, count: classCount)
        flat.withUnsafeBufferPointer { base in
            let pointers = (0..<classCount).map { UnsafeBufferPointer(rebasing: base[starts[$0]..<starts[$0 + 1]]) }
            thresholds.withUnsafeMutableBufferPointer { thresholdOut in
                bonaFideRejected.withUnsafeMutableBufferPointer { bonaFideOut in
                    pooledAccepted.withUnsafeMutableBufferPointer { pooledOut in
                        attackAccepted.withUnsafeMutableBufferPointer { acceptedOut in
                            func record(_ threshold: Double) {
                                thresholdOut[points] = threshold
                                bonaFideOut[points] = heldBonaFide + position[0]
                                var rejectedAttacks = 0
                                for sp in 0..<speciesCount {
                                    acceptedOut[sp * stride + points] = lengths[sp + 1] - position[sp + 1]
                                    rejectedAttacks += position[sp + 1]
                                }
                                pooledOut[points] = freeAttacks - rejectedAttacks
                                points += 1
                            }
                            while true {
                                var next = Double.infinity, remaining = false
                                for c in 0..<classCount where position[c] < lengths[c] {
                                    next = min(next, pointers[c][position[c]])
                                    remaining = true
                                }
                                guard remaining else { break }
                                record(next)
                                for c in 0..<classCount {
                                    var p = position[c]
                                    let pointer = pointers[c], length = lengths[c]
                                    while p < length && pointer[p] == next { p += 1 }
                                    position[c] = p
                                }
                            }
                            // Above the highest score nothing is accepted; with a +inf score no
                            // threshold rejects everything, so there is no terminal point.
                            let highest = thresholdOut[points - 1]
                            if highest.isFinite { record(ShortestDecimal.between(highest, .infinity)) }
                        }
                    }
                }
            }
        }
        let terminal = thresholds[points - 1] > flat.max()!
        thresholds.removeLast(stride - points)
        bonaFideRejected.removeLast(stride - points)
        pooledAccepted.removeLast(stride - points)
        // Compact the species blocks to `points` elements each.
        if points < stride {
            for sp in 0..<speciesCount {
                for k in 0..<points { attackAccepted[sp * points + k] = attackAccepted[sp * stride + k] }
            }
            attackAccepted.removeLast(attackAccepted.count - points * speciesCount)
        }
        self.thresholds = thresholds
        self.speciesNames = set.speciesNames
        self.bonaFideCount = bonaFideCount
        self.attackCounts = attackCounts
        self.bonaFideRejected = bonaFideRejected
        self.attackAccepted = attackAccepted
        self.pooledAccepted = pooledAccepted
        self.bonaFideFailed = bonaFideFailed
        self.attackFailed = attackFailed
        self.hasTerminalPoint = terminal
    }

    public var hasBonaFide: Bool { bonaFideCount > 0 }
    public var hasAttacks: Bool { attackCounts.contains { $0 > 0 } }

    /// Throws unless both classes have processed samples (EER, targets and AUC need both).
    public func requireBothClasses() throws(MetricsError) {
        guard hasBonaFide else { throw .noBonaFide }
        guard hasAttacks else { throw .noAttacks }
    }

    /// Bona fide rejected just above point k (all of them past the last point).
    @inline(__always)
    func bonaFideRejectedAfter(_ k: Int) -> Int { k + 1 < count ? bonaFideRejected[k + 1] : bonaFideCount }
    /// Attacks accepted just above point k (none past the last point).
    @inline(__always)
    func pooledAcceptedAfter(_ k: Int) -> Int { k + 1 < count ? pooledAccepted[k + 1] : 0 }
    @inline(__always)
    func acceptedAfter(_ s: Int, _ k: Int) -> Int { k + 1 < count ? accepted(s, k + 1) : 0 }

    public var count: Int { thresholds.count }
    public var attackCount: Int { attackCounts.reduce(0, +) }

    /// Attacks of species s accepted at point k.
    @inline(__always)
    public func accepted(_ s: Int, _ k: Int) -> Int { attackAccepted[s * thresholds.count + k] }

    /// NaN when the set has no processed bona fide.
    public func bpcer(_ k: Int) -> Double {
        bonaFideCount > 0 ? Double(bonaFideRejected[k]) / Double(bonaFideCount) : .nan
    }

    /// APCER of species s at point k; NaN for a species with no processed attacks.
    public func apcer(_ s: Int, _ k: Int) -> Double {
        attackCounts[s] > 0 ? Double(accepted(s, k)) / Double(attackCounts[s]) : .nan
    }

    /// The maximum APCER over species (species with processed attacks only) and the species.
    /// (NaN, -1) when the set has no processed attacks.
    public func apcerMax(_ k: Int) -> (value: Double, species: Int) {
        var best = -1.0, which = -1
        for s in attackCounts.indices where attackCounts[s] > 0 {
            let v = apcer(s, k)
            if v > best { best = v; which = s }
        }
        return which < 0 ? (.nan, -1) : (best, which)
    }

    public func apcerPooled(_ k: Int) -> Double {
        attackCount > 0 ? Double(pooledAccepted[k]) / Double(attackCount) : .nan
    }

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

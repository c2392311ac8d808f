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
        try self.init(sorted: SortedScores(set))
    }

    /// The curve of scores already sorted class by class (several curves over the same classes,
    /// e.g. one per species in `outputs.csv`, then sort once).
    /// - Throws: ``MetricsError/noScores`` when no processed sample has a score to sweep.
    public init(sorted: SortedScores) throws(MetricsError) {
        guard sorted.total > 0 else { throw .noScores }
        let sweep = CurveSweep(sorted)
        let points = sweep.points
        self.thresholds = sweep.thresholds
        self.speciesNames = sorted.speciesNames
        self.bonaFideCount = sorted.length(ofClass: 0) + sorted.heldBonaFide
        self.attackCounts = sorted.speciesNames.indices.map { sorted.length(ofClass: $0 + 1) + sorted.heldAttacks[$0] }
        self.bonaFideRejected = sweep.bonaFideRejected
        self.attackAccepted = sweep.attackAccepted
        self.pooledAccepted = sweep.pooledAccepted
        self.bonaFideFailed = sorted.bonaFideFailed
        self.attackFailed = sorted.attackFailed
        self.hasTerminalPoint = sweep.thresholds[points - 1] > sorted.highest
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

/// The processed scores of a set, class by class (0 = bona fide, s + 1 = species s), each class
/// sorted ascending in one buffer, with the failures and the samples rejected at every threshold:
/// everything an ``ErrorCurve`` sweeps. Sorting is the costly part (radix sort, classes on all
/// cores); ``restricted(toSpecies:)`` and ``negated()`` give other curves' input without sorting
/// again.
public struct SortedScores: Sendable {
    public let speciesNames: [String]
    /// Class c occupies `flat[starts[c]..<starts[c + 1]]`.
    let flat: [Double]
    let starts: [Int]
    let bonaFideFailed: Int
    let attackFailed: [Int]
    let heldBonaFide: Int
    let heldAttacks: [Int]

    var classCount: Int { starts.count - 1 }
    /// True when no sample is rejected at every threshold: the sorted scores are then every
    /// processed sample of the set (as `outputs.csv` takes them, see ``OutputSeparation``).
    public var rejectsNoneAtEveryThreshold: Bool { heldBonaFide == 0 && heldAttacks.allSatisfy { $0 == 0 } }
    /// Processed scores of bona fide (class 0) or of species c - 1.
    public func count(ofClass c: Int) -> Int { length(ofClass: c) }
    var total: Int { starts[classCount] }
    func length(ofClass c: Int) -> Int { starts[c + 1] - starts[c] }
    /// The highest processed score (-inf when there is none).
    var highest: Double {
        (0..<classCount).reduce(-Double.infinity) {
            starts[$1 + 1] > starts[$1] ? max($0, flat[starts[$1 + 1] - 1]) : $0
        }
    }

    public init(_ set: ScoreSet) {
        let speciesCount = set.speciesNames.count
        let (lengths, bonaFideFailed, attackFailed) = Self.classLengths(set)
        var starts = [Int](repeating: 0, count: speciesCount + 2)
        for c in 0...speciesCount { starts[c + 1] = starts[c] + lengths[c] }
        var flat = Self.gatherByClass(set, starts: starts)
        Self.sortSegments(&flat, starts: starts)
        self.init(
            speciesNames: set.speciesNames, flat: flat, starts: starts, bonaFideFailed: bonaFideFailed,
            attackFailed: attackFailed, heldBonaFide: set.rejectedAtEveryThresholdBonaFide,
            heldAttacks: (0..<speciesCount).map {
                $0 < set.rejectedAtEveryThresholdAttacks.count ? set.rejectedAtEveryThresholdAttacks[$0] : 0
            })
    }

    init(
        speciesNames: [String], flat: [Double], starts: [Int], bonaFideFailed: Int, attackFailed: [Int],
        heldBonaFide: Int, heldAttacks: [Int]
    ) {
        self.speciesNames = speciesNames
        self.flat = flat
        self.starts = starts
        self.bonaFideFailed = bonaFideFailed
        self.attackFailed = attackFailed
        self.heldBonaFide = heldBonaFide
        self.heldAttacks = heldAttacks
    }

    /// Processed scores per class, and failures (NaN scores) by class.
    static func classLengths(_ set: ScoreSet) -> (lengths: [Int], bonaFideFailed: Int, attackFailed: [Int]) {
        var lengths = [Int](repeating: 0, count: set.speciesNames.count + 1)
        var attackFailed = [Int](repeating: 0, count: set.speciesNames.count)
        var bonaFideFailed = 0
        set.scores.withUnsafeBufferPointer { scores in
            set.speciesIndex.withUnsafeBufferPointer { species in
                for i in 0..<scores.count {
                    let s = Int(species[i])
                    if scores[i].isNaN {
                        if s < 0 { bonaFideFailed += 1 } else { attackFailed[s] += 1 }
                    } else {
                        lengths[s + 1] += 1
                    }
                }
            }
        }
        return (lengths, bonaFideFailed, attackFailed)
    }

    /// All processed scores in one buffer, class by class, in set order within a class.
    static func gatherByClass(_ set: ScoreSet, starts: [Int]) -> [Double] {
        let total = starts[starts.count - 1]
        return [Double](unsafeUninitializedCapacity: total) { buffer, initialized in
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
    }

    /// Sorts each class segment on its own, on all cores (sorting plain Doubles is several times
    /// faster than sorting indices by score; the sweep merges the segments).
    static func sortSegments(_ flat: inout [Double], starts: [Int]) {
        flat.withUnsafeMutableBufferPointer { buffer in
            nonisolated(unsafe) let shared = buffer
            DispatchQueue.concurrentPerform(iterations: starts.count - 1) { c in
                RadixSort.sort(UnsafeMutableBufferPointer(rebasing: shared[starts[c]..<starts[c + 1]]))
            }
        }
    }

    /// Distinct scores of each class, summed: at least the distinct scores of the whole set.
    var distinctWithinClasses: Int {
        flat.withUnsafeBufferPointer { flat in
            var distinct = 0
            for c in 0..<classCount where starts[c] < starts[c + 1] {
                distinct += 1
                for k in (starts[c] + 1)..<starts[c + 1] where flat[k] != flat[k - 1] { distinct += 1 }
            }
            return distinct
        }
    }

    /// Bona fide and the given species only (in that order), as if the set held no other species.
    public func restricted(toSpecies species: [Int]) -> SortedScores {
        // Every species in order is this set itself (its buffer shared, not copied).
        if species.elementsEqual(speciesNames.indices) { return self }
        let classes = [0] + species.map { $0 + 1 }
        var flat: [Double] = []
        flat.reserveCapacity(classes.reduce(0) { $0 + length(ofClass: $1) })
        var starts = [0]
        for c in classes {
            flat.append(contentsOf: self.flat[self.starts[c]..<self.starts[c + 1]])
            starts.append(flat.count)
        }
        return SortedScores(
            speciesNames: species.map { speciesNames[$0] }, flat: flat, starts: starts, bonaFideFailed: bonaFideFailed,
            attackFailed: species.map { attackFailed[$0] }, heldBonaFide: heldBonaFide,
            heldAttacks: species.map { heldAttacks[$0] })
    }

    /// The same samples with every score negated (lower values read as bona fide): each class
    /// reversed and negated, which keeps it sorted.
    public func negated() -> SortedScores {
        // Every element is written once (no clearing first).
        let flat = [Double](unsafeUninitializedCapacity: total) { buffer, initialized in
            self.flat.withUnsafeBufferPointer { source in
                for c in 0..<classCount {
                    let first = starts[c], last = starts[c + 1]
                    for k in first..<last { buffer[first + last - 1 - k] = -source[k] }
                }
            }
            initialized = total
        }
        return SortedScores(
            speciesNames: speciesNames, flat: flat, starts: starts, bonaFideFailed: bonaFideFailed,
            attackFailed: attackFailed, heldBonaFide: heldBonaFide, heldAttacks: heldAttacks)
    }
}

/// The ascending sweep of ``ErrorCurve``: at point k every sample with score < thresholds[k] is
/// rejected. A k-way merge over the sorted class segments with raw pointers (it runs once per
/// distinct score); the species counts are flattened species-major with stride `points`.
struct CurveSweep {
    var thresholds: [Double]
    var bonaFideRejected: [Int]
    var attackAccepted: [Int]
    var pooledAccepted: [Int]
    var points = 0

    init(_ sorted: SortedScores) {
        // One point per distinct score, plus the terminal one: sized by the distinct scores of
        // each class summed (one pass over the sorted segments), not by the samples, so a score
        // with many ties does not hold 48 bytes per sample (curves of a million samples).
        let stride = sorted.distinctWithinClasses + 1, speciesCount = sorted.classCount - 1
        // Sized for the most points there can be; the merge writes each point before anything
        // reads it and `compact` drops the rest, so the arrays are not cleared first (hundreds of
        // megabytes on ten million scores).
        thresholds = Self.unfilled(stride)
        bonaFideRejected = Self.unfilled(stride)
        attackAccepted = Self.unfilled(stride * speciesCount)
        // With one species the pooled counts are that species' counts: one array serves both
        // (outputs.csv sweeps one such curve per species, millions of points each).
        pooledAccepted = speciesCount == 1 ? [] : Self.unfilled(stride)
        merge(sorted, stride: stride)
        compact(stride: stride, speciesCount: speciesCount)
        if speciesCount == 1 { pooledAccepted = attackAccepted }
    }

    /// An array of `count` elements whose values are not set yet (plain numbers: any bits are valid).
    static func unfilled<T: BinaryInteger>(_ count: Int) -> [T] {
        [T](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
    }

    static func unfilled(_ count: Int) -> [Double] {
        [Double](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
    }

    mutating func merge(_ sorted: SortedScores, stride: Int) {
        let classCount = sorted.classCount, speciesCount = classCount - 1
        let lengths = (0..<classCount).map(sorted.length(ofClass:))
        let freeAttacks = lengths.dropFirst().reduce(0, +), heldBonaFide = sorted.heldBonaFide
        var position = [Int](repeating: 0, count: classCount)
        var points = 0
        sorted.flat.withUnsafeBufferPointer { base in
            let pointers = (0..<classCount).map {
                UnsafeBufferPointer(rebasing: base[sorted.starts[$0]..<sorted.starts[$0 + 1]])
            }
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
                                if speciesCount != 1 { pooledOut[points] = freeAttacks - rejectedAttacks }
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
        self.points = points
    }

    /// Drops the unused tail and packs the species blocks to `points` elements each.
    mutating func compact(stride: Int, speciesCount: Int) {
        thresholds.removeLast(stride - points)
        bonaFideRejected.removeLast(stride - points)
        if speciesCount != 1 { pooledAccepted.removeLast(stride - points) }
        guard points < stride else { return }
        for sp in 0..<speciesCount {
            for k in 0..<points { attackAccepted[sp * points + k] = attackAccepted[sp * stride + k] }
        }
        attackAccepted.removeLast(attackAccepted.count - points * speciesCount)
    }
}

import Dispatch

/// The exact APCER/BPCER step functions of a score set over every distinct threshold, computed
/// by one sort and one sweep (O(n log n)).
///
/// ```swift
/// var set = ScoreSet()
/// set.append(score: 0.9, species: nil)
/// set.append(score: 0.2, species: "print")
/// let curve = try ErrorCurve(set)
/// let rows = curve.thresholds.indices.map { k in (curve.thresholds[k], curve.bpcer(k), curve.apcerMax(k).value) }
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
package struct ErrorCurve: Sendable {
    package let thresholds: [Double]
    package let speciesNames: [String]
    /// Processed counts (including those rejected at every threshold).
    package let bonaFideCount: Int
    package let attackCounts: [Int]
    /// Bona fide with score < thresholds[k] (rejected), per point.
    package let bonaFideRejected: [Int]
    /// All attacks accepted at point k.
    package let pooledAccepted: [Int]
    /// Attacks of each species accepted, as steps (two or more species; with one, its counts
    /// are ``pooledAccepted``): species s changes at points `stepPoints[stepStarts[s]..<stepStarts[s + 1]]`
    /// (the first is point 0) to the counts in `stepAccepted`. A species changes only where the
    /// sweep passes one of its own distinct scores, so the steps of all species together are at
    /// most the distinct scores of each species summed plus one per species: memory grows with
    /// the samples, never with points x species (6,000 species over 20,000 points would be 120
    /// million counts, 960 MB, as one dense table).
    let stepStarts: [Int]
    let stepPoints: [Int]
    let stepAccepted: [Int]
    /// APCER_max and its species at each point (two or more species), computed during the sweep.
    let maxAPCER: [Double]
    let maxSpecies: [Int32]
    /// Failures (NaN scores) by class; the headline rates leave them out.
    package let bonaFideFailed: Int
    package let attackFailed: [Int]
    /// Whether the last point is the terminal one (nothing accepted, threshold above every score).
    package let hasTerminalPoint: Bool

    /// - Throws: ``MetricsError/noScores`` when no processed sample has a score to sweep.
    package init(_ set: ScoreSet) throws(MetricsError) {
        try self.init(sorted: SortedScores(set))
    }

    /// The curve of scores already sorted class by class (several curves over the same classes,
    /// e.g. one per species in `outputs.csv`, then sort once).
    /// - Throws: ``MetricsError/noScores`` when no processed sample has a score to sweep.
    package init(sorted: SortedScores) throws(MetricsError) {
        guard sorted.total > 0 else { throw .noScores }
        let sweep = CurveSweep(sorted)
        let points = sweep.points
        self.thresholds = sweep.thresholds
        self.speciesNames = sorted.speciesNames
        self.bonaFideCount = sorted.length(ofClass: 0) + sorted.heldBonaFide
        self.attackCounts = sorted.speciesNames.indices.map { sorted.length(ofClass: $0 + 1) + sorted.heldAttacks[$0] }
        self.bonaFideRejected = sweep.bonaFideRejected
        self.pooledAccepted = sweep.pooledAccepted
        self.stepStarts = sweep.stepStarts
        self.stepPoints = sweep.stepPoints
        self.stepAccepted = sweep.stepAccepted
        self.maxAPCER = sweep.maxAPCER
        self.maxSpecies = sweep.maxSpecies
        self.bonaFideFailed = sorted.bonaFideFailed
        self.attackFailed = sorted.attackFailed
        self.hasTerminalPoint = sweep.thresholds[points - 1] > sorted.highest
    }

    package var hasBonaFide: Bool { bonaFideCount > 0 }
    package var hasAttacks: Bool { attackCounts.contains { $0 > 0 } }

    /// Throws unless both classes have processed samples (EER, targets and AUC need both).
    package func requireBothClasses() throws(MetricsError) {
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

    package var count: Int { thresholds.count }
    package var attackCount: Int { attackCounts.reduce(0, +) }

    /// Attacks of species s accepted at point k (a binary search among the species' steps).
    @inline(__always)
    package func accepted(_ s: Int, _ k: Int) -> Int {
        attackCounts.count == 1 ? pooledAccepted[k] : stepAccepted[cursor(species: s, at: k).step]
    }

    /// The steps of species s in point order: (point where the count changes, attacks accepted
    /// from there on). The first is at point 0.
    package func steps(ofSpecies s: Int) -> [(point: Int, accepted: Int)] {
        if attackCounts.count == 1 {
            return (0..<count).compactMap { k in
                k == 0 || pooledAccepted[k] != pooledAccepted[k - 1] ? (k, pooledAccepted[k]) : nil
            }
        }
        return (stepStarts[s]..<stepStarts[s + 1]).map { (stepPoints[$0], stepAccepted[$0]) }
    }

    /// Calls `body(k, accepted(s, k))` for every point k at which species s has a score, in
    /// increasing k: the points where its accepted count falls at the next point (accepted(s, k) >
    /// accepted(s, k + 1), none accepted past the last point). A step j >= 1 of the species at
    /// point p_j is such a fall between p_j - 1 and p_j (counts only fall as t rises, and a step is
    /// recorded only where the count changes), and the last point is one when anything of s is
    /// still accepted there; so this walks the species' steps, O(steps of s), never every point.
    /// With one species its counts are the pooled ones, read point by point.
    package func forEachScorePoint(ofSpecies s: Int, _ body: (_ point: Int, _ accepted: Int) -> Void) {
        if attackCounts.count == 1 {
            pooledAccepted.withUnsafeBufferPointer { pooled in
                for k in 0..<count where pooled[k] > (k + 1 < count ? pooled[k + 1] : 0) { body(k, pooled[k]) }
            }
            return
        }
        let first = stepStarts[s], end = stepStarts[s + 1]
        guard end > first else { return }
        for j in (first + 1)..<end { body(stepPoints[j] - 1, stepAccepted[j - 1]) }
        if stepAccepted[end - 1] > 0 { body(count - 1, stepAccepted[end - 1]) }
    }

    /// A position in species s's steps, for reading its APCER at increasing points without a
    /// search per point (`curves.csv` writes every species at every point).
    package struct SpeciesCursor: Sendable {
        let species: Int
        var step: Int
    }

    /// A cursor on species s at point k: the last of its steps at or before k (its first step is
    /// at point 0), found by one binary search.
    package func cursor(species s: Int, at k: Int) -> SpeciesCursor {
        if attackCounts.count == 1 { return SpeciesCursor(species: s, step: 0) }
        var low = stepStarts[s], high = stepStarts[s + 1] - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if stepPoints[mid] <= k { low = mid } else { high = mid - 1 }
        }
        return SpeciesCursor(species: s, step: low)
    }

    /// APCER of the cursor's species at point k, moving the cursor there; k must not decrease.
    package func apcer(_ cursor: inout SpeciesCursor, at k: Int) -> Double {
        let s = cursor.species
        guard attackCounts[s] > 0 else { return .nan }
        if attackCounts.count == 1 { return Double(pooledAccepted[k]) / Double(attackCounts[s]) }
        let end = stepStarts[s + 1]
        while cursor.step + 1 < end && stepPoints[cursor.step + 1] <= k { cursor.step += 1 }
        return Double(stepAccepted[cursor.step]) / Double(attackCounts[s])
    }

    /// Attacks of the cursor's species accepted at point k (0 past the last point), moving the
    /// cursor there. The cursor moves step by step both ways, so reading points that rise with an
    /// occasional step back (k + 1, then k) costs O(points + steps) in all, without a search.
    package func accepted(_ cursor: inout SpeciesCursor, at k: Int) -> Int {
        guard k < count else { return 0 }
        if attackCounts.count == 1 { return pooledAccepted[k] }
        let first = stepStarts[cursor.species], end = stepStarts[cursor.species + 1]
        while cursor.step > first && stepPoints[cursor.step] > k { cursor.step -= 1 }
        while cursor.step + 1 < end && stepPoints[cursor.step + 1] <= k { cursor.step += 1 }
        return stepAccepted[cursor.step]
    }

    /// Every species' accepted counts as one dense table, species-major (element `s * count + k`).
    /// Its size is species x points: for tests and small curves only.
    package var attackAccepted: [Int] {
        attackCounts.indices.flatMap { s in (0..<count).map { accepted(s, $0) } }
    }

    /// NaN when the set has no processed bona fide.
    package func bpcer(_ k: Int) -> Double {
        bonaFideCount > 0 ? Double(bonaFideRejected[k]) / Double(bonaFideCount) : .nan
    }

    /// APCER of species s at point k; NaN for a species with no processed attacks.
    package func apcer(_ s: Int, _ k: Int) -> Double {
        attackCounts[s] > 0 ? Double(accepted(s, k)) / Double(attackCounts[s]) : .nan
    }

    /// The maximum APCER over species (species with processed attacks only) and the species.
    /// (NaN, -1) when the set has no processed attacks.
    package func apcerMax(_ k: Int) -> (value: Double, species: Int) {
        if attackCounts.count == 1 { return attackCounts[0] > 0 ? (apcer(0, k), 0) : (.nan, -1) }
        if attackCounts.isEmpty { return (.nan, -1) }
        return (maxAPCER[k], Int(maxSpecies[k]))
    }

    package func apcerPooled(_ k: Int) -> Double {
        attackCount > 0 ? Double(pooledAccepted[k]) / Double(attackCount) : .nan
    }

    /// Index of the point for an arbitrary threshold t: the first point whose threshold is >= t
    /// (the same accepted set as t itself, since no score lies strictly between).
    package func pointIndex(for t: Double) -> Int {
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
package struct SortedScores: Sendable {
    package let speciesNames: [String]
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
    package var rejectsNoneAtEveryThreshold: Bool { heldBonaFide == 0 && heldAttacks.allSatisfy { $0 == 0 } }
    /// Processed scores of bona fide (class 0) or of species c - 1.
    package func count(ofClass c: Int) -> Int { length(ofClass: c) }
    var total: Int { starts[classCount] }
    func length(ofClass c: Int) -> Int { starts[c + 1] - starts[c] }
    /// The highest processed score (-inf when there is none).
    var highest: Double {
        (0..<classCount).reduce(-Double.infinity) {
            starts[$1 + 1] > starts[$1] ? max($0, flat[starts[$1 + 1] - 1]) : $0
        }
    }

    package init(_ set: ScoreSet) {
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
            // Safety: each iteration sorts its own class segment; concurrentPerform returns after all of them.
            nonisolated(unsafe) let shared = buffer
            DispatchQueue.concurrentPerform(iterations: starts.count - 1) { c in
                RadixSort.sort(UnsafeMutableBufferPointer(rebasing: shared[starts[c]..<starts[c + 1]]))
            }
        }
    }

    /// Distinct scores of each class, summed: at least the distinct scores of the whole set.
    var distinctWithinClasses: Int { distinctPerClass.reduce(0, +) }

    /// Distinct scores of class c (0 = bona fide, s + 1 = species s), for every class.
    var distinctPerClass: [Int] {
        flat.withUnsafeBufferPointer { flat in
            (0..<classCount).map { c in
                guard starts[c] < starts[c + 1] else { return 0 }
                var distinct = 1
                for k in (starts[c] + 1)..<starts[c + 1] where flat[k] != flat[k - 1] { distinct += 1 }
                return distinct
            }
        }
    }

    /// Bona fide and the given species only (in that order), as if the set held no other species.
    package func restricted(toSpecies species: [Int]) -> SortedScores {
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
    package func negated() -> SortedScores {
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
/// distinct score). With two or more species, each species' accepted count is recorded only where
/// it changes (``SpeciesSteps``) and APCER_max per point: never a points x species table.
struct CurveSweep {
    var thresholds: [Double]
    var bonaFideRejected: [Int]
    var pooledAccepted: [Int]
    var stepStarts: [Int] = [0]
    var stepPoints: [Int] = []
    var stepAccepted: [Int] = []
    var maxAPCER: [Double] = []
    var maxSpecies: [Int32] = []
    var points = 0

    init(_ sorted: SortedScores) {
        // One point per distinct score, plus the terminal one: sized by the distinct scores of
        // each class summed (one pass over the sorted segments), not by the samples, so a score
        // with many ties does not hold 48 bytes per sample (curves of a million samples).
        let distinct = sorted.distinctPerClass
        let stride = distinct.reduce(0, +) + 1, speciesCount = sorted.classCount - 1
        // Sized for the most points there can be; the merge writes each point before anything
        // reads it and `compact` drops the rest, so the arrays are not cleared first (hundreds of
        // megabytes on ten million scores).
        thresholds = Self.unfilled(stride)
        bonaFideRejected = Self.unfilled(stride)
        pooledAccepted = Self.unfilled(stride)
        var steps = SpeciesSteps(sorted: sorted, distinct: distinct, points: speciesCount > 1 ? stride : 0)
        merge(sorted, stride: stride, steps: &steps)
        compact(stride: stride)
        if speciesCount > 1 {
            (stepStarts, stepPoints, stepAccepted) = steps.packed()
            // Moved out of `steps` before the tail is dropped: while `steps` still held them, the
            // drop copied both arrays (ten million points: 120 MB of fresh memory and a copy).
            (maxAPCER, steps.maxAPCER) = (steps.maxAPCER, [])
            maxAPCER.removeLast(stride - points)
            (maxSpecies, steps.maxSpecies) = (steps.maxSpecies, [])
            maxSpecies.removeLast(stride - points)
        }
    }

    /// An array of `count` elements whose values are not set yet (plain numbers: any bits are valid).
    static func unfilled<T: BinaryInteger>(_ count: Int) -> [T] {
        [T](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
    }

    static func unfilled(_ count: Int) -> [Double] {
        [Double](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
    }

    mutating func merge(_ sorted: SortedScores, stride: Int, steps: inout SpeciesSteps) {
        let classCount = sorted.classCount, speciesCount = classCount - 1
        let lengths = (0..<classCount).map(sorted.length(ofClass:))
        let freeAttacks = lengths.dropFirst().reduce(0, +), heldBonaFide = sorted.heldBonaFide
        var position = [Int](repeating: 0, count: classCount)
        var points = 0
        // Every array the loop writes is reached through a buffer taken once: the loop runs once
        // per distinct score (ten million), where each array write checked uniqueness and bounds.
        sorted.flat.withUnsafeBufferPointer { base in
            let pointers = (0..<classCount).map {
                UnsafeBufferPointer(rebasing: base[sorted.starts[$0]..<sorted.starts[$0 + 1]])
            }
            steps.withBuffers { steps in
                position.withUnsafeMutableBufferPointer { position in
                    lengths.withUnsafeBufferPointer { lengths in
                        thresholds.withUnsafeMutableBufferPointer { thresholdOut in
                            bonaFideRejected.withUnsafeMutableBufferPointer { bonaFideOut in
                                pooledAccepted.withUnsafeMutableBufferPointer { pooledOut in
                                    func record(_ threshold: Double) {
                                        thresholdOut[points] = threshold
                                        bonaFideOut[points] = heldBonaFide + position[0]
                                        var rejectedAttacks = 0
                                        for c in 1..<max(1, classCount) { rejectedAttacks += position[c] }
                                        pooledOut[points] = freeAttacks - rejectedAttacks
                                        if speciesCount > 1 {
                                            steps.record(point: points, position: position, lengths: lengths)
                                        }
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
            }
        }
        self.points = points
    }

    /// Drops the unused tail.
    mutating func compact(stride: Int) {
        thresholds.removeLast(stride - points)
        bonaFideRejected.removeLast(stride - points)
        pooledAccepted.removeLast(stride - points)
    }
}

/// Each species' accepted counts where they change, and APCER_max per point, filled by the sweep.
/// Species s has room for its distinct scores plus one (its first count at point 0, then one
/// change per distinct score passed).
struct SpeciesSteps {
    var starts: [Int]
    var filled: [Int]
    var points: [Int]
    var accepted: [Int]
    var last: [Int]
    let attackCounts: [Double]
    var maxAPCER: [Double]
    var maxSpecies: [Int32]

    init(sorted: SortedScores, distinct: [Int], points: Int) {
        let speciesCount = sorted.classCount - 1
        starts = [0]
        for s in 0..<max(0, speciesCount) { starts.append(starts[s] + distinct[s + 1] + 1) }
        filled = Array(starts.dropLast())
        self.points = CurveSweep.unfilled(points > 0 ? starts.last! : 0)
        accepted = CurveSweep.unfilled(points > 0 ? starts.last! : 0)
        last = [Int](repeating: -1, count: max(0, speciesCount))
        attackCounts = (0..<max(0, speciesCount)).map {
            Double(sorted.length(ofClass: $0 + 1) + sorted.heldAttacks[$0])
        }
        maxAPCER = CurveSweep.unfilled(points)
        maxSpecies = CurveSweep.unfilled(points)
    }

    /// The arrays the sweep writes, as buffers for the length of `body` (``Buffers/record(point:position:lengths:)``).
    mutating func withBuffers<R>(_ body: (Buffers) -> R) -> R {
        filled.withUnsafeMutableBufferPointer { filled in
            points.withUnsafeMutableBufferPointer { points in
                accepted.withUnsafeMutableBufferPointer { accepted in
                    last.withUnsafeMutableBufferPointer { last in
                        maxAPCER.withUnsafeMutableBufferPointer { maxAPCER in
                            maxSpecies.withUnsafeMutableBufferPointer { maxSpecies in
                                attackCounts.withUnsafeBufferPointer { attackCounts in
                                    body(
                                        Buffers(
                                            filled: filled, points: points, accepted: accepted, last: last,
                                            maxAPCER: maxAPCER, maxSpecies: maxSpecies, attackCounts: attackCounts))
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    struct Buffers {
        let filled, points, accepted, last: UnsafeMutableBufferPointer<Int>
        let maxAPCER: UnsafeMutableBufferPointer<Double>
        let maxSpecies: UnsafeMutableBufferPointer<Int32>
        let attackCounts: UnsafeBufferPointer<Double>

        /// Point k: each species whose count changed gets a step; APCER_max is the highest
        /// accepted / processed over species with processed attacks (the first such species on ties).
        @inline(__always)
        func record(point k: Int, position: UnsafeMutableBufferPointer<Int>, lengths: UnsafeBufferPointer<Int>) {
            var best = -1.0, which: Int32 = -1
            for s in 0..<last.count {
                let now = lengths[s + 1] - position[s + 1]
                if now != last[s] {
                    points[filled[s]] = k
                    accepted[filled[s]] = now
                    filled[s] += 1
                    last[s] = now
                }
                if attackCounts[s] > 0 {
                    let v = Double(now) / attackCounts[s]
                    if v > best { best = v; which = Int32(s) }
                }
            }
            maxAPCER[k] = which < 0 ? .nan : best
            maxSpecies[k] = which
        }
    }

    /// The steps without the room no change used: (starts, points, accepted).
    func packed() -> ([Int], [Int], [Int]) {
        var packedStarts = [0], packedPoints: [Int] = [], packedAccepted: [Int] = []
        let total = zip(filled, starts).reduce(0) { $0 + $1.0 - $1.1 }
        packedPoints.reserveCapacity(total)
        packedAccepted.reserveCapacity(total)
        for s in 0..<filled.count {
            packedPoints.append(contentsOf: points[starts[s]..<filled[s]])
            packedAccepted.append(contentsOf: accepted[starts[s]..<filled[s]])
            packedStarts.append(packedPoints.count)
        }
        return (packedStarts, packedPoints, packedAccepted)
    }
}

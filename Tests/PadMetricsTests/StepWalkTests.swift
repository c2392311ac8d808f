import Testing

@testable import PadMetrics

/// The searches that walk a species' steps (``ErrorCurve/forEachScorePoint(ofSpecies:_:)``,
/// ``ErrorCurve/accepted(_:at:)``) and what is built on them (bob's `far_threshold` per species,
/// the lowest threshold meeting APCER_max, the per-species and pooled EER) against brute force:
/// each species' accepted count at every point counted again from the raw scores, and the
/// searches written over that dense table as plain loops over every point. Random sets with
/// ties, -0/+0, infinities, NaN failures, samples rejected at every threshold, one to four
/// species (one without processed attacks), from fixed seeds: a step walk that skips, repeats
/// or misplaces a point gives another threshold or count here.
@Suite struct StepWalkTests {
    /// A random set and its raw scores per species (NaN left out, as the curve leaves them out).
    struct Case {
        var set = ScoreSet()
        var speciesScores: [String: [Double]] = [:]
    }

    static func randomCase(round: Int, next: (UInt64) -> Int) -> Case {
        let specials: [Double] = [0, -0.0, .infinity, -.infinity, .nan, 0.5, 0.5, 1]
        let species = ["print", "replay", "mask", "screen"].prefix(1 + round % 4)
        var c = Case()
        for _ in 0..<(20 + next(400)) {
            let kind = next(10)
            let score = kind < 2 ? specials[next(8)] : Double(next(round % 3 == 0 ? 12 : 1000)) / 7
            let name: String? = next(3) == 0 ? nil : species[next(UInt64(species.count))]
            if kind == 9 {
                c.set.appendRejectedAtEveryThreshold(species: name)
            } else if name != "screen" || score.isNaN {
                c.set.append(score: score, species: name)
                if let name, !score.isNaN { c.speciesScores[name, default: []].append(score) }
            }
        }
        return c
    }

    /// Attacks of each species with score >= thresholds[k], counted from the raw scores.
    static func dense(_ curve: ErrorCurve, _ c: Case) -> [[Int]] {
        curve.speciesNames.map { name in
            let scores = c.speciesScores[name] ?? []
            return curve.thresholds.map { t in scores.filter { $0 >= t }.count }
        }
    }

    /// bob.measure's `far_threshold` on one species as the loop over every point it replaced.
    static func farThreshold(_ curve: ErrorCurve, _ table: [Int], species s: Int, _ x: Double) -> Double? {
        let n = Double(curve.attackCounts[s])
        var lowest: Double?, highest = -Double.infinity, qualifying: Double?
        for k in 0..<curve.count where table[k] > (k + 1 < curve.count ? table[k + 1] : 0) {
            if lowest == nil { lowest = curve.thresholds[k] }
            highest = curve.thresholds[k]
            if qualifying == nil && Double(table[k]) / n <= x { qualifying = curve.thresholds[k] }
        }
        guard let lowest else { return nil }
        if x >= 1 - Double.ulpOfOne { return lowest.nextDown }
        return qualifying ?? highest.nextUp
    }

    /// The first point where every species with processed attacks is at most x.
    static func lowestPoint(_ curve: ErrorCurve, _ table: [[Int]], _ x: Double) -> Int? {
        (0..<curve.count).first { k in
            curve.attackCounts.indices.allSatisfy {
                curve.attackCounts[$0] == 0 || Double(table[$0][k]) <= x * Double(curve.attackCounts[$0])
            }
        }
    }

    static func randomCurves(_ body: (ErrorCurve, Case, Int) throws -> Void) rethrows -> Int {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ n: UInt64) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % n)
        }
        var checked = 0
        for round in 0..<300 {
            let c = randomCase(round: round, next: next)
            guard let curve = try? ErrorCurve(c.set) else { continue }
            try body(curve, c, round)
            checked += 1
        }
        return checked
    }

    @Test func scorePointsAreWhereTheCountFalls() {
        let checked = Self.randomCurves { curve, c, round in
            let table = Self.dense(curve, c)
            for s in curve.speciesNames.indices {
                #expect(table[s] == (0..<curve.count).map { curve.accepted(s, $0) }, "round \(round)")
                var walked: [Int] = [], counts: [Int] = []
                curve.forEachScorePoint(ofSpecies: s) { k, accepted in
                    walked.append(k)
                    counts.append(accepted)
                }
                let expected = (0..<curve.count).filter { k in table[s][k] > (k + 1 < curve.count ? table[s][k + 1] : 0)
                }
                #expect(walked == expected, "round \(round) species \(s)")
                #expect(counts == expected.map { table[s][$0] }, "round \(round) species \(s)")
                // One point per distinct score of the species: what the walk costs.
                #expect(walked.count == Set(c.speciesScores[curve.speciesNames[s]] ?? []).count)
            }
        }
        #expect(checked > 250)
    }

    @Test func cursorReadsEveryPointForwardAndOneBack() {
        let checked = Self.randomCurves { curve, c, round in
            let table = Self.dense(curve, c)
            for s in curve.speciesNames.indices {
                var cursor = curve.cursor(species: s, at: 0)
                var read: [Int] = []
                for k in 0..<curve.count {
                    read.append(curve.accepted(&cursor, at: k + 1))
                    read.append(curve.accepted(&cursor, at: k))
                }
                let expected = (0..<curve.count).flatMap { k in
                    [k + 1 < curve.count ? table[s][k + 1] : 0, table[s][k]]
                }
                #expect(read == expected, "round \(round) species \(s)")
                // A jump back over many steps lands on the same count as a search.
                for k in stride(from: curve.count - 1, through: 0, by: -7) {
                    #expect(curve.accepted(&cursor, at: k) == table[s][k], "round \(round) species \(s) point \(k)")
                }
            }
        }
        #expect(checked > 250)
    }

    @Test func farThresholdAndLowestPointEqualTheLoopsOverEveryPoint() {
        let targets = [0, 0.01, 0.05, 0.1, 0.25, 0.5, 1 - Double.ulpOfOne, 1]
        let checked = Self.randomCurves { curve, c, round in
            let table = Self.dense(curve, c)
            for x in targets {
                for s in curve.speciesNames.indices where curve.attackCounts[s] > 0 {
                    let fast = ThresholdSearch.farThreshold(curve, species: s, apcerAtMost: x)
                    let plain = Self.farThreshold(curve, table[s], species: s, x)
                    #expect(fast?.bitPattern == plain?.bitPattern, "round \(round) species \(s) x \(x)")
                }
                guard curve.hasAttacks else { continue }
                let lowest = ThresholdSearch.lowestThreshold(curve, apcerMaxAtMost: x)
                let plain = Self.lowestPoint(curve, table, x)
                #expect(lowest.point == (plain ?? curve.count - 1), "round \(round) x \(x)")
                #expect(lowest.targetMet == (plain != nil), "round \(round) x \(x)")
            }
        }
        #expect(checked > 250)
    }

    @Test func groupEERsEqualTheSweepOverTheDenseCounts() throws {
        let checked = try Self.randomCurves { curve, c, round in
            guard curve.hasBonaFide && curve.hasAttacks else { return }
            let table = Self.dense(curve, c)
            for s in curve.speciesNames.indices where curve.attackCounts[s] > 0 {
                let fast = try EqualErrorRate(curve, species: s)
                let plain = EqualErrorRate.sweep(
                    curve, accepted: { $0 < curve.count ? table[s][$0] : 0 }, count: curve.attackCounts[s])
                #expect(fast.threshold.bitPattern == plain.eer.bitPattern, "round \(round) species \(s)")
                #expect(fast.minHTERThreshold.bitPattern == plain.minHTER.bitPattern, "round \(round) species \(s)")
                let k = curve.pointIndex(for: plain.eer)
                #expect(fast.apcerMaxCount.errors == table[s][k], "round \(round) species \(s)")
            }
            let pooled = try EqualErrorRate(pooled: curve)
            let sums = (0..<curve.count).map { k in table.reduce(0) { $0 + $1[k] } }
            let plain = EqualErrorRate.sweep(
                curve, accepted: { $0 < curve.count ? sums[$0] : 0 }, count: curve.attackCount)
            #expect(pooled.threshold.bitPattern == plain.eer.bitPattern, "round \(round)")
            #expect(pooled.minHTERThreshold.bitPattern == plain.minHTER.bitPattern, "round \(round)")
        }
        #expect(checked > 250)
    }

    /// `outputs.csv` reads each species' row from the curve of every species: its AUC
    /// (``areaUnderROC(_:species:)``) and EER (``EqualErrorRate/init(_:species:)``) equal, bit for
    /// bit, those of a curve swept over bona fide and that species alone (other species' scores
    /// add points where neither class changes). Random sets with ties, infinities, failures and
    /// samples rejected at every threshold; one to four species.
    @Test func speciesAUCAndEERFromTheWholeCurveEqualTheSpeciesOwnCurve() throws {
        var compared = 0
        let checked = try Self.randomCurves { curve, c, round in
            let sorted = SortedScores(c.set)
            for s in curve.speciesNames.indices {
                let own = try ErrorCurve(sorted: sorted.restricted(toSpecies: [s]))
                let auc = areaUnderROC(curve, species: s)
                #expect(auc.bitPattern == areaUnderROC(own).bitPattern, "round \(round) species \(s)")
                guard own.hasBonaFide && own.hasAttacks else {
                    #expect(auc.isNaN)
                    continue
                }
                let whole = try EqualErrorRate(curve, species: s), alone = try EqualErrorRate(own)
                #expect(whole.threshold.bitPattern == alone.threshold.bitPattern, "round \(round) species \(s)")
                #expect(whole.value.bitPattern == alone.value.bitPattern, "round \(round) species \(s)")
                compared += 1
            }
        }
        #expect(checked > 250 && compared > 400)
    }

    /// By hand: bona fide 1, 2, 2, 4; print 0, 2, 3; replay 5, 5 (which adds points 5 and beyond).
    /// AUC of print = (bona fide above each print + half the ties) / (4 x 3): 1 above 0 -> 4, the
    /// 2 -> 1 (the 4) + 2 x 0.5 (the two 2s), the 3 -> 1 (the 4): (4 + 2 + 1) / 12 = 7/12.
    @Test func speciesAUCByHand() throws {
        var set = ScoreSet()
        for score in [1.0, 2, 2, 4] { set.append(score: score, species: nil) }
        for score in [0.0, 2, 3] { set.append(score: score, species: "print") }
        for score in [5.0, 5] { set.append(score: score, species: "replay") }
        let curve = try ErrorCurve(set)
        let print = try #require(curve.speciesNames.firstIndex(of: "print"))
        let replay = try #require(curve.speciesNames.firstIndex(of: "replay"))
        #expect(areaUnderROC(curve, species: print) == 7.0 / 12)
        #expect(areaUnderROC(curve, species: replay) == 0)
    }
}

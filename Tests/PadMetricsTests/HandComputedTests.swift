import Foundation
import Testing
@testable import PadMetrics

/// A case small enough to check by hand.
@Suite struct HandComputedTests {
    // bona fide: 0.9 0.8 0.4; print: 0.7 0.2; replay: 0.5 0.5 0.1; one replay failed (NaN).
    static func set() -> ScoreSet {
        var set = ScoreSet()
        for s in [0.9, 0.8, 0.4] { set.append(score: s, species: nil) }
        for s in [0.7, 0.2] { set.append(score: s, species: "print") }
        for s in [0.5, 0.5, 0.1, .nan] { set.append(score: s, species: "replay") }
        return set
    }

    @Test func operatingPointAtHalf() throws {
        let point = OperatingPoint(curve: try ErrorCurve(Self.set()), threshold: 0.5)
        // Accepted at t = 0.5 (score >= t): bona fide 0.9, 0.8 -> BPCER 1/3.
        #expect(point.bpcer == Proportion(errors: 1, total: 3))
        // print: 0.7 accepted -> 1/2; replay: both 0.5 accepted (tie rule) -> 2/3 (NaN left out).
        #expect(point.apcer == [Proportion(errors: 1, total: 2), Proportion(errors: 2, total: 3)])
        #expect(point.apcerMaxSpecies == "replay")
        #expect(point.apcerPooled == Proportion(errors: 3, total: 5))
        #expect(abs(point.acer - (2.0 / 3 + 1.0 / 3) / 2) < 1e-15)
        // Failure view: 1 of 4 replay failed; system APCER replay = 2/4 ties print's 1/2, and ties
        // go to the first species by name.
        #expect(point.apnrr == Proportion(errors: 1, total: 6))
        #expect(point.bpnrr == Proportion(errors: 0, total: 3))
        #expect(point.apcerMaxSystem == Proportion(errors: 1, total: 2))
        #expect(point.apcerMaxSystemSpecies == "print")
    }

    /// An operating point from decision counts is the one read off a curve at the same errors
    /// (the headline of a profile comes from counts, not from a curve of 0/1 scores).
    @Test func operatingPointFromCountsEqualsTheCurvesPoint() throws {
        // At t = 0.5: bona fide rejected 1 of 3; print accepted 1 of 2, replay 2 of 3; 1 replay failed.
        let counts = OperatingPoint.Counts(
            speciesNames: ["print", "replay"], bonaFide: 3, bonaFideRejected: 1, attacks: [2, 3],
            attacksAccepted: [1, 2], bonaFideFailed: 0, attacksFailed: [0, 1])
        let fromCounts = OperatingPoint(threshold: 0.5, counts: counts)
        let fromCurve = OperatingPoint(curve: try ErrorCurve(Self.set()), threshold: 0.5)
        #expect(fromCounts.bpcer == fromCurve.bpcer && fromCounts.apcer == fromCurve.apcer)
        #expect(fromCounts.apcerMax == Proportion(errors: 2, total: 3) && fromCounts.apcerMaxSpecies == "replay")
        #expect(
            fromCounts.apcerPooled == Proportion(errors: 3, total: 5) && fromCounts.apcerPooled == fromCurve.apcerPooled
        )
        #expect(fromCounts.apnrr == Proportion(errors: 1, total: 6) && fromCounts.bpcerSystem == fromCurve.bpcerSystem)
        #expect(
            fromCounts.apcerMaxSystem == Proportion(errors: 1, total: 2) && fromCounts.apcerMaxSystemSpecies == "print")
        #expect(fromCounts.acer == fromCurve.acer)
        #expect(counts.processed == 8)
    }

    /// Identical means the same presentations in the same order, NaN failures included.
    @Test func scoreSetIdentity() {
        let a = Self.set()
        var b = Self.set()
        #expect(a.isIdentical(to: b))
        b.appendRejectedAtEveryThreshold(species: nil)
        #expect(!a.isIdentical(to: b))
        var c = ScoreSet()
        for s in [0.9, 0.8, 0.4] { c.append(score: s, species: nil) }
        for s in [0.7, 0.2] { c.append(score: s, species: "print") }
        for s in [0.5, 0.5, 0.1, 0.3] { c.append(score: s, species: "replay") }
        #expect(!a.isIdentical(to: c))
    }

    /// Scores are compared bit for bit (one memcmp over the buffers): -0 differs from +0, a NaN
    /// payload from the plain NaN, a change in the last score is seen, and copies in buffers of
    /// their own are identical; empty sets are identical.
    @Test func scoreSetIdentityIsBitForBit() {
        func set(_ scores: [Double]) -> ScoreSet {
            var set = ScoreSet()
            for s in scores { set.append(score: s, species: nil) }
            return set
        }
        let scores = (0..<1000).map { Double($0) / 7 } + [.infinity, -.infinity, .nan, 0]
        #expect(set(scores).isIdentical(to: set(scores)))
        #expect(ScoreSet().isIdentical(to: ScoreSet()))
        var zero = scores
        zero[zero.count - 1] = -0.0
        #expect(!set(scores).isIdentical(to: set(zero)))
        var payload = scores
        payload[payload.count - 2] = Double(nan: 1, signaling: false)
        #expect(!set(scores).isIdentical(to: set(payload)))
        var last = scores
        last[last.count - 1] = Double.leastNonzeroMagnitude
        #expect(!set(scores).isIdentical(to: set(last)))
    }

    @Test func curveIsExactSteps() throws {
        let curve = try ErrorCurve(Self.set())
        // Distinct processed scores ascending, then the terminal threshold: the shortest decimal
        // above the highest score (1 above 0.9), never +inf.
        #expect(curve.thresholds == [0.1, 0.2, 0.4, 0.5, 0.7, 0.8, 0.9, 1])
        #expect(curve.hasTerminalPoint)
        #expect((0..<curve.count).map { curve.bonaFideRejected[$0] } == [0, 0, 0, 1, 1, 1, 2, 3])
        #expect((0..<curve.count).map { curve.pooledAccepted[$0] } == [5, 4, 3, 3, 1, 0, 0, 0])
    }

    @Test func thresholdsForTargets() throws {
        let curve = try ErrorCurve(Self.set())
        // APCER_max <= 0.5 (bob.pad.base): print's far_threshold is 0.7 (1/2), replay's is 0.5
        // (#(>= 0.5) = 2 of 3 > 0.5, so 0.5 fails; none of replay's scores qualifies -> above 0.5);
        // the maximum over species is print's 0.7.
        #expect(try ThresholdCriterion.bpcerAtAPCER(0.5).threshold(on: curve) == 0.7)
        // APCER <= 0: bob.measure's far_threshold gives nextafter(0.7, +inf), the next double above
        // the highest attack score, not the next score of the set (bona fide 0.8): a threshold
        // applied to eval must be that double (0.75 on eval is accepted by it, rejected at 0.8).
        let zero = try ThresholdCriterion.bpcerAtAPCER(0).choose(on: curve)
        #expect(zero.threshold == 0.7.nextUp && zero.threshold.description == "0.7000000000000001")
        #expect(zero.point == curve.thresholds.firstIndex(of: 0.8) && zero.targetMet)
        // BPCER <= 1/3: highest bona fide score with BPCER <= 1/3 is 0.8 (rejects 0.4 only).
        #expect(try ThresholdCriterion.apcerAtBPCER(0.34).threshold(on: curve) == 0.8)
    }

    /// Item: a sample another gate rejects stays rejected at every threshold. By hand: bona fide
    /// {0.9, 0.6, 0.3} plus one rejected by another gate; attacks (print) {0.8, 0.5, 0.2} plus one
    /// rejected. n_bf = 4, n_att = 4. Points: 0.2 (APCER 3/4, BPCER 1/4), 0.3 (2/4, 1/4),
    /// 0.5 (2/4, 2/4), 0.6 (1/4, 2/4), 0.8 (1/4, 3/4), 0.9 (0, 3/4), 1 (0, 1).
    /// |APCER - BPCER| is 0 at 0.5 only: the candidate between 0.3 and 0.5, printed 0.4. EER = 0.5.
    @Test func eerWithOtherGatesHeldFixedHasNoInfiniteThreshold() throws {
        var set = ScoreSet()
        for s in [0.9, 0.6, 0.3] { set.append(score: s, species: nil) }
        for s in [0.8, 0.5, 0.2] { set.append(score: s, species: "print") }
        set.appendRejectedAtEveryThreshold(species: nil)
        set.appendRejectedAtEveryThreshold(species: "print")
        let curve = try ErrorCurve(set)
        #expect(curve.thresholds == [0.2, 0.3, 0.5, 0.6, 0.8, 0.9, 1])
        #expect(!curve.thresholds.contains { !$0.isFinite })
        #expect((0..<curve.count).map { curve.apcerMax($0).value } == [0.75, 0.5, 0.5, 0.25, 0.25, 0, 0])
        #expect((0..<curve.count).map { curve.bpcer($0) } == [0.25, 0.25, 0.5, 0.5, 0.75, 0.75, 1])
        let eer = try EqualErrorRate(curve)
        #expect(eer.threshold == 0.4)
        #expect(eer.apcerMax == 0.5 && eer.bpcer == 0.5)
    }

    /// +inf is a score above every finite one: bona fide {inf, 0.9} vs attacks {0.1, 0.2} is
    /// perfectly separated (AUC 1; the old sweep stopped at +inf and gave 0.5). No terminal point
    /// exists above +inf, and APCER <= 0 cannot be met when an attack scores +inf.
    @Test func infiniteScoresCount() throws {
        var set = ScoreSet()
        for s in [Double.infinity, 0.9] { set.append(score: s, species: nil) }
        for s in [0.1, 0.2] { set.append(score: s, species: "print") }
        let curve = try ErrorCurve(set)
        #expect(areaUnderROC(curve) == 1)
        #expect(curve.thresholds == [0.1, 0.2, 0.9, .infinity])
        #expect(!curve.hasTerminalPoint)

        var attackAtInfinity = ScoreSet()
        for s in [0.9, 0.8] { attackAtInfinity.append(score: s, species: nil) }
        for s in [Double.infinity, 0.2] { attackAtInfinity.append(score: s, species: "print") }
        let choice = try ThresholdCriterion.bpcerAtAPCER(0.01).choose(on: try ErrorCurve(attackAtInfinity))
        #expect(!choice.targetMet)
        #expect(areaUnderROC(try ErrorCurve(attackAtInfinity)) == 0.5)
    }

    /// issue 25/27: adjacent distinct scores whose sum or difference overflows (1e308 and -1e308,
    /// +-DBL_MAX, 1e308 and 1.5e308) give finite thresholds inside their gap with every criterion,
    /// and the terminal point above the highest score is computed without overflow (main at
    /// ea3c17e trapped in ShortestDecimal on log10(NaN)).
    @Test func thresholdsBetweenScoresWhoseDifferenceOverflows() throws {
        let pairs: [(Double, Double)] = [
            (-1e308, 1e308), (-.greatestFiniteMagnitude, .greatestFiniteMagnitude), (1e308, 1.5e308),
            (-1.5e308, -1e308),
        ]
        for (attack, bonaFide) in pairs {
            var set = ScoreSet()
            set.append(score: attack, species: "print")
            set.append(score: attack, species: "print")
            set.append(score: bonaFide, species: nil)
            let curve = try ErrorCurve(set)
            #expect(curve.thresholds.last! > bonaFide)
            let eer = try EqualErrorRate(curve)
            #expect(eer.threshold > attack && eer.threshold <= bonaFide && eer.threshold.isFinite)
            #expect(eer.value == 0)
            for text in ["eer", "min-hter", "bpcer@apcer=0.01", "bpcer@apcer=0.5", "apcer@bpcer=0.1", "bpcer@apcer=1"] {
                let choice = try ThresholdCriterion(parsing: text).choose(on: curve)
                #expect(!choice.threshold.isNaN, "\(text) on \(attack), \(bonaFide)")
                #expect(choice.threshold.description == "\(choice.threshold)")
            }
        }
        #expect(EqualErrorRate.midpoint(1e308, 1.5e308) == 1.25e308)
        #expect(EqualErrorRate.midpoint(-1e308, 1e308) == 0)
        #expect(ShortestDecimal.between(-1e308, 1e308) == 0)
        #expect(ShortestDecimal.between(1e308, .infinity) > 1e308)
        #expect(ShortestDecimal.between(.greatestFiniteMagnitude, .infinity) == .infinity)
    }

    /// Rates from counts as one exact fraction rounded once: ACER 0.425 from APCER 13/20 and
    /// BPCER 1/5 prints `0.425` ((13/20 + 1/5) / 2 in floating point, as main at ea3c17e computed
    /// it, gives 0.42500000000000004).
    @Test func meanRatesAreExactFractions() {
        let a = Proportion(errors: 13, total: 20), b = Proportion(errors: 1, total: 5)
        #expect((a.value + b.value) / 2 == 0.42500000000000004)
        #expect(Proportion.mean(a, b) == 0.425)
        #expect("\(Proportion.mean(a, b))" == "0.425")
        let counts = OperatingPoint.Counts(
            speciesNames: ["print"], bonaFide: 5, bonaFideRejected: 1, attacks: [20], attacksAccepted: [13])
        #expect(OperatingPoint(threshold: 1, counts: counts).acer == 0.425)
    }

    @Test func shortestDecimalBetweenScores() {
        #expect(ShortestDecimal.between(0.5698, 0.57) == 0.5699)
        #expect(ShortestDecimal.between(0.3, 0.5) == 0.4)
        #expect(ShortestDecimal.between(0.9, .infinity) == 1)
        #expect(ShortestDecimal.between(2.1e-6, 2.2e-6) == 2.15e-6)
        let d = ShortestDecimal.between(1.0, 1.0.nextUp)
        #expect(d > 1.0 && d <= 1.0.nextUp)
    }

    /// A one-class set still has a curve: APCER per species for attack-only sets, BPCER for bona
    /// fide-only ones; the missing class's rate is NaN and EER is an error naming the class.
    @Test func oneClassSetsKeepTheirRates() throws {
        var attacksOnly = ScoreSet()
        attacksOnly.append(score: 0.3, species: "print")
        attacksOnly.append(score: 0.7, species: "print")
        let curve = try ErrorCurve(attacksOnly)
        let point = OperatingPoint(curve: curve, threshold: 0.5)
        #expect(point.apcer == [Proportion(errors: 1, total: 2)])
        #expect(point.bpcer.value.isNaN)
        #expect(throws: MetricsError.noBonaFide) { try EqualErrorRate(curve) }
        var bonaFideOnly = ScoreSet()
        bonaFideOnly.append(score: 0.3, species: nil)
        bonaFideOnly.append(score: .nan, species: "print")
        let bonaFideCurve = try ErrorCurve(bonaFideOnly)
        #expect(OperatingPoint(curve: bonaFideCurve, threshold: 0.5).bpcer == Proportion(errors: 1, total: 1))
        #expect(throws: MetricsError.noAttacks) { try EqualErrorRate(bonaFideCurve) }
        var nothing = ScoreSet()
        nothing.append(score: .nan, species: nil)
        #expect(throws: MetricsError.noScores) { try ErrorCurve(nothing) }
    }

    @Test func criterionParsing() throws {
        #expect(try ThresholdCriterion(parsing: "bpcer@apcer=0.01") == .bpcerAtAPCER(0.01))
        #expect(try ThresholdCriterion(parsing: "EER") == .eer)
        #expect(try ThresholdCriterion(parsing: "0.42") == .fixed(0.42))
        #expect(throws: MetricsError.self) { try ThresholdCriterion(parsing: "bpcer@apcer=5") }
        #expect(throws: MetricsError.self) { try ThresholdCriterion(parsing: "nan") }
    }

    /// A curve holds one point per distinct score, not per sample: 100,000 scores of three values
    /// (bona fide 0.2 and 0.8, print 0.5) give points 0.2, 0.5, 0.8 and the terminal 1 (the shortest
    /// decimal above 0.8), and its arrays are sized for those few points (before: for 100,001).
    @Test func curvesOfTiedScoresHoldTheirPointsOnly() throws {
        var set = ScoreSet()
        for i in 0..<100_000 {
            if i % 2 == 0 {
                set.append(score: i % 4 == 0 ? 0.2 : 0.8, species: nil)
            } else {
                set.append(score: 0.5, species: "print")
            }
        }
        let curve = try ErrorCurve(set)
        #expect(curve.thresholds == [0.2, 0.5, 0.8, 1])
        #expect(curve.bonaFideRejected == [0, 25_000, 25_000, 50_000])
        #expect(curve.attackAccepted == [50_000, 50_000, 0, 0] && curve.pooledAccepted == [50_000, 50_000, 0, 0])
        for capacity in [
            curve.thresholds.capacity, curve.bonaFideRejected.capacity, curve.attackAccepted.capacity,
            curve.pooledAccepted.capacity,
        ] {
            #expect(capacity < 100)
        }
    }
}

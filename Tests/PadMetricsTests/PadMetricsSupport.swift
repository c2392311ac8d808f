import Testing
@testable import PadMetrics

/// Values from scipy.stats.beta.ppf (SciPy 1.17): lo = beta.ppf(0.025, x, n-x+1), hi = beta.ppf(0.975, x+1, n-x).
@Suite struct ClopperPearsonTests {
    @Test(arguments: [
        (3, 100, 0.006229971538306395, 0.08517605297428002),
        (0, 50, 0.0, 0.07112173646419764),
        (50, 50, 0.9288782635358024, 1.0),
        (1, 1, 0.025, 1.0),
        (7, 13, 0.25134548227030357, 0.807767558198712),
    ])
    func matchesScipy(_ x: Int, _ n: Int, _ low: Double, _ high: Double) {
        let interval = ClopperPearson.interval(errors: x, total: n)
        #expect(abs(interval.low - low) < 1e-12)
        #expect(abs(interval.high - high) < 1e-12)
    }

    @Test func zeroErrorsUpperBoundIsNearThreeOverN() {
        // The "rule of three": with no errors in N, the 95% upper bound is about 3/N.
        let high = ClopperPearson.interval(errors: 0, total: 1000).high
        #expect(high > 0.0029 && high < 0.0037)
    }
}

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

    @Test func curveIsExactSteps() throws {
        let curve = try ErrorCurve(Self.set())
        // Distinct processed scores ascending, then +inf.
        #expect(curve.thresholds == [0.1, 0.2, 0.4, 0.5, 0.7, 0.8, 0.9, .infinity])
        #expect((0..<curve.count).map { curve.bonaFideRejected[$0] } == [0, 0, 0, 1, 1, 1, 2, 3])
        #expect((0..<curve.count).map { curve.pooledAccepted[$0] } == [5, 4, 3, 3, 1, 0, 0, 0])
    }

    @Test func thresholdsForTargets() throws {
        let curve = try ErrorCurve(Self.set())
        // APCER_max <= 0.5: at 0.7 print 1/2, replay 0 -> lowest attack score meeting it is 0.7.
        #expect(ThresholdCriterion.bpcerAtAPCER(0.5).threshold(on: curve) == 0.7)
        // APCER <= 0: next double above the highest attack score 0.7.
        #expect(ThresholdCriterion.bpcerAtAPCER(0).threshold(on: curve) == 0.7.nextUp)
        // BPCER <= 1/3: highest bona fide score with BPCER <= 1/3 is 0.8 (rejects 0.4 only).
        #expect(ThresholdCriterion.apcerAtBPCER(0.34).threshold(on: curve) == 0.8)
    }

    @Test func noBonaFideOrNoAttackIsAnError() {
        var attacksOnly = ScoreSet()
        attacksOnly.append(score: 0.3, species: "print")
        #expect(throws: MetricsError.noBonaFide) { try ErrorCurve(attacksOnly) }
        var bonaFideOnly = ScoreSet()
        bonaFideOnly.append(score: 0.3, species: nil)
        bonaFideOnly.append(score: .nan, species: "print")
        #expect(throws: MetricsError.noAttacks) { try ErrorCurve(bonaFideOnly) }
    }

    @Test func criterionParsing() throws {
        #expect(try ThresholdCriterion(parsing: "bpcer@apcer=0.01") == .bpcerAtAPCER(0.01))
        #expect(try ThresholdCriterion(parsing: "EER") == .eer)
        #expect(try ThresholdCriterion(parsing: "0.42") == .fixed(0.42))
        #expect(throws: MetricsError.self) { try ThresholdCriterion(parsing: "bpcer@apcer=5") }
    }
}

@Suite struct RadixSortTests {
    @Test func sortsLikeTheStandardLibraryIncludingNegativesZerosAndInfinities() {
        var generator = SystemRandomNumberGenerator()
        var values = (0..<20_000).map { _ in Double.random(in: -1e6...1e6, using: &generator) }
        values += [0.0, -0.0, .infinity, -.infinity, 1e-300, -1e-300, .leastNonzeroMagnitude, .greatestFiniteMagnitude]
        var mine = values
        RadixSort.sort(&mine)
        #expect(mine == values.sorted())
    }
}

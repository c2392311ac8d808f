import Foundation
import Testing
@testable import PadMetrics

/// ``DecidabilityIndex`` against pyeer 0.5.6 (`get_eer_stats`, `get_decidability_value`;
/// Fixtures/golden/make_golden_roc_fusion.py), and by hand.
@Suite struct DecidabilityIndexTests {
    /// Means, population deviations and d' of the score sets (NaN scores dropped before pyeer).
    @Test(arguments: RocFusionFixtures.scoreSets)
    func equalsPyeerOnScoreSets(_ name: String) throws {
        let (set, expected) = try RocFusionFixtures.scoreSet(name)
        let reference = expected["decidability"] as! [String: Double]
        let d = DecidabilityIndex(set)
        #expect(d.bonaFideCount == expected["n_bonafide"] as! Int)
        #expect(d.attackCount == expected["n_attack"] as! Int)
        #expect(RocFusionFixtures.close(d.bonaFideMean, reference["gmean"]!), "\(name) genuine mean")
        #expect(RocFusionFixtures.close(d.bonaFideStandardDeviation, reference["gstd"]!), "\(name) genuine std")
        #expect(RocFusionFixtures.close(d.attackMean, reference["imean"]!), "\(name) impostor mean")
        #expect(RocFusionFixtures.close(d.attackStandardDeviation, reference["istd"]!), "\(name) impostor std")
        #expect(RocFusionFixtures.close(d.value, reference["value"]!), "\(name) d'")
    }

    /// Small cases: both deviations 0 (pyeer's 1), one deviation 0, the hand case below.
    @Test func equalsPyeerOnSmallCases() throws {
        for case let row as [String: Any] in try RocFusionFixtures.json("roc_decidability_cases") as! [Any] {
            let d = DecidabilityIndex(bonaFide: row["bonafide"] as! [Double], attacks: row["attack"] as! [Double])
            #expect(RocFusionFixtures.close(d.value, row["value"] as! Double), "\(row)")
        }
    }

    /// bona fide 0.8, 0.6: mean 0.7, population deviation sqrt((0.01 + 0.01) / 2) = 0.1;
    /// attacks 0.3, 0.1: mean 0.2, deviation 0.1. d' = |0.7 - 0.2| / sqrt((0.01 + 0.01) / 2) = 5.
    /// With the sample deviation (n - 1) it would be 0.5 / sqrt(0.02) = 3.54.
    @Test func fourScoresByHand() {
        let d = DecidabilityIndex(bonaFide: [0.8, 0.6], attacks: [0.3, 0.1])
        #expect(abs(d.value - 5) < 1e-12)
        #expect(abs(d.bonaFideStandardDeviation - 0.1) < 1e-12 && abs(d.attackMean - 0.2) < 1e-12)
    }

    /// NaN scores are failures: dropped, not propagated; an empty class gives NaN.
    @Test func nanScoresAreDroppedAndAnEmptyClassIsNaN() {
        let clean = DecidabilityIndex(bonaFide: [0.8, 0.6], attacks: [0.3, 0.1])
        let failed = DecidabilityIndex(bonaFide: [0.8, .nan, 0.6], attacks: [.nan, 0.3, 0.1])
        #expect(failed == clean)
        #expect(DecidabilityIndex(bonaFide: [0.8], attacks: [.nan]).value.isNaN)
    }

    /// From the set's curve (what a run reports): pyeer's values, to rounding, on the score sets.
    @Test(arguments: RocFusionFixtures.scoreSets)
    func fromTheCurveEqualsPyeer(_ name: String) throws {
        let (set, expected) = try RocFusionFixtures.scoreSet(name)
        let reference = expected["decidability"] as! [String: Double]
        let d = DecidabilityIndex(try ErrorCurve(set))
        #expect(d.bonaFideCount == expected["n_bonafide"] as! Int && d.attackCount == expected["n_attack"] as! Int)
        #expect(RocFusionFixtures.close(d.bonaFideMean, reference["gmean"]!), "\(name) genuine mean")
        #expect(RocFusionFixtures.close(d.attackStandardDeviation, reference["istd"]!), "\(name) impostor std")
        #expect(RocFusionFixtures.close(d.value, reference["value"]!), "\(name) d'")
    }

    /// From the curve, d' depends on the scores, not on the samples' order: the same set in
    /// reverse order gives the same bits (summed in the set's order the two differ in the last
    /// bit here, which made a merged run's summary.csv differ from the single run's). Samples
    /// rejected at every threshold are not counted.
    @Test func fromTheCurveIgnoresTheSamplesOrder() throws {
        var forward = ScoreSet(), backward = ScoreSet()
        var samples: [(Double, String?)] = []
        for i in 0..<200 {
            let score: Double = Double((i * 37) % 101) / 70
            samples.append((score, i % 3 == 0 ? nil : "print"))
        }
        for (score, species) in samples { forward.append(score: score, species: species) }
        for (score, species) in samples.reversed() { backward.append(score: score, species: species) }
        forward.appendRejectedAtEveryThreshold(species: nil)
        let a = DecidabilityIndex(try ErrorCurve(forward)), b = DecidabilityIndex(try ErrorCurve(backward))
        #expect(a == b)
        #expect(DecidabilityIndex(forward).value != DecidabilityIndex(backward).value)
        #expect(a.bonaFideCount == 67 && a.attackCount == 133)
        #expect(RocFusionFixtures.close(a.value, DecidabilityIndex(forward).value))
    }
}

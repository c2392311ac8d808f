import Foundation
import Testing
@testable import PadMetrics

/// ``ROCCurve`` against `sklearn.metrics.roc_curve` and `roc_auc_score` (scikit-learn 1.9.1,
/// Fixtures/golden/make_golden_roc_fusion.py), and by hand.
@Suite struct ROCCurveTests {
    /// Every point of scikit-learn's curve, both with and without drop_intermediate: rates to
    /// 1e-12, thresholds as the exact doubles (the first one +inf).
    @Test(arguments: RocFusionFixtures.scoreSets)
    func pointsEqualScikitLearnRocCurve(_ name: String) throws {
        let (set, expected) = try RocFusionFixtures.scoreSet(name)
        let curve = try ErrorCurve(set)
        #expect(curve.bonaFideCount == expected["n_bonafide"] as! Int)
        #expect(curve.attackCount == expected["n_attack"] as! Int)
        for (key, drop) in [("roc_all", false), ("roc_dropped", true)] {
            let roc = try ROCCurve(curve, dropIntermediate: drop)
            let reference = expected[key] as! [[Double]]
            #expect(roc.points.count == reference.count, "\(name) \(key): number of points")
            for (point, row) in zip(roc.points, reference) {
                #expect(RocFusionFixtures.close(point.falsePositiveRate, row[0]), "\(name) \(key) fpr at \(row[2])")
                #expect(RocFusionFixtures.close(point.truePositiveRate, row[1]), "\(name) \(key) tpr at \(row[2])")
                #expect(point.threshold == row[2], "\(name) \(key) threshold")
            }
        }
    }

    /// The trapezoid area equals roc_auc_score, with or without the collinear points, and
    /// padbench's Mann-Whitney AUC (``areaUnderROC(_:)``).
    @Test(arguments: RocFusionFixtures.scoreSets)
    func areaEqualsScikitLearnAndTheMannWhitneyAUC(_ name: String) throws {
        let (set, expected) = try RocFusionFixtures.scoreSet(name)
        let curve = try ErrorCurve(set)
        let auc = expected["auc"] as! Double
        #expect(RocFusionFixtures.close(try ROCCurve(curve).area, auc), "\(name) AUC")
        #expect(RocFusionFixtures.close(try ROCCurve(curve, dropIntermediate: false).area, auc), "\(name) AUC, all")
        #expect(RocFusionFixtures.close(areaUnderROC(curve), try ROCCurve(curve).area), "\(name) Mann-Whitney")
    }

    /// bona fide 0.9, 0.5; attacks 0.5, 0.1. Thresholds from the top: 0.9 accepts one bona fide
    /// (tpr 1/2, fpr 0); 0.5 accepts both bona fide and one attack (tpr 1, fpr 1/2); 0.1 accepts
    /// everything. No point is collinear with its neighbours (tps 1, 2, 2 bends), so dropping keeps
    /// all. Area: 0 + 1/2 (1/2 + 1) / 2 + 1/2 (1 + 1) / 2 = 0.875 = (3 pairs won + 1 tie / 2) / 4.
    @Test func twoAgainstTwoByHand() throws {
        var set = ScoreSet()
        for s in [0.9, 0.5] { set.append(score: s, species: nil) }
        for s in [0.5, 0.1] { set.append(score: s, species: "print") }
        let expected: [ROCCurve.Point] = [
            .init(falsePositiveRate: 0, truePositiveRate: 0, threshold: .infinity),
            .init(falsePositiveRate: 0, truePositiveRate: 0.5, threshold: 0.9),
            .init(falsePositiveRate: 0.5, truePositiveRate: 1, threshold: 0.5),
            .init(falsePositiveRate: 1, truePositiveRate: 1, threshold: 0.1),
        ]
        #expect(try ROCCurve(set, dropIntermediate: false).points == expected)
        #expect(try ROCCurve(set).points == expected)
        #expect(try ROCCurve(set).area == 0.875)
    }

    /// A bona fide rejected at every threshold counts in the denominator and reads as scoring
    /// below every score: the curve ends at (1, 1) at -inf. bona fide 0.9 and one held; attack
    /// 0.1. Points: (0, 0) +inf, (0, 1/2) 0.9, (1, 1/2) 0.1, (1, 1) -inf; area 1/2, the
    /// Mann-Whitney count (0.9 beats 0.1; the held one loses): 1 of 2 pairs.
    @Test func samplesRejectedAtEveryThresholdEndTheCurveAtMinusInfinity() throws {
        var set = ScoreSet()
        set.append(score: 0.9, species: nil)
        set.appendRejectedAtEveryThreshold(species: nil)
        set.append(score: 0.1, species: "print")
        let roc = try ROCCurve(set)
        #expect(roc.points.map(\.threshold) == [.infinity, 0.9, 0.1, -.infinity])
        #expect(roc.points.map(\.falsePositiveRate) == [0, 0, 1, 1])
        #expect(roc.points.map(\.truePositiveRate) == [0, 0.5, 0.5, 1])
        let curve = try ErrorCurve(set)
        #expect(roc.area == 0.5 && areaUnderROC(curve) == 0.5)
    }

    @Test func oneClassThrows() throws {
        var set = ScoreSet()
        set.append(score: 0.4, species: nil)
        #expect(throws: MetricsError.noAttacks) { _ = try ROCCurve(set) }
    }
}

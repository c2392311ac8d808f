import Foundation
import Testing
@testable import PadMetrics

/// ``ZeroErrorPoints`` against pyeer 0.5.6's ZeroFMR / ZeroFNMR (`get_eer_stats`, `get_fmr_op`,
/// `get_fnmr_op`; Fixtures/golden/make_golden_roc_fusion.py), and by hand.
@Suite struct ZeroErrorPointsTests {
    /// Threshold (the exact double), both rates and both counts at each of pyeer's two points.
    /// roc_ties_nan has an attack tied with a bona fide at the highest score, so pyeer's ZeroFMR
    /// point keeps one attack accepted there (1/45); roc_small has an attack alone on top.
    @Test(arguments: RocFusionFixtures.scoreSets)
    func equalPyeer(_ name: String) throws {
        let (set, expected) = try RocFusionFixtures.scoreSet(name)
        let zero = try ZeroErrorPoints(try ErrorCurve(set))
        for (point, key) in [(zero.bpcerAtZeroAPCER, "zero_fmr"), (zero.apcerAtZeroBPCER, "zero_fnmr")] {
            let reference = expected[key] as! [String: Any]
            #expect(point.threshold == reference["threshold"] as! Double, "\(name) \(key) threshold")
            #expect(point.apcerPooled.errors == reference["fm"] as! Int, "\(name) \(key) attacks accepted")
            #expect(point.bpcer.errors == reference["fnm"] as! Int, "\(name) \(key) bona fide rejected")
            #expect(RocFusionFixtures.close(point.apcerPooled.value, reference["fmr"] as! Double), "\(name) \(key)")
            #expect(RocFusionFixtures.close(point.bpcer.value, reference["fnmr"] as! Double), "\(name) \(key)")
        }
    }

    /// bona fide 0.9, 0.5; attacks 0.5, 0.1 (score >= t accepted). Thresholds 0.1, 0.5, 0.9 accept
    /// 2, 1, 0 attacks and reject 0, 0, 1 bona fide. APCER first reaches 0 at 0.9: BPCER 1/2.
    /// BPCER is last 0 at 0.5, the lowest bona fide score, where the tied attack is accepted:
    /// APCER 1/2.
    @Test func twoAgainstTwoByHand() throws {
        var set = ScoreSet()
        for s in [0.9, 0.5] { set.append(score: s, species: nil) }
        for s in [0.5, 0.1] { set.append(score: s, species: "print") }
        let zero = try ZeroErrorPoints(try ErrorCurve(set))
        #expect(zero.bpcerAtZeroAPCER.threshold == 0.9)
        #expect(zero.bpcerAtZeroAPCER.bpcer == Proportion(errors: 1, total: 2))
        #expect(zero.bpcerAtZeroAPCER.apcerPooled == Proportion(errors: 0, total: 2))
        #expect(zero.apcerAtZeroBPCER.threshold == 0.5)
        #expect(zero.apcerAtZeroBPCER.apcerPooled == Proportion(errors: 1, total: 2))
        #expect(zero.apcerAtZeroBPCER.bpcer == Proportion(errors: 0, total: 2))
    }
}

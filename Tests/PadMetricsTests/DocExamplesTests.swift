import Foundation
import PadText
import Testing

@testable import PadMetrics

/// The examples of PadMetrics' and PadText's doc comments, compiled and checked here
/// (`DocCommentExamplesTests` holds each comment to its copy below).
@Suite struct PadMetricsDocExamples {
    /// ``Proportion``: the 95% Clopper-Pearson interval of 3/100 is [0.0062, 0.0852]
    /// (scipy 1.x: beta.ppf(0.025, 3, 98) = 0.0062299715383064, beta.ppf(0.975, 4, 97) = 0.0851760529742800).
    @Test func proportion() {
        let apcer = Proportion(errors: 3, total: 100) // 0.03, CI [0.0062, 0.0852]
        #expect(apcer.value == 0.03)
        #expect(abs(apcer.interval.low - 0.0062299715383064) < 1e-12)
        #expect(abs(apcer.interval.high - 0.0851760529742800) < 1e-12)
    }

    static func twoSpecies() -> ScoreSet {
        var set = ScoreSet()
        for score in [0.2, 0.6, 0.9] { set.append(score: score, species: nil) }
        set.append(score: 0.1, species: "print")
        set.append(score: 0.7, species: "replay")
        return set
    }

    /// ``ErrorCurve``: a point at each distinct score (accept when score >= threshold) and one above
    /// them all. At 0.2 the print attack (0.2) is accepted; at 0.9 it is rejected and the bona fide
    /// (0.9) still accepted.
    @Test func errorCurve() throws {
        var set = ScoreSet()
        set.append(score: 0.9, species: nil)
        set.append(score: 0.2, species: "print")
        let curve = try ErrorCurve(set)
        let rows = curve.thresholds.indices.map { k in (curve.thresholds[k], curve.bpcer(k), curve.apcerMax(k).value) }
        // The last point lies above every score: everything rejected there.
        #expect(rows.map(\.0) == [0.2, 0.9, 1.0] && rows.map(\.1) == [0, 0, 1] && rows.map(\.2) == [1, 0, 0])
    }

    /// ``EqualErrorRate``: bona fide 0.2, 0.6, 0.9; print 0.1, replay 0.7. By hand, bob's candidates
    /// and |APCER_max - BPCER|: 0.15 -> |1 - 0| (replay accepted), 0.4 -> |1 - 1/3|,
    /// 0.65 -> |1 - 2/3|, 0.8 -> |0 - 2/3|. The smallest gap is at bob's midpoint (0.6 + 0.7) / 2,
    /// the double 0.6499999999999999, and the EER is (1 + 2/3) / 2 = 5/6.
    @Test func equalErrorRate() throws {
        let set = Self.twoSpecies()
        let eer = try EqualErrorRate(try ErrorCurve(set))
        let (threshold, rate) = (eer.threshold, eer.value) // rate = (APCER_max + BPCER) / 2 there
        #expect(threshold == (0.6 + 0.7) / 2 && threshold == 0.6499999999999999)
        #expect(rate == 5.0 / 6 && eer.apcerMax == 1 && eer.bpcer == 2.0 / 3)
    }

    /// ``OperatingPoint``: at 0.5 replay (0.7) is accepted, print rejected; bona fide 0.2 rejected.
    @Test func operatingPoint() throws {
        let set = Self.twoSpecies()
        let point = OperatingPoint(curve: try ErrorCurve(set), threshold: 0.5)
        let (apcerMax, worstSpecies, bpcer) = (point.apcerMax.value, point.apcerMaxSpecies, point.bpcer.value)
        #expect(apcerMax == 1 && worstSpecies == "replay" && bpcer == 1.0 / 3)
    }

    /// ``ScoreSet``: a NaN is a failure to process, left out of the headline rates and counted in
    /// the non-response rate (APNRR = 1 failed of 2 attacks).
    @Test func scoreSet() throws {
        var set = ScoreSet()
        set.append(score: 0.91, species: nil) // bona fide
        set.append(score: 0.12, species: "print") // attack
        set.append(score: .nan, species: "replay") // failure to process (FTA)
        let point = OperatingPoint(curve: try ErrorCurve(set), threshold: 0.5)
        #expect(point.bpcer.value == 0 && point.apcerMax.value == 0)
        #expect(point.apnrr.errors == 1 && point.apnrr.total == 2)
    }

    /// ``ThresholdCriterion``: APCER <= 1% per species on dev means above every attack (0.7), so
    /// bob.pad.base's rule gives the next representable double above it.
    @Test func thresholdCriterion() throws {
        let curve = try ErrorCurve(Self.twoSpecies())
        let criterion = try ThresholdCriterion(parsing: "bpcer@apcer=0.01")
        let t = try criterion.threshold(on: curve)
        #expect(t == 0.7.nextUp)
    }

    /// ``McNemar``: P(X >= 12 | X ~ Binomial(14, 1/2)) = (91 + 14 + 1) / 2^14 = 0.00647.
    @Test func mcNemar() {
        // 12 attacks accepted now that were rejected before, 2 the other way round:
        let p = McNemar.oneSidedPValue(worse: 12, better: 2) // 0.0065
        #expect(abs(p - 106.0 / 16384) < 1e-12)
    }

    /// ``QuantileInterval``: the median of 1...9 is 5.
    @Test func quantileInterval() {
        let times = (1...9).map(Double.init)
        let ci = QuantileInterval(sorted: times, quantile: 0.5, confidence: 0.975)
        let (median, low, high) = (ci.estimate, ci.low, ci.high)
        #expect(median == 5 && low < median && high > median)
    }

    /// ``TimingHistogram``: one value, so every percentile is that value within 0.1%.
    @Test func timingHistogram() {
        var decode = TimingHistogram()
        decode.record(nanoseconds: 1_250_000)
        let summary = decode.summary(wallSeconds: 12.5)
        let p99 = summary.p99Nanoseconds
        #expect(abs(Double(p99) - 1_250_000) <= 1250 && summary.throughput == 0.08)
    }

    /// ``Parallel``: both steps run and return their own result.
    @Test func parallelBoth() throws {
        let set = Self.twoSpecies()
        let (curve, negated) = try Parallel.both({ try ErrorCurve(set) }, { SortedScores(set).negated() })
        #expect(curve.thresholds.prefix(5) == [0.1, 0.2, 0.6, 0.7, 0.9])
        #expect(try ErrorCurve(sorted: negated).thresholds.prefix(5) == [-0.9, -0.7, -0.6, -0.2, -0.1])
    }

    /// ``ScoreFileReader``: compiled only (the paths are relative to a working directory).
    static func scoreFileReader() throws -> [ImportedScores] {
        let scores = try ScoreFileReader().read(["scores.csv"]) // format auto-detected
        let nist = try ScoreFileReader(polarity: .attackHigh).read(["nist.csv"], format: .generic)
        return [scores, nist]
    }
}

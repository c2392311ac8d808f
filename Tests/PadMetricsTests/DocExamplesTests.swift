import Foundation
import PadText
import Testing
import TestSupport

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

    /// ``BackgroundLane``: the rows written in the order enqueued, and the file closed.
    @Test func backgroundLane() throws {
        let path = TestFolder.root + "/lane-\(UUID().uuidString).csv"
        FileManager.default.createFile(atPath: path, contents: nil)
        let lane = BackgroundLane(try FileHandle(forWritingTo: URL(fileURLWithPath: path)))
        lane.enqueue { try $0.write(contentsOf: Array("id,score\n".utf8)) }
        lane.enqueue { try $0.write(contentsOf: Array("a.jpg,0.9\n".utf8)) }
        lane.enqueue { try $0.close() }
        try lane.wait() // both rows written in order and the file closed, or the first error
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "id,score\na.jpg,0.9\n")
    }

    /// ``BackgroundValue``: the sum, computed on another thread.
    @Test func backgroundValue() throws {
        let sum = BackgroundValue { (1...100).reduce(0, +) }
        let total = try sum.wait() // 5050, computed on another thread
        #expect(total == 5050)
    }

    /// ``ScoreFileReader``: compiled only (the paths are relative to a working directory).
    static func scoreFileReader() throws -> [ImportedScores] {
        let scores = try ScoreFileReader().read(["scores.csv"]) // format auto-detected
        let nist = try ScoreFileReader(polarity: .attackHigh).read(["nist.csv"], format: .generic)
        return [scores, nist]
    }
}

/// The examples of the comparator, EPSC, ROC, d', zero-error and fusion doc comments.
@Suite struct PadMetricsSystemDocExamples {
    /// ``DecidabilityIndex``: means 0.7 and 0.2, population deviations 0.1 each, so
    /// d' = 0.5 / sqrt((0.01 + 0.01) / 2) = 5.
    @Test func decidability() {
        let d = DecidabilityIndex(bonaFide: [0.8, 0.6], attacks: [0.3, 0.1]).value // 5 (to rounding)
        #expect(abs(d - 5) < 1e-9)
    }

    /// ``ROCCurve``: bona fide 0.2, 0.6, 0.9 against attacks 0.1 and 0.7: 4 of the 6 pairs are
    /// ordered right, AUC = 4/6.
    @Test func roc() throws {
        let set = PadMetricsDocExamples.twoSpecies()
        let roc = try ROCCurve(try ErrorCurve(set), dropIntermediate: false)
        for point in roc.points { print(point.falsePositiveRate, point.truePositiveRate, point.threshold) }
        let auc = roc.area // sklearn.metrics.roc_auc_score
        #expect(abs(auc - 4.0 / 6.0) < 1e-12)
    }

    /// ``ZeroErrorPoints``: no attack is accepted above 0.7, where the bona fide 0.2 and 0.6 are
    /// rejected: BPCER 2/3 at APCER 0.
    @Test func zeroErrorPoints() throws {
        let set = PadMetricsDocExamples.twoSpecies()
        let zero = try ZeroErrorPoints(try ErrorCurve(set))
        print(zero.bpcerAtZeroAPCER.bpcer.value, zero.bpcerAtZeroAPCER.threshold)
        #expect(zero.bpcerAtZeroAPCER.bpcer.errors == 2 && zero.bpcerAtZeroAPCER.bpcer.total == 3)
    }

    /// ``VulnerabilityRates``: at FMR 1% on two impostors the threshold lies above both (0.6 is
    /// the higher); the genuine 0.65 and 0.9 match, the print attack (0.8) matches, the mask does not.
    @Test func vulnerabilityAtAnFMR() throws {
        let scores = ComparatorScores(
            genuine: [0.9, 0.65], zeroEffortImpostors: [0.2, 0.6], attacks: [0.8, 0.4],
            attackSpecies: ["print", "mask"])
        let t = try ComparatorThreshold.fmr(0.01).choose(on: scores).threshold
        let rates = VulnerabilityRates(scores, threshold: t) // rates.fmr, rates.fnmr, rates.iapmr, rates.iapmrPooled
        #expect(t > 0.6 && rates.fmr.errors == 0 && rates.fnmr.errors == 0)
        #expect(rates.iapmrPooled.errors == 1 && rates.iapmrPooled.total == 2)
    }

    static let scores = ComparatorScores(
        genuine: [0.9, 0.65], zeroEffortImpostors: [0.2, 0.6], attacks: [0.8, 0.4], attackSpecies: ["print", "mask"])

    /// At 0.6 (a score >= t matches) the impostor 0.6 matches: FMR 1/2; IAPMR 1/2 (the print).
    @Test func vulnerabilityAtAThreshold() {
        let scores = Self.scores
        let rates = VulnerabilityRates(scores, threshold: 0.6)
        let (fmr, iapmr) = (rates.fmr.value, rates.iapmrPooled.value)
        #expect(fmr == 0.5 && iapmr == 0.5)
    }

    /// IAPAR: the print attack matches and PAD let it through: 1 of 2 attacks; the mask was
    /// rejected by PAD and by the comparator.
    @Test func systemRates() {
        let scores = Self.scores
        let system = SystemVulnerabilityRates(
            scores, threshold: 0.6, attackPADAccepted: [true, false], genuinePADAccepted: [true, true])
        #expect(system.iaparPooled.errors == 1 && system.iaparPooled.total == 2)
        #expect(system.systemFNMR?.errors == 0)
    }

    /// ``EPSC``: eleven weights (0, 0.1, ..., 1), one beta.
    @Test func epsc() throws {
        let devScores = ComparatorScores(
            genuine: [0.9, 0.8, 0.7], zeroEffortImpostors: [0.1, 0.3, 0.5], attacks: [0.6, 0.4],
            attackSpecies: ["a", "a"])
        let evalScores = devScores
        let epsc = try EPSC(
            dev: try EPSC.Scores(devScores), eval: try EPSC.Scores(evalScores), criterion: .eer,
            omegas: EPSC.weights(points: 10), betas: [0.5])
        let curve = epsc.points[0].map { ($0.omega, $0.werWB, $0.iapmr.value) }
        #expect(curve.count == 11 && curve[0].0 == 0 && curve[10].0 == 1)
    }

    /// ``TrainedFusion``: logistic fusion of two outputs trained on dev, scored on eval.
    @Test func fusion() throws {
        let devCNN = [0.9, 0.8, 0.3, 0.2, 0.7, 0.4], devTexture = [0.6, 0.9, 0.2, 0.5, 0.4, 0.1]
        let devLabels = [true, true, false, false, true, false]
        let evalCNN = [0.85, 0.25], evalTexture = [0.7, 0.3]
        let fusion = try TrainedFusion.train(
            .logistic, outputNames: ["cnn", "texture"], outputs: [devCNN, devTexture], isBonaFide: devLabels)
        let fused = fusion.fusedScores([evalCNN, evalTexture]) // higher = more bona fide
        let data = try JSONEncoder().encode(fusion)
        #expect(fused.count == 2 && fused[0] > fused[1] && !data.isEmpty)
    }
}

import Foundation
import Testing
@testable import PadArchive
@testable import PadEvaluation
@testable import PadMetrics
@testable import PadReport
import PadProfiles
#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite struct HTMLReportTests {
    static func report() throws -> HTMLReport {
        var dev = ScoreSet(), eval = ScoreSet()
        for i in 0..<200 {
            let x = Double(i) / 200
            dev.append(score: x + 0.3, species: nil); eval.append(score: x + 0.25, species: nil)
            dev.append(score: x, species: i % 2 == 0 ? "print" : "replay");
            eval.append(score: x + 0.05, species: i % 2 == 0 ? "print" : "replay")
        }
        let devCurve = try ErrorCurve(dev), evalCurve = try ErrorCurve(eval)
        let threshold = try ThresholdCriterion.bpcerAtAPCER(0.05).threshold(on: devCurve)
        let targets = try [0.01, 0.05, 0.1].map { x -> ProfileResult.Target in
            let c = try ThresholdCriterion.bpcerAtAPCER(x).choose(on: evalCurve)
            return .init(target: x, threshold: c.threshold, rate: evalCurve.bpcer(c.point), targetMet: c.targetMet)
        }
        var metrics = ProfileResult.ScoreMetrics(
            score: "scores.score", curve: evalCurve, eer: try EqualErrorRate(evalCurve),
            bpcerAtAPCER: targets, apcerAtBPCER: [], auc: areaUnderROC(evalCurve))
        metrics.decidability = DecidabilityIndex(eval)
        metrics.zeroErrorPoints = try ZeroErrorPoints(evalCurve)
        let profile = Profile(name: "scores", description: "", source: "test", score: "scores.score", gates: [])
        func set(_ split: String, _ curve: ErrorCurve, _ m: ProfileResult.ScoreMetrics?) -> ProfileResult.SetResult {
            .init(
                split: split, headline: OperatingPoint(curve: curve, threshold: threshold), headlineError: nil,
                scoreMetrics: m,
                scoreError: nil, rejectReasons: [], bonaFideCount: 200, attackCount: 200, failedCount: 0)
        }
        let result = ProfileResult(
            profile: profile, reported: set("eval", evalCurve, metrics), calibrationSet: set("dev", devCurve, nil),
            calibrations: [], thresholdSource: .calibrated(target: "apcer_max<=0.05", split: "dev"))
        let manifest = RunManifest(
            kind: "eval", tool: .init(version: "test", commandLine: ["padbench", "eval"]),
            conventions: Conventions.current,
            dataset: .init(
                name: "scores <&> test", path: "s.csv", layout: "scores:generic", fingerprint: "0", samples: 800),
            estimators: [], profiles: [], machine: .current(concurrency: 1),
            times: .init(started: "t0", finished: "t1", wallSeconds: 1), counts: ["scores": 400])
        let timing = [
            TimingStep(
                name: "decode",
                summary: TimingSummary(
                    count: 10, meanNanoseconds: 1e6, p50Nanoseconds: 900_000, p90Nanoseconds: 1_500_000,
                    p99Nanoseconds: 2_000_000, maxNanoseconds: 2_100_000, throughput: 100))
        ]
        return HTMLReport(manifest: manifest, results: [result], timing: timing)
    }

    @Test func wellFormedSelfContainedAndEveryPlotHasData() throws {
        var report = try Self.report()
        let html = report.render()
        #expect(!html.contains("<script") && !html.contains("src=") && !html.contains("<link"))
        #expect(html.contains("scores &lt;&amp;&gt; test")) // escaped
        let parser = XMLParser(data: Data(html.replacingOccurrences(of: "<!DOCTYPE html>\n", with: "").utf8))
        let counter = ElementCounter()
        parser.delegate = counter
        #expect(parser.parse(), "report.html is not well-formed: \(String(describing: parser.parserError))")
        // The reported set's DET, ROC, threshold and histogram plots, plus latency bars.
        #expect(counter.counts["svg"] == 5)
        #expect(report.plots.count == 5 && report.plots.allSatisfy { $0.points > 0 })
        #expect(counter.polylinePoints.allSatisfy { $0 > 1 })
        #expect(counter.counts["table", default: 0] >= 3)
        for convention in Conventions.current.keys { #expect(html.contains(">\(convention)<")) }
    }

    /// Left-out gates stand in a warning block at the top of the profile's section (before its
    /// plots), also for a profile without a swept score; the page stays well-formed.
    @Test func leftOutGatesAreShownAtTheTopOfTheProfilesSection() throws {
        var report = try Self.report()
        let plain = report.render()
        #expect(!plain.contains("class=\"leftout\""))
        report.results[0].gatesLeftOut = ["scores.score"]
        var capture = report.results[0]
        capture.profile = Profile(
            name: "capture", description: "", source: "test", score: nil,
            gates: [Gate(output: "face.count", comparison: .ge, threshold: 1, code: "NO_FACE", message: "")])
        capture.reported.scoreMetrics = nil
        capture.calibrationSet = nil
        capture.gatesLeftOut = ["face.count"]
        capture.notes = [.approximated([.init(output: "luna.quality", approximation: "quality.blur")])]
        report.results.append(capture)
        let html = report.render()
        let section = try #require(html.range(of: "<h2>scores: scores.score</h2>\n<div class=\"leftout\">"))
        let firstPlot = try #require(html.range(of: "<svg", range: section.upperBound..<html.endIndex))
        let block = String(html[section.upperBound..<firstPlot.lowerBound])
        #expect(block.contains("Gates left out (output not measured in this run): <b>scores.score</b>"))
        #expect(block.contains("<b>Not a liveness decision</b>"))
        let other = try #require(html.range(of: "<h2>capture</h2>\n<div class=\"leftout\">"))
        let rest = String(html[other.upperBound...].prefix(600))
        #expect(
            rest.contains("<b>face.count</b>")
                && rest.contains("approximated on padbench outputs: luna.quality -&gt; quality.blur"))
        let parser = XMLParser(data: Data(html.replacingOccurrences(of: "<!DOCTYPE html>\n", with: "").utf8))
        #expect(parser.parse())
    }

    /// The ROC drawn is scikit-learn's `roc_curve` (drop_intermediate=False, ``ROCCurve``): the
    /// same points, from (0, 0) to (1, 1), read off the curve the DET uses. Here with an attack
    /// tied to a bona fide score (a diagonal segment) and a sample rejected at every threshold
    /// (the last point (1, 1) at -inf).
    @Test func rocPointsAreScikitLearnsROC() throws {
        var set = ScoreSet()
        for s in [0.9, 0.7, 0.5, 0.5] { set.append(score: s, species: nil) }
        for s in [0.5, 0.3, 0.8] { set.append(score: s, species: "print") }
        set.appendRejectedAtEveryThreshold(species: "replay")
        let curve = try ErrorCurve(set)
        var drawn: [(Double, Double)] = []
        for p in HTMLReport.rocPoints(curve).reversed() where drawn.last.map({ $0 != p }) ?? true { drawn.append(p) }
        let roc = try ROCCurve(curve, dropIntermediate: false).points
        #expect(drawn.count == roc.count)
        for (d, r) in zip(drawn, roc) {
            #expect(abs(d.0 - r.falsePositiveRate) < 1e-12 && abs(d.1 - r.truePositiveRate) < 1e-12, "\(d) \(r)")
        }
    }

    /// The operating-points table carries d' and pyeer's zero-error points with their thresholds;
    /// the ROC marks the two points.
    @Test func operatingPointsShowDPrimeAndZeroErrorPoints() throws {
        var report = try Self.report()
        let html = report.render()
        let m = try #require(report.results[0].scoreMetrics)
        let d = try #require(m.decidability), zero = try #require(m.zeroErrorPoints)
        #expect(html.contains("<td>d' (decidability, pyeer)</td><td class=\"num\">\(RateText.fixed(d.value, 3))</td>"))
        let a = zero.bpcerAtZeroAPCER
        #expect(
            html.contains(
                "<td>BPCER @ APCER pooled = \(HTMLReport.pct(a.apcerPooled.value)) (pyeer ZeroFMR)</td><td class=\"num\">"
                    + "\(HTMLPage.e(HTMLReport.rate(a.bpcer)))</td><td class=\"num\">\(RateText.threshold(a.threshold))</td>"
            ))
        #expect(html.contains("(pyeer ZeroFNMR)") && html.contains("AUC (ROC area, sklearn roc_auc_score)"))
        // The ROC marks both points with the rate each holds at.
        #expect(html.contains(">BPCER@APCER=\(HTMLReport.pct(a.apcerPooled.value)): \(HTMLReport.pct(a.bpcer.value))<"))
        let b = zero.apcerAtZeroBPCER
        #expect(html.contains(">APCER@BPCER=\(HTMLReport.pct(b.bpcer.value)): \(HTMLReport.pct(b.apcerPooled.value))<"))
    }

    @Test func probitMatchesTheNormalQuantile() {
        // scipy.stats.norm.ppf values.
        #expect(abs(SVGPlot.probit(0.01) - -2.3263478740408408) < 1e-8)
        #expect(abs(SVGPlot.probit(0.5)) < 1e-12)
        #expect(abs(SVGPlot.probit(0.975) - 1.959963984540054) < 1e-8)
    }
}

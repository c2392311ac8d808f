import Foundation
import Testing
@testable import PadArchive
@testable import PadMetrics
@testable import PadReport
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Counts elements while parsing a document as XML (the report is written to be well-formed).
final class ElementCounter: NSObject, XMLParserDelegate {
    var counts: [String: Int] = [:]
    var polylinePoints: [Int] = []
    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        counts[name, default: 0] += 1
        if name == "polyline" { polylinePoints.append((attributes["points"] ?? "").split(separator: " ").count) }
    }
}

@Suite struct HTMLReportTests {
    static func report() throws -> HTMLReport {
        var dev = ScoreSet(), eval = ScoreSet()
        for i in 0..<200 {
            let x = Double(i) / 200
            dev.append(score: x + 0.3, species: nil); eval.append(score: x + 0.25, species: nil)
            dev.append(score: x, species: i % 2 == 0 ? "print" : "replay"); eval.append(score: x + 0.05, species: i % 2 == 0 ? "print" : "replay")
        }
        let devCurve = try ErrorCurve(dev), evalCurve = try ErrorCurve(eval)
        let threshold = ThresholdCriterion.bpcerAtAPCER(0.05).threshold(on: devCurve)
        let scores = ScoreReport(criterion: "bpcer@apcer=0.05", threshold: threshold, thresholdSource: "dev",
                                 sets: [.init(name: "dev", curve: devCurve, threshold: threshold), .init(name: "eval", curve: evalCurve, threshold: threshold)])
        let manifest = RunManifest(kind: "eval", tool: .init(version: "test", commandLine: ["padbench", "eval"]), conventions: Conventions.current,
                                   dataset: .init(name: "scores <&> test", path: "s.csv", layout: "scores:generic", fingerprint: "0", samples: 800),
                                   estimators: [], profiles: [], machine: .current(concurrency: 1),
                                   times: .init(started: "t0", finished: "t1", wallSeconds: 1), counts: ["scores": 400])
        let timing = [(name: "decode", summary: TimingSummary(count: 10, meanNanoseconds: 1e6, p50Nanoseconds: 900_000, p90Nanoseconds: 1_500_000,
                                                             p99Nanoseconds: 2_000_000, maxNanoseconds: 2_100_000, throughput: 100), coldStartNanoseconds: UInt64(0))]
        return HTMLReport(manifest: manifest, timing: timing, scoreReport: scores)
    }

    @Test func wellFormedSelfContainedAndEveryPlotHasData() throws {
        var report = try Self.report()
        let html = report.render()
        #expect(!html.contains("<script") && !html.contains("src=") && !html.contains("<link"))
        #expect(html.contains("scores &lt;&amp;&gt; test"))                          // escaped
        let parser = XMLParser(data: Data(html.replacingOccurrences(of: "<!DOCTYPE html>\n", with: "").utf8))
        let counter = ElementCounter()
        parser.delegate = counter
        #expect(parser.parse(), "report.html is not well-formed: \(String(describing: parser.parserError))")
        // dev and eval: DET, threshold and histogram plots each, plus latency bars.
        #expect(counter.counts["svg"] == 7)
        #expect(report.plots.count == 7 && report.plots.allSatisfy { $0.points > 0 })
        #expect(counter.polylinePoints.allSatisfy { $0 > 1 })
        #expect(counter.counts["table", default: 0] >= 3)
        for convention in Conventions.current.keys { #expect(html.contains(">\(convention)<")) }
    }

    @Test func probitMatchesTheNormalQuantile() {
        // scipy.stats.norm.ppf values.
        #expect(abs(SVGPlot.probit(0.01) - -2.3263478740408408) < 1e-8)
        #expect(abs(SVGPlot.probit(0.5)) < 1e-12)
        #expect(abs(SVGPlot.probit(0.975) - 1.959963984540054) < 1e-8)
    }
}

import Foundation
import PadVocabulary
import Testing
@testable import PadArchive
@testable import PadEvaluation
@testable import PadMetrics
@testable import PadProfiles
@testable import PadReport
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Text labels and polylines of every SVG in a page, read back as a browser would place them.
final class SVGReader: NSObject, XMLParserDelegate {
    struct Label {
        var x: Double; var y: Double; var size: Double; var anchor: String; var rotated: Bool; var text: String;
        var svg: Int
    }
    var labels: [Label] = []
    var polylines: [[(Double, Double)]] = []
    /// The title (`aria-label`) of the SVG each polyline is in.
    var polylineTitles: [String] = []
    var svgTitles: [String] = []
    var svgCount = 0
    var tableBodies: [Int] = [] // rows per tbody
    private var current: Label?
    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes a: [String: String] = [:]
    ) {
        switch name {
        case "svg":
            svgCount += 1
            svgTitles.append(a["aria-label"] ?? "")
        case "text":
            current = Label(
                x: Double(a["x"] ?? "0")!, y: Double(a["y"] ?? "0")!, size: Double(a["font-size"] ?? "10")!,
                anchor: a["text-anchor"] ?? "start", rotated: a["transform"] != nil, text: "", svg: svgCount)
        case "polyline":
            polylines.append(
                (a["points"] ?? "").split(separator: " ").map { p in
                    let xy = p.split(separator: ","); return (Double(xy[0])!, Double(xy[1])!)
                })
            polylineTitles.append(svgTitles.last ?? "")
        case "tbody": tableBodies.append(0)
        case "tr": if !tableBodies.isEmpty { tableBodies[tableBodies.count - 1] += 1 }
        default: break
        }
    }
    func parser(_ parser: XMLParser, foundCharacters string: String) { current?.text += string }
    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "text", let c = current { labels.append(c); current = nil }
    }

    static func read(_ html: String) -> SVGReader {
        let reader = SVGReader()
        let parser = XMLParser(data: Data(html.replacingOccurrences(of: "<!DOCTYPE html>\n", with: "").utf8))
        parser.delegate = reader
        precondition(parser.parse(), "not well-formed: \(String(describing: parser.parserError))")
        return reader
    }

    /// Pairs of labels in one SVG whose boxes overlap: width 0.6 x font size per character, height
    /// the font size above the baseline (rotated axis titles turned by 90 degrees).
    func overlaps() -> [(String, String)] {
        func box(_ l: Label) -> (Double, Double, Double, Double) {
            let w = Double(l.text.count) * l.size * 0.6
            if l.rotated { return (l.x - l.size, l.y - w / 2, l.x, l.y + w / 2) }
            let x0 = l.anchor == "middle" ? l.x - w / 2 : (l.anchor == "end" ? l.x - w : l.x)
            return (x0, l.y - l.size * 0.8, x0 + w, l.y)
        }
        var found: [(String, String)] = []
        for i in labels.indices {
            for j in labels.indices where j > i && labels[i].svg == labels[j].svg {
                let a = box(labels[i]), b = box(labels[j])
                if a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3 { found.append((labels[i].text, labels[j].text)) }
            }
        }
        return found
    }
}

@Suite struct ReportReadabilityTests {
    static let manifest = RunManifest(
        kind: "eval", tool: .init(version: "test", commandLine: ["padbench", "eval"]), conventions: Conventions.current,
        dataset: .init(name: "three species", path: "s.csv", layout: "scores:generic", fingerprint: "0", samples: 400),
        estimators: [], profiles: [], machine: .current(concurrency: 1),
        times: .init(started: "t0", finished: "t1", wallSeconds: 1), counts: ["scores": 400])

    /// 100 bona fide and 3 species of 100 attacks, a fixed gate on the score at the EER threshold
    /// (two threshold lines at one x, markers close together: the labels must still separate).
    static func result(bonaFide: Bool = true) throws -> ProfileResult {
        var set = ScoreSet()
        for i in 0..<100 {
            let x = Double(i) / 100
            if bonaFide { set.append(score: 0.4 + x, species: nil) }
            set.append(score: x * 0.8, species: "print")
            set.append(score: x * 0.6 + 0.1, species: "replay")
            set.append(score: x * 0.9 + 0.05, species: "mask")
        }
        let curve = try ErrorCurve(set)
        var metrics: ProfileResult.ScoreMetrics?
        var threshold = 0.5
        if bonaFide {
            let eer = try EqualErrorRate(curve)
            threshold = eer.threshold
            let targets = try [0.01, 0.05, 0.1].map { x -> ProfileResult.Target in
                let c = try ThresholdCriterion.bpcerAtAPCER(x).choose(on: curve)
                return .init(target: x, threshold: c.threshold, rate: curve.bpcer(c.point), targetMet: c.targetMet)
            }
            metrics = .init(
                score: "scores.score", curve: curve, eer: eer, bpcerAtAPCER: targets, apcerAtBPCER: [],
                auc: areaUnderROC(curve))
        }
        let gate = Gate(
            output: "scores.score", comparison: .ge, threshold: threshold, code: "SCORE", message: "low", line: 7)
        let profile = Profile(name: "scores", description: "", source: "test", score: "scores.score", gates: [gate])
        let set_ = ProfileResult.SetResult(
            split: "all", headline: OperatingPoint(curve: curve, threshold: threshold),
            headlineError: bonaFide ? nil : "no bona fide samples: BPCER is undefined",
            scoreMetrics: metrics, scoreError: nil, rejectReasons: [], bonaFideCount: bonaFide ? 100 : 0,
            attackCount: 300, failedCount: 0)
        return ProfileResult(profile: profile, reported: set_, calibrations: [], thresholdSource: .profileGates)
    }

    @Test func noTwoLabelsOverlapAndEveryPlotHasData() throws {
        var report = HTMLReport(manifest: Self.manifest, results: [try Self.result()])
        let page = SVGReader.read(report.render())
        #expect(page.svgCount == 4)
        #expect(report.plots.count == 4 && report.plots.allSatisfy { $0.points > 0 })
        #expect(page.polylines.allSatisfy { $0.count > 1 })
        let overlaps = page.overlaps()
        #expect(overlaps.isEmpty, "overlapping labels: \(overlaps)")
        // The DET marks the EER and the profile's operating point.
        #expect(
            page.labels.contains { $0.text.hasPrefix("EER ") }
                && page.labels.contains { $0.text.hasPrefix("profile: APCER_max") })
        // Both threshold lines are labelled, though they sit at one x.
        #expect(page.labels.filter { $0.text.hasPrefix("EER t=") || $0.text.hasPrefix("profile t=") }.count == 3)
    }

    /// Curves are exact steps and histograms outlines: every segment is horizontal or vertical.
    /// The ROC is the exception: scikit-learn joins its points by straight lines (a tie of both
    /// classes at one score is a diagonal segment, counted half in the AUC), and its chance line
    /// is the diagonal.
    @Test func curvesAreDrawnAsSteps() throws {
        var report = HTMLReport(manifest: Self.manifest, results: [try Self.result()])
        let page = SVGReader.read(report.render())
        #expect(page.polylineTitles.filter { $0.hasPrefix("ROC") }.count == 2)
        for (line, title) in zip(page.polylines, page.polylineTitles) where !title.hasPrefix("ROC") {
            for (a, b) in zip(line, line.dropFirst()) {
                #expect(a.0 == b.0 || a.1 == b.1, "diagonal segment \(a) -> \(b)")
            }
        }
    }

    /// DET axes run from 1/(2n) rounded down to a 1-2-5 step (n = 100: 0.5%) to 99%.
    @Test func detAxesReachFromOneErrorTo99Percent() throws {
        var report = HTMLReport(manifest: Self.manifest, results: [try Self.result()])
        let page = SVGReader.read(report.render())
        let det = page.labels.filter { $0.svg == 1 }.map(\.text)
        #expect(det.contains("0.5%") && det.contains("99%") && !det.contains("0.2%"))
        #expect(HTMLReport.detFloor(try Self.result().scoreMetrics!.curve) == 0.005)
    }

    @Test func firstScreenAnswersWithPercentAndCounts() throws {
        var report = HTMLReport(manifest: Self.manifest, results: [try Self.result()])
        let html = report.render()
        let verdict = html.range(of: "<h2>Verdict</h2>")!.lowerBound,
            howTo = html.range(of: "How to read this page")!.lowerBound
        let details = html.range(of: "<h2>APCER per species</h2>")!.lowerBound
        #expect(verdict < howTo && howTo < details)
        let p = try Self.result().headline!
        #expect(
            html.contains(
                "<b>\(RateText.percent(p.apcerMax.value))</b> "
                    + "(\(p.apcerMax.errors)/\(p.apcerMax.total)) \(p.apcerMaxSpecies)"
            ))
        #expect(html.contains("Clopper-Pearson 95% ["))
        #expect(!html.contains("<br>")) // XHTML-style void elements: the page parses as XML
        #expect(!html.contains("-inf") && !html.contains("@ inf")) // "infinite" in the conventions is fine
    }

    /// An attack-only run: APCER per species, BPCER n/a, no EER plots, no empty table, no -inf.
    @Test func attackOnlyRunShowsAPCERPerSpeciesAndNoEmptyTable() throws {
        let outputs = OutputSeparation.rows(
            output: "scores.score", values: [0.1, 0.2], species: [0, 1], speciesNames: ["print", "mask"])
        var report = HTMLReport(manifest: Self.manifest, results: [try Self.result(bonaFide: false)], outputs: outputs)
        let html = report.render()
        #expect(!html.contains("Which output separates which attack"))
        let page = SVGReader.read(html)
        #expect(page.svgCount == 0)
        #expect(page.tableBodies.allSatisfy { $0 > 0 })
        #expect(html.contains("APCER per species") && html.contains("mask") && html.contains("n/a (no bona fide)"))
        #expect(!html.contains("-inf") && !html.contains("@ inf")) // "infinite" in the conventions is fine
    }

    @Test func ticksAreNiceAndPrintedInOneFormat() {
        let (ticks, decimals) = SVGPlot.niceTicks(13.4, 1100)
        #expect(ticks == [200, 400, 600, 800, 1000] && decimals == 0)
        let small = SVGPlot.niceTicks(0, 0.93)
        #expect(small.ticks.count == 5 && small.ticks.last! == 0.8 && small.decimals == 1)
        #expect(
            small.ticks.map { SVGPlot.tickText($0, decimals: small.decimals, percent: false) } == [
                "0.0", "0.2", "0.4", "0.6", "0.8",
            ])
        #expect(SVGPlot.tickText(0.25, decimals: 2, percent: true) == "25%")
    }

    @Test func percentWithCountAndThresholdWords() {
        #expect(RateText.percentWithCount(errors: 31, total: 1000) == "3.1% (31/1000)")
        #expect(RateText.percentWithCount(errors: 1, total: 2000) == "0.05% (1/2000)")
        #expect(RateText.percentWithCount(errors: 0, total: 0) == "n/a (no samples)")
        #expect(RateText.threshold(-.infinity) == "below every score" && RateText.threshold(0.25) == "0.25")
    }
}

@Suite struct OutputSeparationTests {
    /// Bona fide 3, 4, 5 (and one NaN); print 1, 2, 4; replay 6, 7, 5.
    /// print: AUC = (2 + 2.5 + 3) / 9; EER 1/3 at 3.5 (APCER {4} = BPCER {3} = 1/3).
    /// replay: AUC = 0.5 / 9 < 0.5, so lower-bona-fide with AUC 8.5 / 9; on the negated values the
    /// last of the tied |APCER - BPCER| = 1/3 points is t = -4 (APCER 0, BPCER 1/3): EER 1/6 at
    /// value 4.5. All: pooled AUC 8 / 18, flipped 10 / 18.
    /// A species literally named `(all)` keeps its own row; the row of all species together is
    /// the one with an empty species (before, both rows were `(all)`).
    @Test func aSpeciesNamedAllDoesNotCollideWithThePooledRow() {
        let rows = OutputSeparation.rows(
            output: "q", values: [3, 4, 1, 5, 2], species: [-1, -1, 0, 1, 1], speciesNames: ["(all)", "print"])
        #expect(rows.map(\.species) == ["(all)", "print", ""])
        #expect(rows[0].attacks == 1 && rows[1].attacks == 2 && rows[2].attacks == 3)
    }

    @Test func aucEerAndDirectionByHand() {
        let values = [3, 4, 5, .nan, 1, 2, 4, 6, 7, 5]
        let species: [Int32] = [-1, -1, -1, -1, 1, 1, 1, 0, 0, 0]
        let rows = OutputSeparation.rows(
            output: "q", values: values, species: species, speciesNames: ["replay", "print"])
        #expect(rows.map(\.species) == ["print", "replay", ""])
        let print = rows[0], replay = rows[1], all = rows[2]
        #expect(print.direction == "higher-bona-fide" && abs(print.auc - 7.5 / 9) < 1e-12)
        #expect(abs(print.eer - 1.0 / 3) < 1e-12 && print.eerThreshold == 3.5)
        #expect(replay.direction == "lower-bona-fide" && abs(replay.auc - 8.5 / 9) < 1e-12)
        #expect(abs(replay.eer - 1.0 / 6) < 1e-12 && replay.eerThreshold == 4.5)
        #expect(all.direction == "lower-bona-fide" && abs(all.auc - 10.0 / 18) < 1e-12)
        #expect(print.bonaFide == 3 && print.attacks == 3 && print.missingBonaFide == 1 && print.missingAttacks == 0)
        let table = OutputSeparation.table(rows)
        #expect(table.header == OutputSeparation.header && table.rows[1][2] == "lower-bona-fide")
    }

    /// A species named by the table but absent from the reported split gets no row.
    @Test func absentSpeciesGetNoRow() {
        let rows = OutputSeparation.rows(
            output: "q", values: [1, 0], species: [-1, 1], speciesNames: ["mask", "print"])
        #expect(rows.map(\.species) == ["print"] && rows[0].auc == 1)
    }

    @Test func oneClassGivesAnEmptyRow() {
        let rows = OutputSeparation.rows(output: "q", values: [.nan, 1], species: [-1, 0], speciesNames: ["print"])
        #expect(rows.count == 1 && rows[0].direction == "" && rows[0].auc.isNaN && rows[0].missingBonaFide == 1)
        #expect(OutputSeparation.table(rows).rows[0][3] == "")
    }
}

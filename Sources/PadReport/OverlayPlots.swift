import PadArchive
import PadEvaluation
import PadMetrics
import PadVocabulary

/// Several systems on one chart, as FATE PAD pages and `bob pad det` with several score files
/// show them: the DET (APCER_max against BPCER, probit axes, as the report's DET), the ROC (pooled
/// APCER against 1 - BPCER, as scikit-learn's `roc_curve`, with each AUC) and APCER_max / BPCER
/// against threshold of several runs or profiles on shared axes with one legend.
///
/// Example: `OverlayPlotsTests.detAndThresholdPlotsShareAxesAndLegend`
/// in `Tests/PadReportTests/OverlayPlotsTests.swift` (compiled and run by `swift test`).
/// Each curve is exact (one point per distinct threshold, down-sampled as the report's plots) and
/// gets one colour: solid in the DET; in the threshold plot BPCER solid and APCER_max dashed.
/// Thresholds are in the bona-fide-high scale the runs decide in (a file's attack-high scores are
/// negated on import), so curves of one score compare on one axis.
package struct OverlayPlots: Sendable {
    package struct Curve: Sendable {
        package var label: String
        package var curve: ErrorCurve
        package init(label: String, curve: ErrorCurve) { self.label = label; self.curve = curve }
    }

    package var curves: [Curve]
    package init(curves: [Curve]) { self.curves = curves }

    /// For each curve, the earlier curve it is identical to (every threshold, BPCER and APCER_max
    /// equal), or nil: drawn on top of each other, the later one would hide the earlier without a
    /// word, so its legend entry says so.
    package var identicalTo: [Int?] {
        curves.indices.map { k in
            (0..<k).first { j in Self.same(curves[j].curve, curves[k].curve) }
        }
    }

    /// Legend names: the label, and `(identical to LABEL)` for a curve that repeats an earlier one.
    var names: [String] {
        let twins = identicalTo
        return curves.indices.map { k in
            curves[k].label + (twins[k].map { " (identical to \(curves[$0].label))" } ?? "")
        }
    }

    static func same(_ a: ErrorCurve, _ b: ErrorCurve) -> Bool {
        guard a.count == b.count, a.speciesNames == b.speciesNames else { return false }
        for i in 0..<a.count {
            // Thresholds compared as bits: NaN never, -0 and 0 apart.
            guard a.thresholds[i].bitPattern == b.thresholds[i].bitPattern, a.bpcer(i) == b.bpcer(i),
                a.apcerMax(i) == b.apcerMax(i)
            else { return false }
        }
        return true
    }

    /// The colour of curve k.
    static func color(_ k: Int) -> String { SVGPlot.palette[k % SVGPlot.palette.count] }

    package func det(title: String = "DET") -> SVGPlot {
        var plot = SVGPlot(
            title: title, xLabel: "APCER_max (attacks accepted)", yLabel: "BPCER (bona fide rejected)", scale: .probit)
        // The floor that shows one error of the largest class of any curve.
        plot.probitFloor = curves.map { HTMLReport.detFloor($0.curve) }.min() ?? 0.0001
        let names = self.names
        for (k, c) in curves.enumerated() {
            let indices = HTMLReport.sample(c.curve.count)
            let eer = try? EqualErrorRate(c.curve)
            plot.addLine(
                name: names[k] + (eer.map { ", EER \(HTMLReport.pct($0.value))" } ?? ""),
                points: indices.map { (c.curve.apcerMax($0).value, c.curve.bpcer($0)) }, color: Self.color(k),
                style: .stepHV)
        }
        return plot
    }

    /// The ROCs on the unit square (``HTMLReport/rocPoints(_:)``), the chance diagonal dashed, each
    /// curve's AUC (sklearn's roc_auc_score) in its legend entry.
    package func roc(title: String = "ROC") -> SVGPlot {
        var plot = HTMLReport.rocFrame(title: title)
        let names = self.names
        for (k, c) in curves.enumerated() {
            plot.addLine(
                name: names[k] + ", AUC \(RateText.fixed(areaUnderROC(c.curve), 4))",
                points: HTMLReport.rocPoints(c.curve), color: Self.color(k))
        }
        return plot
    }

    package func thresholds(title: String = "Error rates vs threshold") -> SVGPlot {
        var plot = SVGPlot(title: title, xLabel: "threshold (accept when score >= threshold)", yLabel: "error rate")
        plot.yPercent = true
        let names = self.names
        for (k, c) in curves.enumerated() {
            let curve = c.curve
            // The terminal point (a round number above the highest score) would stretch the shared axis.
            let terminal = curve.hasTerminalPoint ? curve.count - 1 : nil
            let indices = HTMLReport.sample(curve.count).filter { curve.thresholds[$0].isFinite && $0 != terminal }
            plot.addLine(
                name: "\(names[k]) BPCER", points: indices.map { (curve.thresholds[$0], curve.bpcer($0)) },
                color: Self.color(k), style: .stepVH)
            plot.addLine(
                name: "\(names[k]) APCER_max", points: indices.map { (curve.thresholds[$0], curve.apcerMax($0).value) },
                color: Self.color(k), dashed: true, style: .stepVH)
        }
        return plot
    }

    /// One row per curve: label, counts, EER, the best BPCER at APCER_max <= 1%, 5%, 10% and the AUC.
    package var rows: [[String]] {
        curves.map { c in
            let eer = try? EqualErrorRate(c.curve)
            let best = ProfileResult.targets.map { x -> String in
                let choice = ThresholdSearch.lowestThreshold(c.curve, apcerMaxAtMost: x)
                return choice.targetMet ? HTMLReport.pct(c.curve.bpcer(choice.point)) : "not met"
            }
            return [
                c.label, String(c.curve.bonaFideCount), String(c.curve.attackCount),
                eer.map { HTMLReport.pct($0.value) } ?? "n/a",
            ] + best + [RateText.fixed(areaUnderROC(c.curve), 4)]
        }
    }

    package static let header =
        ["curve", "bona fide", "attacks", "EER"] + ProfileResult.targets.map { ProfileResult.isoName($0).uppercased() }
        + ["AUC"]

    /// The page: the three plots, then the table.
    package func html(title: String, lead: String) -> String {
        var body = "<h1>\(HTMLPage.e(title))</h1>\n<p class=\"lead\">\(HTMLPage.e(lead))</p>\n"
        body +=
            "<div class=\"plots\">\n" + det().render() + "\n" + roc().render() + "\n" + thresholds().render()
            + "\n</div>\n"
        body += HTMLPage.table(Self.header, rows, numeric: Set(1..<Self.header.count))
        body +=
            "<p class=\"meta\">BPCER100, BPCER20, BPCER10: the best BPCER with APCER_max at most 1%, 5%, 10% "
            + "(the lowest threshold meeting the target). AUC: area under the ROC (pooled APCER against 1 - BPCER), "
            + "sklearn's roc_auc_score. Thresholds are in the bona-fide-high scale.</p>\n"
        return HTMLPage.document(title: title, body: body)
    }
}

extension OverlayPlots {
    /// A run's label from its path: the run folder's name (`reports/new/results.tar.zst` -> `new`).
    package static func label(of path: String) -> String {
        let suffix = "/" + RunFile.archive.name
        let folder = path.hasSuffix(suffix) ? String(path.dropLast(suffix.count)) : path
        let last = folder.split(separator: "/").last.map(String.init) ?? path
        return last.hasSuffix(".tar.zst") ? String(last.dropLast(".tar.zst".count)) : last
    }
}

extension OverlayPlots {
    /// What `padbench plot` writes, in that order: `det.svg`, `roc.svg`, `thresholds.svg`, and
    /// `plot.html` (the three plots and the table), whose lead says what was drawn: the curves of
    /// `runs` runs, on `split` at `level`.
    package func plotFiles(runs: Int, split: String, level: String) -> [(name: String, text: String)] {
        let lead = "\(curves.count) curves of \(runs) runs, split \(split), level \(level)."
        return [
            ("det.svg", det().render()), ("roc.svg", roc().render()), ("thresholds.svg", thresholds().render()),
            ("plot.html", html(title: "padbench plot", lead: lead)),
        ]
    }

    /// One note per curve drawn on top of an identical earlier one (``identicalTo``), naming both.
    package var identicalNotes: [String] {
        identicalTo.enumerated().compactMap { k, twin in
            twin.map { "note: \(curves[k].label) is identical to \(curves[$0].label): drawn on top of it" }
        }
    }
}

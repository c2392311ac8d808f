import Foundation
import PadArchive
import PadEvaluation
import PadMetrics

extension HTMLReport {
    /// The threshold the profile decides at on its swept score (calibrated, or the fixed gate on
    /// the score output), in the curve's bona-fide-high scale.
    static func operatingThreshold(_ r: ProfileResult) -> Double? {
        r.scoreThreshold.flatMap { $0.isFinite ? $0 : nil }
    }

    /// A profile's section: the left-out warning (when gates were left out or approximated), then
    /// its plots when it has a swept score.
    mutating func profilePlots(_ r: ProfileResult) -> String {
        let warning = Self.leftOutWarning(r)
        guard let sm = r.scoreMetrics else {
            return warning.isEmpty ? "" : "<h2>\(Self.e(r.profile.name))</h2>\n" + warning
        }
        var html = "<h2>\(Self.e(r.profile.name)): \(Self.e(sm.score))</h2>\n" + warning
        html +=
            "<p class=\"meta\">Swept score \(Self.e(sm.score)) on split "
            + "\(Self.e(r.split)).</p>\n<div class=\"plots\">\n"
        html += detPlot(r, sm)
        html += rocPlot(r, sm)
        html += thresholdPlot(r, sm)
        html += histogramPlot(r, sm)
        return html + "</div>\n"
    }

    /// Lowest DET axis value: the largest of 0.01%, 0.02%, 0.05%, ... not above 1 / (2n), n the
    /// largest class (a single error of it is then on the plot).
    static func detFloor(_ curve: ErrorCurve) -> Double {
        let n = max(curve.bonaFideCount, curve.attackCounts.max() ?? 0, 1)
        let candidates = [0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05]
        return candidates.last { $0 <= 0.5 / Double(n) } ?? 0.0001
    }

    /// Most species drawn one line each (DET, histograms): more would be an unreadable plot
    /// and a page growing with species x points.
    static let maximumSpeciesLines = 12

    mutating func detPlot(_ r: ProfileResult, _ sm: ProfileResult.ScoreMetrics) -> String {
        let curve = sm.curve
        let title = "DET, \(r.profile.name)"
        var plot = SVGPlot(
            title: title, xLabel: "APCER (attacks accepted)", yLabel: "BPCER (bona fide rejected)", scale: .probit)
        plot.probitFloor = Self.detFloor(curve)
        let indices = Self.sample(curve.count)
        let present = curve.speciesNames.indices.filter { curve.attackCounts[$0] > 0 }
        // One line per species up to a legible number; beyond it APCER_max alone.
        if present.count > 1 && present.count <= Self.maximumSpeciesLines {
            for s in present {
                plot.addLine(
                    name: "APCER[\(curve.speciesNames[s])]",
                    points: indices.map { (curve.apcer(s, $0), curve.bpcer($0)) },
                    color: SVGPlot.palette[(s + 1) % SVGPlot.palette.count], dashed: true, style: .stepHV)
            }
        }
        plot.addLine(
            name: present.count > 1 ? "APCER_max" : "APCER[\(present.first.map { curve.speciesNames[$0] } ?? "")]",
            points: indices.map { (curve.apcerMax($0).value, curve.bpcer($0)) }, color: SVGPlot.palette[0],
            style: .stepHV)
        plot.addMarker(x: sm.eer.apcerMax, y: sm.eer.bpcer, label: "EER \(Self.pct(sm.eer.value))", color: "#b00")
        if let p = r.headline, p.apcerMax.total > 0, p.bpcer.total > 0 {
            plot.addMarker(
                x: p.apcerMax.value, y: p.bpcer.value,
                label: "profile: APCER_max \(Self.pct(p.apcerMax.value)), BPCER \(Self.pct(p.bpcer.value))",
                color: "#060")
        }
        // The best BPCER with APCER_max <= x, at the lowest threshold meeting x: the point the DET
        // curve shows at that APCER (bob.pad.base's value, on a species' attack score, can be at
        // the top of a vertical step there; it is in the operating-points table).
        for t in sm.bestBPCERAtAPCER where t.targetMet {
            let k = curve.pointIndex(for: t.threshold)
            plot.addMarker(
                x: curve.apcerMax(k).value, y: curve.bpcer(k),
                label: "\(ProfileResult.isoName(t.target).uppercased()) \(Self.pct(curve.bpcer(k))) "
                    + "(best BPCER @ APCER_max<=\(Self.pct(t.target)))", color: "#444")
        }
        plots.append((title, plot.pointCount))
        return plot.render()
    }

    /// The ROC of a curve as scikit-learn's `roc_curve` draws it (``PadMetrics/ROCCurve``): pooled
    /// APCER (false positive rate) against 1 - BPCER (true positive rate), bona fide the positive
    /// class, one point per sampled curve point joined by straight lines (tied scores of both
    /// classes make a diagonal segment), from (1, 1) (everything accepted, samples rejected at
    /// every threshold included) to (0, 0) (nothing accepted). Read from the curve the EER uses,
    /// not a second sweep.
    static func rocPoints(_ curve: ErrorCurve) -> [(Double, Double)] {
        [(1, 1)] + sample(curve.count).map { (curve.apcerPooled($0), 1 - curve.bpcer($0)) } + [(0, 0)]
    }

    /// A ROC plot on the unit square, with the chance diagonal (AUC 0.5) dashed.
    static func rocFrame(title: String) -> SVGPlot {
        var plot = SVGPlot(
            title: title, xLabel: "APCER pooled (attacks accepted)", yLabel: "1 - BPCER (bona fide accepted)")
        plot.fixedRanges = (x: (-0.02, 1.02), y: (-0.02, 1.02))
        plot.addLine(name: "chance (AUC 0.5)", points: [(0, 0), (1, 1)], color: "#999", dashed: true)
        return plot
    }

    /// The ROC with its AUC (`auc`, roc_auc_score's value) in the legend, the profile's decision,
    /// and pyeer's two zero-error points, each labelled with the rate it holds at (pyeer's ZeroFMR
    /// point keeps APCER above 0 when an attack holds the highest score).
    mutating func rocPlot(_ r: ProfileResult, _ sm: ProfileResult.ScoreMetrics) -> String {
        let title = "ROC, \(r.profile.name)"
        var plot = Self.rocFrame(title: title)
        plot.addLine(
            name: "ROC, AUC \(RateText.fixed(sm.auc, 4))", points: Self.rocPoints(sm.curve), color: SVGPlot.palette[0])
        if let p = r.headline, p.apcerPooled.total > 0, p.bpcer.total > 0 {
            plot.addMarker(
                x: p.apcerPooled.value, y: 1 - p.bpcer.value,
                label: "profile: APCER \(Self.pct(p.apcerPooled.value)), BPCER \(Self.pct(p.bpcer.value))",
                color: "#060")
        }
        if let zero = sm.zeroErrorPoints {
            let (a, b) = (zero.bpcerAtZeroAPCER, zero.apcerAtZeroBPCER)
            plot.addMarker(
                x: a.apcerPooled.value, y: 1 - a.bpcer.value,
                label: "BPCER@APCER=\(Self.pct(a.apcerPooled.value)): \(Self.pct(a.bpcer.value))",
                color: "#444")
            plot.addMarker(
                x: b.apcerPooled.value, y: 1 - b.bpcer.value,
                label: "APCER@BPCER=\(Self.pct(b.bpcer.value)): \(Self.pct(b.apcerPooled.value))", color: "#444")
        }
        plots.append((title, plot.pointCount))
        return plot.render()
    }

    mutating func thresholdPlot(_ r: ProfileResult, _ sm: ProfileResult.ScoreMetrics) -> String {
        let curve = sm.curve
        let title = "Error rates vs threshold, \(r.profile.name)"
        let axis =
            r.thresholdSign < 0
            ? "threshold (negated file score: accept when >= threshold)" : "threshold (accept when score >= threshold)"
        var plot = SVGPlot(title: title, xLabel: axis, yLabel: "error rate")
        plot.yPercent = true
        // The terminal threshold (a round number above the highest score) would stretch the axis:
        // its step is drawn to just past the highest score instead.
        let terminal = curve.hasTerminalPoint ? curve.count - 1 : nil
        let indices = Self.sample(curve.count).filter { curve.thresholds[$0].isFinite && $0 != terminal }
        var xs = indices.map { curve.thresholds[$0] }, ks = indices
        if let terminal, let first = xs.first, let last = xs.last {
            xs.append(last + max((last - first) * 0.03, abs(last) * 0.01, 1e-9))
            ks.append(terminal)
        }
        plot.addLine(
            name: "APCER_max", points: zip(xs, ks).map { ($0, curve.apcerMax($1).value) }, color: SVGPlot.palette[1],
            style: .stepVH)
        plot.addLine(
            name: "BPCER", points: zip(xs, ks).map { ($0, curve.bpcer($1)) }, color: SVGPlot.palette[0], style: .stepVH)
        if sm.eer.threshold.isFinite {
            plot.addVertical(
                x: sm.eer.threshold, label: "EER t=\(RateText.plotThreshold(r.shownThreshold(sm.eer.threshold)))",
                color: "#b00")
        }
        if let t = Self.operatingThreshold(r) {
            plot.addVertical(x: t, label: "profile t=\(RateText.plotThreshold(r.shownThreshold(t)))", color: "#060")
        }
        plots.append((title, plot.pointCount))
        return plot.render()
    }

    /// Outline (step) histograms over common bins of the finite scores, one per class and
    /// species, as percent of the class; the profile's threshold (or the EER's) marked. Samples
    /// rejected at every threshold (another gate failed) have no score and are not drawn. The bins
    /// follow ``HistogramBins`` (robust range, log or logit axis when the scores call for it); what
    /// lies outside the range is drawn as one underflow and one overflow bin beside it, marked
    /// with its count.
    mutating func histogramPlot(_ r: ProfileResult, _ sm: ProfileResult.ScoreMetrics) -> String {
        let curve = sm.curve
        guard let bins = Self.histogramBins(curve) else { return "" }
        let title = "Score histograms, \(r.profile.name)"
        let score = r.thresholdSign < 0 ? "score (negated)" : "score"
        var plot = SVGPlot(title: title, xLabel: bins.axisTitle(score), yLabel: "share of the class")
        plot.yPercent = true
        let n = bins.count, edges = bins.edges, cuts = bins.scoreEdges
        let width = edges[1] - edges[0]
        // Bin b's x range; -1 and n are the underflow and overflow bins beside the range.
        func span(_ b: Int) -> (Double, Double) {
            b < 0 ? (edges[0] - width, edges[0]) : (b == n ? (edges[n], edges[n] + width) : (edges[b], edges[b + 1]))
        }
        var outside = (0, 0)
        func series(_ name: String, color: String, total: Int, rejectedBelow: (Int) -> Int) {
            guard total > 0 else { return }
            let counts = Self.histogramCounts(curve, cuts: cuts, total: total, rejectedBelow: rejectedBelow)
            outside.0 += counts[0]
            outside.1 += counts[n + 1]
            var points: [(Double, Double)] = [(span(-1).0, 0)]
            for (k, c) in counts.enumerated() {
                let (x0, x1) = span(k - 1), share = Double(c) / Double(total)
                points += [(x0, share), (x1, share)]
            }
            points.append((span(n).1, 0))
            plot.addLine(name: name, points: points, color: color)
        }
        series("bona fide", color: SVGPlot.palette[0], total: curve.bonaFideCount) { curve.bonaFideRejected[$0] }
        if curve.speciesNames.count <= Self.maximumSpeciesLines {
            for s in curve.speciesNames.indices {
                series(
                    curve.speciesNames[s], color: SVGPlot.palette[(s + 1) % SVGPlot.palette.count],
                    total: curve.attackCounts[s]
                ) {
                    curve.attackCounts[s] - curve.accepted(s, $0)
                }
            }
        } else {
            series(
                "attacks (\(curve.speciesNames.count) species)", color: SVGPlot.palette[1], total: curve.attackCount
            ) {
                curve.attackCount - curve.pooledAccepted[$0]
            }
        }
        plot.addVertical(x: edges[0], label: "\(outside.0) below \(RateText.threshold(cuts[0]))", color: "#888")
        plot.addVertical(x: edges[n], label: "\(outside.1) above \(RateText.threshold(cuts[n]))", color: "#888")
        if let t = Self.operatingThreshold(r) {
            plot.addVertical(
                x: HistogramBins.transform(t, bins.axis),
                label: "profile t=\(RateText.plotThreshold(r.shownThreshold(t)))",
                color: "#060")
        } else if sm.eer.threshold.isFinite {
            plot.addVertical(
                x: HistogramBins.transform(sm.eer.threshold, bins.axis),
                label: "EER t=\(RateText.plotThreshold(r.shownThreshold(sm.eer.threshold)))", color: "#b00")
        }
        plots.append((title, plot.pointCount))
        return plot.render()
    }

    /// One class's counts in the bins cut at `cuts` (score scale): index 0 underflow, 1...n the bins
    /// (the last includes its upper edge), n + 1 overflow. `rejectedBelow(k)` is the class's count
    /// rejected at curve point k; finite scores below a cut are those rejections minus the ones
    /// rejected at every threshold (no score).
    static func histogramCounts(_ curve: ErrorCurve, cuts: [Double], total: Int, rejectedBelow: (Int) -> Int)
        -> [Int]
    {
        let n = cuts.count - 1
        let never = rejectedBelow(0)
        func below(_ cut: Double) -> Int { rejectedBelow(curve.pointIndex(for: cut)) - never }
        let top = below(cuts[n].nextUp)
        var counts = [below(cuts[0])]
        for b in 0..<n { counts.append((b == n - 1 ? top : below(cuts[b + 1])) - below(cuts[b])) }
        counts.append(total - never - top)
        return counts
    }

    /// The bins of a curve's finite scores (``HistogramBins``): each distinct finite threshold
    /// below the terminal point with its number of samples (all classes pooled).
    static func histogramBins(_ curve: ErrorCurve) -> HistogramBins? {
        let thresholds = curve.thresholds
        func below(_ k: Int) -> Int { curve.bonaFideRejected[k] + curve.attackCount - curve.pooledAccepted[k] }
        let last = curve.hasTerminalPoint ? curve.count - 1 : curve.count
        let total = curve.bonaFideCount + curve.attackCount
        var values: [Double] = [], counts: [Int] = []
        values.reserveCapacity(last)
        counts.reserveCapacity(last)
        for k in 0..<last where thresholds[k].isFinite {
            values.append(thresholds[k])
            counts.append((k + 1 < curve.count ? below(k + 1) : total) - below(k))
        }
        return HistogramBins(values: values, counts: counts)
    }

    mutating func latency() -> String {
        guard !timing.isEmpty else { return "" }
        var html = "<h2>Latency</h2>\n"
        let groups = timing.map { step in
            (
                label: step.name,
                values: [
                    (name: "p50", value: Double(step.summary.p50Nanoseconds) / 1e6),
                    (name: "p90", value: Double(step.summary.p90Nanoseconds) / 1e6),
                    (name: "p99", value: Double(step.summary.p99Nanoseconds) / 1e6),
                ]
            )
        }
        html +=
            "<div class=\"plots\">" + SVGPlot.bars(title: "Latency per step", unit: "ms", groups: groups) + "</div>\n"
        plots.append(("Latency per step", groups.count * 3))
        html += HTMLPage.table(
            [
                "step", "count", "mean ms", "p50 ms", "p90 ms", "p99 ms", "max ms", "CPU mean ms", "CPU p50 ms",
                "CPU p99 ms", "per s", "cold start ms",
            ],
            timing.map { t in
                let s = t.summary
                func ms(_ ns: Double) -> String { RateText.fixed(ns / 1e6, 3) }
                let total = t.name == "sample_total" || t.name == "presentation_total"
                return [
                    t.name, String(s.count), ms(s.meanNanoseconds), ms(Double(s.p50Nanoseconds)),
                    ms(Double(s.p90Nanoseconds)), ms(Double(s.p99Nanoseconds)), ms(Double(s.maxNanoseconds)),
                    t.cpu.map { ms($0.meanNanoseconds) } ?? "", t.cpu.map { ms(Double($0.p50Nanoseconds)) } ?? "",
                    t.cpu.map { ms(Double($0.p99Nanoseconds)) } ?? "", total ? RateText.fixed(s.throughput, 1) : "",
                    RateText.fixed(Double(t.coldStartNanoseconds) / 1e6, 1),
                ]
            }, numeric: Set(1...11))
        html +=
            "<p class=\"meta\">Wall time is what a caller waits; CPU time is what the step cost padbench's "
            + "measuring thread (<code>CLOCK_THREAD_CPUTIME_ID</code>), without the time it waited for a core "
            + "(a host that slows every instruction still moves it); empty for an external program, which "
            + "computes in its own process. <code>reference</code>: a fixed workload timed during the run, the "
            + "machine's own speed, which <code>compare</code> checks before gating latency. Per second: samples "
            + "(presentations) per second of the run's wall time.</p>\n"
        return html
    }

    func runDetails() -> String {
        let m = manifest
        var html = "<h2>Run details</h2>\n"
        html +=
            "<p class=\"meta\">\(Self.e(m.kind)) run, \(Self.e(m.tool.name)) \(Self.e(m.tool.version)); dataset "
            + "\(Self.e(m.dataset.path)) (\(Self.e(m.dataset.layout)), \(m.dataset.samples) samples, fingerprint "
            + "\(Self.e(m.dataset.fingerprint))"
            + "\(m.dataset.shard.isEmpty ? "" : ", shard \(Self.e(m.dataset.shard))")); started "
            + "\(Self.e(m.times.started)), wall \(RateText.fixed(m.times.wallSeconds, 2)) s; "
            + "\(m.machine.processors) cores, concurrency \(m.machine.concurrency).</p>\n"
        html +=
            "<p class=\"meta\">counts: "
            + m.counts.sorted { $0.key < $1.key }.map { "\(Self.e($0.key)) \($0.value)" }.joined(separator: ", ")
            + "</p>\n"
        let calibrated = results.filter { $0.calibrationSet?.headline != nil }
        if !calibrated.isEmpty {
            html += HTMLPage.table(
                ["profile", "split", "APCER_max", "BPCER", "note"],
                calibrated.compactMap { r in
                    guard let set = r.calibrationSet, let p = set.headline else { return nil }
                    return [
                        r.profile.name, set.split + " (calibration)", Self.rate(p.apcerMax) + " " + p.apcerMaxSpecies,
                        Self.rate(p.bpcer),
                        "same thresholds as the reported split",
                    ]
                })
        }
        let notes = results.flatMap { r in r.notes.map { [r.profile.name, $0.text] } }
        if !notes.isEmpty { html += HTMLPage.table(["profile", "note"], notes) }
        html +=
            "<h2>Conventions</h2>\n"
            + HTMLPage.table(
                ["question", "this report"], m.conventions.sorted { $0.key < $1.key }.map { [$0.key, $0.value] })
        html += "<p class=\"meta\">command: \(Self.e(m.tool.commandLine.joined(separator: " ")))</p>\n"
        return html
    }
}

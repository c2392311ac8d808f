import Foundation
import PadArchive
import PadMetrics

/// `report.html`: one self-contained page (inline CSS and SVG, no scripts, nothing fetched) with the
/// run header and conventions, the profile comparison, per-species APCER with intervals, reject
/// reasons, and plots: DET per species and APCER_max (normal-deviate axes, BPCER@APCER markers),
/// APCER/BPCER against threshold (threshold marked), score histograms per class and species, latency.
///
/// ```swift
/// let html = HTMLReport(manifest: manifest, results: results, timing: timing).render()
/// ```
public struct HTMLReport {
    public var manifest: RunManifest
    public var results: [ProfileResult]
    public var timing: [(name: String, summary: TimingSummary, coldStartNanoseconds: UInt64)]
    /// SVG plots rendered, with their data-point counts (for tests).
    public private(set) var plots: [(title: String, points: Int)] = []

    public init(manifest: RunManifest, results: [ProfileResult] = [], timing: [(name: String, summary: TimingSummary, coldStartNanoseconds: UInt64)] = []) {
        self.manifest = manifest
        self.results = results
        self.timing = timing
    }

    static func e(_ s: String) -> String { SVGPlot.escape(s) }
    static func pct(_ v: Double) -> String { v.isFinite ? String(format: "%.2f%%", v * 100) : "n/a" }

    static func table(_ header: [String], _ rows: [[String]]) -> String {
        var html = "<table><thead><tr>" + header.map { "<th>\(e($0))</th>" }.joined() + "</tr></thead><tbody>\n"
        for row in rows { html += "<tr>" + row.map { "<td>\(e($0))</td>" }.joined() + "</tr>\n" }
        return html + "</tbody></table>\n"
    }

    /// Up to `limit` evenly spaced curve points plus the last (plots down-sample; CSVs stay exact).
    static func sample(_ count: Int, limit: Int = 400) -> [Int] {
        guard count > limit else { return Array(0..<count) }
        return (0..<limit).map { $0 * (count - 1) / (limit - 1) }
    }

    mutating func detPlot(_ title: String, _ curve: ErrorCurve, targets: [ProfileResult.Target]) -> String {
        var plot = SVGPlot(title: title, xLabel: "APCER (attacks accepted)", yLabel: "BPCER (bona fide rejected)", scale: .probit)
        let indices = Self.sample(curve.count)
        for s in curve.speciesNames.indices where curve.attackCounts[s] > 0 {
            plot.addLine(name: "APCER[\(curve.speciesNames[s])]", points: indices.map { (curve.apcer(s, $0), curve.bpcer($0)) },
                         color: SVGPlot.palette[(s + 1) % SVGPlot.palette.count], dashed: true)
        }
        plot.addLine(name: "APCER_max", points: indices.map { (curve.apcerMax($0).value, curve.bpcer($0)) }, color: SVGPlot.palette[0])
        for t in targets where t.targetMet {
            let k = curve.pointIndex(for: t.threshold)
            plot.addMarker(x: max(curve.apcerMax(k).value, 0.0006), y: t.rate, label: "BPCER@\(Self.pct(t.target))")
        }
        plots.append((title, plot.pointCount))
        return plot.render()
    }

    mutating func thresholdPlot(_ title: String, _ curve: ErrorCurve, marks: [(Double, String)]) -> String {
        var plot = SVGPlot(title: title, xLabel: "threshold (accept when score >= threshold)", yLabel: "error rate")
        let indices = Self.sample(curve.count).filter { curve.thresholds[$0].isFinite }
        plot.addLine(name: "APCER_max", points: indices.map { (curve.thresholds[$0], curve.apcerMax($0).value) }, color: SVGPlot.palette[1])
        plot.addLine(name: "BPCER", points: indices.map { (curve.thresholds[$0], curve.bpcer($0)) }, color: SVGPlot.palette[0])
        for (x, label) in marks { plot.addVertical(x: x, label: label) }
        plots.append((title, plot.pointCount))
        return plot.render()
    }

    /// Histograms from the curve's cumulative counts: 40 bins over the finite score range. Samples at
    /// -inf (rejected by another gate of the profile) are counted apart in the title.
    mutating func histogramPlot(_ title: String, _ curve: ErrorCurve) -> String {
        let finite = curve.thresholds.filter(\.isFinite)
        var plot = SVGPlot(title: title, xLabel: "score", yLabel: "fraction of the class")
        guard let low = finite.first, let high = finite.last else { return "" }
        let bins = 40
        let edges = (0...bins).map { low + (high - low) * Double($0) / Double(bins) }
        func below(_ edge: Double, _ counter: (Int) -> Int) -> Int { counter(curve.pointIndex(for: edge)) }
        func series(_ name: String, color: String, total: Int, rejectedBelow: @escaping (Int) -> Int) {
            guard total > 0 else { return }
            var points: [(Double, Double)] = []
            for b in 0..<bins {
                let upper = b == bins - 1 ? high.nextUp : edges[b + 1]
                let count = below(upper, rejectedBelow) - below(edges[b], rejectedBelow)
                points.append(((edges[b] + edges[b + 1]) / 2, Double(count) / Double(total)))
            }
            plot.addLine(name: name, points: points, color: color)
        }
        series("bona fide", color: SVGPlot.palette[0], total: curve.bonaFideCount) { curve.bonaFideRejected[$0] }
        for s in curve.speciesNames.indices {
            series(curve.speciesNames[s], color: SVGPlot.palette[(s + 1) % SVGPlot.palette.count], total: curve.attackCounts[s]) {
                curve.attackCounts[s] - curve.accepted(s, $0)
            }
        }
        plots.append((title, plot.pointCount))
        return plot.render()
    }

    /// The warning at the top of a profile's section: the gates left out (output not measured, no
    /// approximation) and those replaced by an approximation, and whether the rates are still a
    /// liveness decision. Empty when every gate was decided as written.
    static func leftOutWarning(_ r: ProfileResult) -> String {
        let approximated = r.notes.filter { $0.hasPrefix("approximated on") }
        guard !r.gatesLeftOut.isEmpty || !approximated.isEmpty || !r.isLivenessDecision else { return "" }
        var items: [String] = []
        if !r.gatesLeftOut.isEmpty {
            items.append("Gates left out (output not measured in this run): <b>\(e(r.gatesLeftOut.joined(separator: ", ")))</b>")
        }
        items += approximated.map { e($0) }
        if !r.isLivenessDecision {
            items.append("<b>Not a liveness decision</b>: the swept score or the only liveness / PAD gate was left out, so these rates say nothing about attacks; compare does not gate them.")
        }
        return "<div class=\"leftout\"><p><b>Warning, profile \(e(r.profile.name)):</b></p><ul>" + items.map { "<li>\($0)</li>" }.joined() + "</ul></div>\n"
    }

    public mutating func render() -> String {
        let m = manifest
        var body = "<h1>padbench report: \(Self.e(m.dataset.name))</h1>\n"
        body += "<p class=\"meta\">\(Self.e(m.kind)) run, \(Self.e(m.tool.name)) \(Self.e(m.tool.version)); dataset \(Self.e(m.dataset.path)) (\(Self.e(m.dataset.layout)), \(m.dataset.samples) samples, fingerprint \(Self.e(m.dataset.fingerprint))\(m.dataset.shard.isEmpty ? "" : ", shard \(Self.e(m.dataset.shard))")); started \(Self.e(m.times.started)), wall \(String(format: "%.2f", m.times.wallSeconds)) s; \(m.machine.processors) cores, concurrency \(m.machine.concurrency).</p>\n"
        body += "<p class=\"meta\">counts: " + m.counts.sorted { $0.key < $1.key }.map { "\(Self.e($0.key)) \($0.value)" }.joined(separator: ", ") + "</p>\n"
        if !results.isEmpty {
            body += "<h2>Profiles</h2>\n"
            body += Self.table(["profile", "split", "bona fide / attack / failed", "APCER_max [95% CI]", "species", "BPCER [95% CI]", "EER @ threshold", "BPCER@APCER=1%", "notes"],
                               results.map { r in
                                   let p = r.headline
                                   let apcer = p.map { "\(Self.pct($0.apcerMax.value)) [\(Self.pct($0.apcerMax.interval.low)), \(Self.pct($0.apcerMax.interval.high))] \($0.apcerMax.errors)/\($0.apcerMax.total)" } ?? "n/a"
                                   let bpcer = p.map { "\(Self.pct($0.bpcer.value)) [\(Self.pct($0.bpcer.interval.low)), \(Self.pct($0.bpcer.interval.high))] \($0.bpcer.errors)/\($0.bpcer.total)" } ?? "n/a"
                                   let eer = r.scoreMetrics.map { "\(Self.pct($0.eer.value)) @ \(CSVFormat.number(r.shownThreshold($0.eer.threshold)))" } ?? "-"
                                   return [r.profile.name, r.split, "\(r.bonaFideCount) / \(r.attackCount) / \(r.failedCount)", apcer, p?.apcerMaxSpecies ?? "",
                                           bpcer, eer, r.scoreMetrics.map { $0.bpcerAtAPCER[0].targetMet ? Self.pct($0.bpcerAtAPCER[0].rate) : "not met" } ?? "-",
                                           ([r.headlineError, r.scoreError].compactMap { $0 } + r.notes).joined(separator: "; ")]
                               })
            body += "<h2>APCER per species</h2>\n"
            body += Self.table(["profile", "split", "species", "accepted / attacks", "APCER", "95% CI"], results.flatMap { r -> [[String]] in
                r.sets.flatMap { set -> [[String]] in
                    guard let p = set.headline else { return [] }
                    return p.speciesNames.indices.sorted { p.speciesNames[$0] < p.speciesNames[$1] }.map { s in
                        [r.profile.name, set.split, p.speciesNames[s] + (p.speciesNames[s] == p.apcerMaxSpecies ? " (max)" : ""), "\(p.apcer[s].errors) / \(p.apcer[s].total)",
                         Self.pct(p.apcer[s].value), "[\(Self.pct(p.apcer[s].interval.low)), \(Self.pct(p.apcer[s].interval.high))]"]
                    }
                }
            })
            let reasons = results.flatMap { r in r.rejectReasons.map { [r.profile.name, $0.label, $0.species, $0.code, $0.message, String($0.count), Self.pct($0.fraction)] } }
            if !reasons.isEmpty {
                body += "<h2>Reject reasons (first failing gate)</h2>\n" + Self.table(["profile", "label", "species", "code", "message", "count", "fraction"], reasons)
            }
            for r in results {
                let warning = Self.leftOutWarning(r)
                guard let sm = r.scoreMetrics else {
                    if !warning.isEmpty { body += "<h2>\(Self.e(r.profile.name))</h2>\n" + warning }
                    continue
                }
                body += "<h2>\(Self.e(r.profile.name)): \(Self.e(sm.score))</h2>\n" + warning + "<div class=\"plots\">\n"
                body += detPlot("DET, \(r.profile.name)", sm.curve, targets: sm.bpcerAtAPCER)
                var marks = [(sm.eer.threshold, "EER")]  // the curve's own (bona-fide-high) scale
                if let c = r.calibrations.first { marks.append((c.threshold, "calibrated")) }
                if let gate = r.profile.gates.first(where: { $0.output == sm.score && $0.calibration == nil && !$0.isSkipped }) {
                    marks.append((gate.threshold, "profile threshold"))
                }
                body += thresholdPlot("APCER_max and BPCER vs threshold, \(r.profile.name)", sm.curve, marks: marks)
                body += histogramPlot("Score histograms, \(r.profile.name)", sm.curve)
                body += "</div>\n"
            }
        }
        if !timing.isEmpty {
            body += "<h2>Latency</h2>\n"
            let groups = timing.map { step in (label: step.name, values: [("p50", Double(step.summary.p50Nanoseconds) / 1e6), ("p90", Double(step.summary.p90Nanoseconds) / 1e6), ("p99", Double(step.summary.p99Nanoseconds) / 1e6)]) }
            body += "<div class=\"plots\">" + SVGPlot.bars(title: "Latency per step", unit: "ms", groups: groups.map { ($0.label, $0.values.map { (name: $0.0, value: $0.1) }) }) + "</div>\n"
            plots.append(("Latency per step", groups.count * 3))
            body += Self.table(["step", "count", "mean ms", "p50 ms", "p90 ms", "p99 ms", "max ms", "per s", "cold start ms"], timing.map { t in
                let s = t.summary
                return [t.name, String(s.count), String(format: "%.3f", s.meanNanoseconds / 1e6), String(format: "%.3f", Double(s.p50Nanoseconds) / 1e6),
                        String(format: "%.3f", Double(s.p90Nanoseconds) / 1e6), String(format: "%.3f", Double(s.p99Nanoseconds) / 1e6),
                        String(format: "%.3f", Double(s.maxNanoseconds) / 1e6), String(format: "%.1f", s.throughput), String(format: "%.1f", Double(t.coldStartNanoseconds) / 1e6)]
            })
        }
        body += "<h2>Conventions</h2>\n" + Self.table(["question", "this report"], m.conventions.sorted { $0.key < $1.key }.map { [$0.key, $0.value] })
        body += "<p class=\"meta\">command: \(Self.e(m.tool.commandLine.joined(separator: " ")))</p>\n"
        let css = """
            body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:24px auto;max-width:1240px;color:#222;font-size:14px}
            h1{font-size:22px}h2{font-size:17px;margin-top:28px;border-bottom:1px solid #ddd}
            table{border-collapse:collapse;margin:8px 0;font-size:12.5px}th,td{border:1px solid #ddd;padding:3px 7px;text-align:left}
            th{background:#f4f4f4}.meta{color:#555}.leftout{border:2px solid #c0392b;background:#fdecea;padding:4px 12px;margin:8px 0}.plots{display:flex;flex-wrap:wrap;gap:8px}svg{background:#fff;border:1px solid #eee}
            """
        return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/><title>padbench: \(Self.e(m.dataset.name))</title><style>\(css)</style></head>\n<body>\n\(body)</body></html>\n"
    }
}

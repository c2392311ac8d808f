import PadArchive
import PadMetrics

extension ErrorDiscardReport {
    /// How many outputs each EDC plot draws (those with the smallest area, the most useful gates).
    static let plottedOutputs = 3

    /// The report section: the outputs ranked by the area under the BPCER EDC up to 20% discarded
    /// (smaller = discarding by that output removes more of the decision's errors), then per
    /// profile one plot per rate with the best outputs and the ideal curve. Empty without analyses.
    package static func section(_ analyses: [Analysis]) -> String {
        guard !analyses.isEmpty else { return "" }
        let ranked = analyses.sorted {
            ($0.profile, nanLast($0.bpcerArea), $0.output) < ($1.profile, nanLast($1.bpcerArea), $1.output)
        }
        let rows = ranked.map { a in
            [
                a.profile, a.output, RateText.figure(a.bpcerArea), RateText.figure(a.bpcerIdealArea),
                rateAt(a.bpcer, areaLimit), RateText.figure(a.apcerArea), RateText.figure(a.apcerIdealArea),
                rateAt(a.apcerMax, areaLimit),
            ]
        }
        var html =
            "<h2>Error versus discard (ISO/IEC 29794-1 EDC)</h2>\n<p class=\"meta\">For each quality output, the "
            + "lowest-quality presentations of a class are discarded (up to 50%) and the profile's decision, at its "
            + "fixed threshold, is counted on the rest. Area = area under the curve up to 20% discarded (smaller is "
            + "better; the ideal discards exactly the errors first). Curves and rates per quality decile: edc.csv.</p>\n"
        html += HTMLPage.table(
            [
                "profile", "quality output", "BPCER area@20%", "ideal", "BPCER at 20% discarded", "APCER_max area@20%",
                "ideal", "APCER_max at 20% discarded",
            ], rows, numeric: [2, 3, 4, 5, 6, 7])
        for profile in uniqued(ranked.map(\.profile)) {
            let mine = ranked.filter { $0.profile == profile }
            html += "<div class=\"plots\">"
            html += plot(mine, title: "BPCER vs bona fide discarded, \(profile)", rate: "BPCER", curve: \.bpcer)
            let byAPCER = mine.sorted { nanLast($0.apcerArea) < nanLast($1.apcerArea) }
            html += plot(
                byAPCER, title: "APCER_max vs attacks discarded, \(profile)", rate: "APCER_max", curve: \.apcerMax)
            html += "</div>\n"
        }
        return html
    }

    static func nanLast(_ v: Double) -> Double { v.isNaN ? .infinity : v }

    static func uniqued(_ names: [String]) -> [String] {
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }
    }

    /// The rate once `fraction` of the class is discarded (the last point at or before it).
    static func rateAt(_ points: [ErrorDiscard.Point], _ fraction: Double) -> String {
        guard let p = points.last(where: { $0.discarded <= fraction }), !p.error.isNaN else { return "" }
        return RateText.percentWithCount(errors: p.errors, total: p.kept)
    }

    /// One EDC plot: the first ``plottedOutputs`` analyses' curves (steps) and the ideal of the first.
    static func plot(
        _ analyses: [Analysis], title: String, rate: String, curve: KeyPath<Analysis, [ErrorDiscard.Point]>
    ) -> String {
        let shown = analyses.prefix(plottedOutputs).filter { !$0[keyPath: curve].isEmpty }
        guard let first = shown.first else { return "" }
        var plot = SVGPlot(title: title, xLabel: "fraction discarded (lowest quality first)", yLabel: rate)
        plot.yPercent = true
        for (k, a) in shown.enumerated() {
            var points = a[keyPath: curve].map { ($0.discarded, $0.error) }
            if let last = points.last { points.append((0.5, last.1)) }
            plot.addLine(
                name: a.output, points: points, color: SVGPlot.palette[k % SVGPlot.palette.count], style: .stepHV)
        }
        let e0 = first[keyPath: curve][0].error
        let ideal = (0...50).map { Double($0) / 100 }.map { f in (f, max(0, (e0 - f) / (1 - f))) }
        plot.addLine(name: "ideal", points: ideal, color: "#888", dashed: true)
        plot.addVertical(x: areaLimit, label: "20%", color: "#555")
        return plot.render()
    }
}

import Foundation
import Testing
import PadMetrics
@testable import PadReport

/// The examples the PadReport doc comments point to, compiled and checked here. The examples
/// that need stored runs are tests next to the runs they read (named in each doc comment).
@Suite struct PadReportDocExamples {
    /// ``TextTable``: columns padded to their widest cell, one line per row.
    @Test func textTable() {
        let text = TextTable(header: ["profile", "bpcer"], rows: [["basic", "0.031"]]).render()
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count >= 2 && lines.first!.hasPrefix("profile") && lines.last!.hasPrefix("basic  "))
        #expect(lines.last!.hasSuffix("0.031"))
    }

    /// ``SVGPlot``: a probit DET with a step line and a marker renders one SVG element with both.
    @Test func histogramBins() {
        let bins = HistogramBins(values: [1, 2, 3, 5000], counts: [10, 10, 10, 1])!
        let axis = bins.axis // .log10: all positive and max / median = 5000 / 2 > 100
        #expect(axis == .log10 && bins.count == 30)
    }

    @Test func svgPlot() {
        var plot = SVGPlot(title: "DET", xLabel: "APCER", yLabel: "BPCER", scale: .probit)
        plot.addLine(name: "print", points: [(0.01, 0.2), (0.05, 0.1)], color: SVGPlot.palette[0], style: .stepHV)
        plot.addMarker(x: 0.05, y: 0.1, label: "EER 7.5%")
        let svg = plot.render()
        #expect(svg.hasPrefix("<svg") && svg.contains("</svg>"))
        #expect(svg.contains("EER 7.5%") && svg.contains("print") && svg.contains("<polyline"))
    }

    /// ``OutputSeparation``: bona fide 3, 4 against print 1, 2 separate completely (AUC 1 with
    /// higher-is-bona-fide; EER 0).
    @Test func outputSeparation() {
        let rows = OutputSeparation.rows(
            output: "quality.sharpness", values: [3, 4, 1, 2], species: [-1, -1, 0, 0], speciesNames: ["print"])
        #expect(rows.count == 1)
        let table = OutputSeparation.table(rows)
        #expect(table.rows.count == 1 && table.rows[0].contains("quality.sharpness") && table.rows[0].contains("print"))
        #expect(table.rows[0].contains("1") && table.rows[0].contains("0"))
    }
}

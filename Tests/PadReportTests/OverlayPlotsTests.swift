import Foundation
import Testing
@testable import PadMetrics
@testable import PadReport

/// `padbench plot` and the compare page: several curves on shared axes, one legend entry each,
/// no label over another.
@Suite struct OverlayPlotsTests {
    /// 100 bona fide and 100 print attacks; `shift` moves the attacks up (a worse model).
    static func curve(shift: Double) throws -> ErrorCurve {
        var set = ScoreSet()
        for i in 0..<100 {
            set.append(score: 0.4 + Double(i) / 100, species: nil)
            set.append(score: Double(i) / 100 * 0.8 + shift, species: "print")
        }
        return try ErrorCurve(set)
    }

    @Test func detAndThresholdPlotsShareAxesAndLegend() throws {
        let plots = OverlayPlots(curves: [
            .init(label: "base", curve: try Self.curve(shift: 0)),
            .init(label: "new", curve: try Self.curve(shift: 0.1)),
            .init(label: "vendor-x-2026-11 basic", curve: try Self.curve(shift: 0.2)),
        ])
        let page = SVGReader.read(plots.html(title: "padbench plot", lead: "3 curves"))
        #expect(page.svgCount == 3)
        // DET: one polyline per curve; ROC: the chance diagonal and one per curve; thresholds:
        // BPCER and APCER_max per curve.
        #expect(page.polylines.count == 3 + 4 + 6 && page.polylines.allSatisfy { $0.count > 1 })
        let legend = page.labels.map(\.text)
        #expect(legend.contains { $0.hasPrefix("base, EER ") } && legend.contains("new APCER_max"))
        #expect(legend.contains("vendor-x-2026-11 basic BPCER"))
        #expect(legend.contains { $0.hasPrefix("new, AUC 0.") } && legend.contains("chance (AUC 0.5)"))
        let overlaps = page.overlaps()
        #expect(overlaps.isEmpty, "overlapping labels: \(overlaps)")
        // The table: EER of the base curve by its own function, and the three operating points.
        let eer = try EqualErrorRate(try Self.curve(shift: 0))
        #expect(plots.rows[0][0] == "base" && plots.rows[0][3] == HTMLReport.pct(eer.value))
        #expect(
            OverlayPlots.header == ["curve", "bona fide", "attacks", "EER", "BPCER100", "BPCER20", "BPCER10", "AUC"])
        #expect(plots.rows[0][7] == RateText.fixed(areaUnderROC(try Self.curve(shift: 0)), 4))
    }

    /// A curve equal to an earlier one is drawn on top of it: its legend says so, a shifted one does not.
    @Test func identicalCurvesAreMarked() throws {
        let plots = OverlayPlots(curves: [
            .init(label: "base", curve: try Self.curve(shift: 0)),
            .init(label: "rerun", curve: try Self.curve(shift: 0)),
            .init(label: "new", curve: try Self.curve(shift: 0.1)),
        ])
        #expect(plots.identicalTo == [nil, 0, nil])
        let det = plots.det().render()
        #expect(det.contains("rerun (identical to base)") && !det.contains("new (identical"))
        #expect(plots.thresholds().render().contains("rerun (identical to base) BPCER"))
    }

    @Test func labelsComeFromTheRunFolder() {
        #expect(OverlayPlots.label(of: "reports/new") == "new")
        #expect(OverlayPlots.label(of: "reports/new/") == "new")
        #expect(OverlayPlots.label(of: "reports/new/results.tar.zst") == "new")
        #expect(OverlayPlots.label(of: "/tmp/base.tar.zst") == "base")
    }

    /// The ROC overlay the table page draws: the chance diagonal, then one line per curve from
    /// (1, 1) to (0, 0), the legend giving the area of ``ROCCurve`` (the AUC), no label over another.
    @Test func rocOverlayDrawsEveryCurveWithItsArea() throws {
        let curves = try [0, 0.3].map { try OverlayPlotsTests.curve(shift: $0) }
        let plots = OverlayPlots(curves: [
            .init(label: "base", curve: curves[0]), .init(label: "new", curve: curves[1]),
        ])
        let roc = plots.roc()
        // The chance diagonal (AUC 0.5) is drawn first, then one line per curve.
        let drawn = roc.series.filter { !$0.name.hasPrefix("chance") }
        #expect(roc.series.count == 3 && drawn.count == 2)
        for (series, curve) in zip(drawn, curves) {
            let area = try ROCCurve(curve).area
            // From everything accepted to nothing accepted.
            #expect(series.points.first! == (1, 1) && series.points.last! == (0, 0))
            #expect(series.name.hasSuffix(", AUC \(RateText.fixed(area, 4))"), "\(series.name)")
        }
        let page = SVGReader.read(roc.render())
        #expect(page.polylines.count == 3)
        #expect(page.overlaps().isEmpty, "overlapping labels: \(page.overlaps())")
    }
}

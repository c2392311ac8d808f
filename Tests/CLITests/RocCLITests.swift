import Foundation
import Testing

/// The ROC, d' and pyeer's zero-error points from the command line: `eval --scores` writes them
/// into metrics.csv and a ROC beside the DET in report.html; `plot` writes a ROC overlay.
@Suite struct RocCLITests {
    typealias CLI = CommandLineTests

    /// CommandLineTests.scores with replay raised by 0.3: bona fide 0.5, 0.525, ..., 0.975; print
    /// 0.05 to 0.32; replay 0.36 to 0.63. By hand: APCER is first 0 at 0.65, the lowest bona fide
    /// score above 0.63, where 6 of 20 bona fide (0.5 to 0.625) are rejected: BPCER 6/20. BPCER is
    /// last 0 at 0.5, the lowest bona fide score, where replay 0.51, 0.54, 0.57, 0.60 and 0.63
    /// are accepted: pooled APCER 5/20.
    @Test func evalReportHasROCAndPlotWritesItsOverlay() throws {
        let dir = CLI.folder()
        CLI.scores(dir + "/scores.csv", raise: 0.3)
        let eval = try CLI.run(["eval", "--scores", dir + "/scores.csv", "--out", dir + "/run"])
        #expect(eval.status == 0, "\(eval.err)")
        let metrics = try String(contentsOfFile: dir + "/run/metrics.csv", encoding: .utf8)
        #expect(metrics.contains("\nscores,all,presentation,,,bpcer@apcer=0,0.3,6,20,"), "\(metrics)")
        #expect(metrics.contains("\nscores,all,presentation,,,apcer@bpcer=0,0.25,5,20,"))
        #expect(metrics.contains("\nscores,all,presentation,,,d_prime,"))
        let html = try String(contentsOfFile: dir + "/run/report.html", encoding: .utf8)
        let det = try #require(html.range(of: "aria-label=\"DET, scores\""))
        let roc = try #require(html.range(of: "aria-label=\"ROC, scores\""))
        #expect(det.upperBound < roc.lowerBound)
        #expect(html.contains("chance (AUC 0.5)") && html.contains("ROC, AUC 0."))
        #expect(html.contains("d' (decidability, pyeer)") && html.contains("(pyeer ZeroFMR)"))

        let plot = try CLI.run([
            "plot", dir + "/run", dir + "/run", "--label", "a", "--label", "b", "--out", dir + "/plot",
        ])
        #expect(plot.status == 0, "\(plot.err)")
        let svg = try String(contentsOfFile: dir + "/plot/roc.svg", encoding: .utf8)
        #expect(svg.hasPrefix("<svg") && svg.contains("aria-label=\"ROC\"") && svg.contains("chance (AUC 0.5)"))
        #expect(svg.contains("a, AUC 0.") && svg.contains("b (identical to a), AUC 0."))
        let page = try String(contentsOfFile: dir + "/plot/plot.html", encoding: .utf8)
        #expect(page.contains("aria-label=\"DET\"") && page.contains("aria-label=\"ROC\""))
    }
}

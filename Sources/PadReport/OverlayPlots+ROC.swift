import PadMetrics

extension OverlayPlots {
    /// The ROC of every curve on shared linear axes, one colour each as in ``det(title:)``: pooled
    /// APCER (attacks accepted, every species together) against 1 - BPCER (bona fide accepted),
    /// the points of ``ROCCurve`` (scikit-learn's `roc_curve`) joined by straight lines, as a ROC
    /// is drawn; the legend gives each curve's area. A curve lacking a class has no ROC and is left out.
    package func roc(title: String = "ROC") -> SVGPlot {
        var plot = SVGPlot(
            title: title, xLabel: "APCER pooled (attacks accepted)", yLabel: "1 - BPCER (bona fide accepted)")
        let names = self.names
        for (k, c) in curves.enumerated() {
            guard let roc = try? ROCCurve(c.curve) else { continue }
            let points = HTMLReport.sample(roc.points.count).map {
                (roc.points[$0].falsePositiveRate, roc.points[$0].truePositiveRate)
            }
            plot.addLine(
                name: "\(names[k]), AUC \(RateText.fixed(roc.area, 4))", points: points, color: Self.color(k))
        }
        return plot
    }
}

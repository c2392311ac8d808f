import Foundation
import PadArchive
import PadMetrics

extension FoldSummary {
    /// `folds.html`: per profile, each metric's mean and sample standard deviation over the folds
    /// (percent), with the range and the number of folds that had it.
    ///
    /// ```swift
    /// try FoldSummary(runs: runs).html(runPaths: paths).write(toFile: "folds.html", atomically: true, encoding: .utf8)
    /// ```
    package func html(runPaths: [String]) -> String {
        func pct(_ text: String) -> String { Double(text).map { RateText.percent($0) } ?? "n/a" }
        var body = "<h1>padbench folds: \(runPaths.count) runs</h1>\n"
        body +=
            "<p class=\"lead\">Mean &#177; sample standard deviation (n - 1) of each profile's rates on its reported "
            + "split over \(runPaths.count) fold runs, as OULU-NPU protocols 3 and 4 report them. A metric missing "
            + "from a fold (no swept score) is left out of that metric "
            + "and the folds column says how many were used.</p>\n"
        for profile in Array(Set(statistics.map(\.profile))).sorted() {
            let mine = statistics.filter { $0.profile == profile }
            body += "<h2>\(HTMLPage.e(profile))</h2>\n"
            body += HTMLPage.table(
                ["metric", "folds", "mean \u{00B1} std", "min", "max"],
                mine.map { s in
                    [
                        s.metric, String(s.folds.count),
                        "\(RateText.percent(s.mean)) \u{00B1} \(s.std.isNaN ? "n/a" : RateText.percent(s.std))",
                        s.min.text, s.max.text,
                    ]
                }, numeric: [1, 2, 3, 4])
        }
        body +=
            "<h2>Runs</h2>\n"
            + HTMLPage.table(["fold", "run"], runPaths.enumerated().map { [String($0.offset + 1), $0.element] })
        return HTMLPage.document(title: "padbench folds", body: body)
    }
}

extension RunComparison {
    /// The comparison as a page: the verdict in one sentence, then every checked metric with base,
    /// new, change, the test used and its verdict (regressions first), and the notes.
    package func html(basePath: String, newPath: String) -> String {
        func value(_ check: Check, _ v: Double) -> String {
            check.name.hasSuffix("_us") ? "\(RateText.fixed(v, 1)) \u{00B5}s" : RateText.percent(v)
        }
        func change(_ check: Check) -> String {
            guard check.base.isFinite && check.new.isFinite else { return "n/a" }
            if check.name.hasSuffix("_us") {
                return check.base > 0 ? "\(RateText.fixed(check.new / check.base, 2))x" : "n/a"
            }
            let pp = (check.new - check.base) * 100
            return (pp >= 0 ? "+" : "") + RateText.fixed(pp, 2) + " pp"
        }
        let regressions = checks.filter(\.regressed)
        let test =
            paired
            ? "same samples, rates tested per sample by exact one-sided McNemar"
            : "different samples, rates tested by 95% Clopper-Pearson intervals"
        var body = "<h1>padbench compare</h1>\n"
        body +=
            "<p class=\"lead\">"
            + "\(regressions.isEmpty ? HTMLPage.flag("no regression", "ok") : HTMLPage.flag("REGRESSION", "bad")) "
            + "new \(HTMLPage.e(newPath)) against base \(HTMLPage.e(basePath)): "
            + "\(checks.filter(\.gated).count) gated metrics, \(regressions.count) regressed; \(test).</p>\n"
        let ordered = checks.enumerated().sorted {
            ($0.element.regressed ? 0 : ($0.element.gated ? 1 : 2), $0.offset) < (
                $1.element.regressed ? 0 : ($1.element.gated ? 1 : 2), $1.offset
            )
        }.map(\.element)
        let rows = ordered.map { c -> [String] in
            let verdict =
                c.regressed
                ? HTMLPage.flag("REGRESSED", "bad") : (c.gated ? HTMLPage.flag("ok", "ok") : HTMLPage.flag("not gated"))
            return [
                verdict, HTMLPage.e(c.name), value(c, c.base), value(c, c.new), change(c), HTMLPage.e(c.test),
                HTMLPage.e(c.detail),
            ]
        }
        body +=
            "<h2>Metrics</h2>\n"
            + HTMLPage.rawTable(
                ["verdict", "metric", "base", "new", "change", "test", "detail"], rows, numeric: [2, 3, 4])
        body += Self.howToRead
        body += curvesSection()
        if !notes.isEmpty { body += "<h2>Notes</h2>\n" + HTMLPage.table(["note"], notes.map { [$0] }) }
        return HTMLPage.document(title: "padbench compare", body: body)
    }

    /// The page's reading guide: when a rate, a curve metric and a latency step regress.
    static let howToRead = """
        <div class="howto"><h3>How to read this page</h3><ul>
        <li>A rate regresses when it rises by more than the \
        tolerance <i>and</i> the test says the rise is not chance: \
        McNemar on the samples whose decision changed (same samples), \
        or the new 95% interval entirely above the base one.</li>
        <li>EER and BPCER@APCER (same samples) regress when they rise by more than the tolerance \
        <i>and</i> the paired bootstrap's one-sided interval of new - base excludes zero: the \
        whole curve is judged, not one threshold. The curves below overlay base and new.</li>
        <li>A latency step regresses when the whole 95% interval of its p50 or p99 ratio \
        (new / base) lies above the limit.</li>
        <li>"not gated" metrics are shown for information (EER on different samples, \
        APCER_max on paired runs, profiles that are not a liveness decision, profiles left out \
        by --profiles); JUnit lists them as skipped.</li>
        </ul></div>

        """

    /// Per profile with a swept score: base and new overlaid on one DET and one threshold plot
    /// (``OverlayPlots``), and the bootstrap's settings.
    func curvesSection() -> String {
        guard !overlays.isEmpty else { return "" }
        var html = "<h2>Curves: base and new</h2>\n"
        if let b = bootstrap {
            html +=
                "<p class=\"meta\">EER and BPCER@APCER are gated by a paired bootstrap over subjects (a "
                + "sample without subject is its own unit): \(b.replicates) replicates, seed \(b.seed), one-sided "
                + "\(RateText.fixed(b.confidence * 100, 1))% interval of new - base; a stratum (bona fide or a "
                + "species) with fewer than \(b.minimumUnits) units leaves them not gated.</p>\n"
        }
        for o in overlays {
            let plots = OverlayPlots(curves: [.init(label: "base", curve: o.base), .init(label: "new", curve: o.new)])
            html +=
                "<h3>\(HTMLPage.e(o.profile))</h3>\n<div class=\"plots\">\n"
                + plots.det(title: "DET, \(o.profile)").render() + "\n"
                + plots.thresholds(title: "Error rates vs threshold, \(o.profile)").render() + "\n</div>\n"
        }
        return html
    }
}

import PadArchive
import PadEvaluation
import PadMetrics

extension SystemTable {
    /// The rows' curves for ``OverlayPlots``, labelled `rank. label`.
    package var plots: OverlayPlots {
        OverlayPlots(
            curves: rows.compactMap { row in row.curve.map { .init(label: "\(row.rank). \(row.label)", curve: $0) } })
    }

    /// `table.html`: the ranked table, one DET and one ROC of every row, the pairwise tests with
    /// how to read them, the notes and the runs.
    package func html() -> String {
        var body = "<h1>padbench table: \(rows.count) systems</h1>\n"
        body +=
            "<p class=\"lead\">Ranked by EER on each row's reported split (ties by BPCER@APCER="
            + "\(targets.first.map { HTMLPage.e(RateText.percent($0)) } ?? "-")); rates at each profile's operating "
            + "point with their 95% Clopper-Pearson intervals, EER and BPCER@APCER with the run's subject-bootstrap "
            + "95% interval when it stored one."
            + (hasSystemRates
                ? " IAPMR (the face comparator alone, all species pooled), IAPAR and system FNMR (the profile "
                    + "with the comparator) at each run's comparator threshold, as its vulnerability.csv holds them; "
                    + "- for a run without comparisons." : "")
            + "</p>\n"
        body += "<h2>Systems</h2>\n" + systemsHTML()
        let plots = self.plots
        if !plots.curves.isEmpty {
            body +=
                "<h2>Curves</h2>\n<div class=\"plots\">\n" + plots.det().render() + "\n" + plots.roc().render()
                + "\n</div>\n"
        }
        body += "<h2>Pairwise tests</h2>\n" + howToReadPairs + pairsHTML()
        if !notes.isEmpty { body += "<h2>Notes</h2>\n" + HTMLPage.table(["note"], notes.map { [$0] }) }
        body +=
            "<h2>Runs</h2>\n"
            + HTMLPage.table(
                ["rank", "system", "profile", "split", "dataset fingerprint", "run"],
                rows.map { [String($0.rank), $0.label, $0.profile.name, $0.reported.split, $0.fingerprint, $0.path] })
        return HTMLPage.document(title: "padbench table", body: body)
    }

    /// A value with its interval in the page's smaller grey type.
    static func cell(_ text: String, _ interval: String?) -> String {
        HTMLPage.e(text) + (interval.map { "<br><span class=\"ci\">\(HTMLPage.e($0))</span>" } ?? "")
    }

    static func rateCell(_ rate: RunSummary.Rate?, suffix: String = "") -> String {
        guard let rate else { return "n/a" }
        return cell(
            RateText.percentWithCount(errors: rate.errors, total: rate.total) + suffix,
            RateText.percentInterval(rate.ciLow, rate.ciHigh))
    }

    func systemsHTML() -> String {
        let header =
            ["rank", "system", "EER"] + targets.map { "BPCER@APCER=\(RateText.percent($0))" }
            + ["APCER_max", "BPCER"] + species.map { "APCER[\($0)]" } + ["AUC", "p50 latency (\u{00B5}s)"]
            + (hasSystemRates ? Self.systemHeaders : [])
        let body = rows.map { row -> [String] in
            let set = row.reported
            let eer = row.intervals?.eer
            var cells = [
                String(row.rank), HTMLPage.e(row.label),
                Self.cell(set.eer.map(RateText.percent) ?? "-", eer.map { RateText.percentInterval($0.low, $0.high) }),
            ]
            cells += targets.map { t in
                Self.cell(
                    row.bpcer(atAPCER: t).map(RateText.percent) ?? "not met",
                    row.bpcerInterval(atAPCER: t).map { RateText.percentInterval($0.low, $0.high) })
            }
            cells += [
                Self.rateCell(set.apcerMax, suffix: set.apcerMax == nil ? "" : " \(set.apcerMaxSpecies)"),
                Self.rateCell(set.bpcer),
            ]
            cells += species.map { Self.rateCell(row.apcer($0)) }
            let latency = row.latency
            cells += [
                set.auc.map { RateText.fixed($0, 4) } ?? "-",
                Self.cell(
                    latency.map { RateText.fixed($0.p50, 1) } ?? "-",
                    latency?.interval.map { "[\(RateText.fixed($0.low, 1)), \(RateText.fixed($0.high, 1))]" }),
            ]
            return cells + (hasSystemRates ? Self.systemCells(row.system) : [])
        }
        return HTMLPage.rawTable(header, body, numeric: Set(2..<header.count))
    }

    func pairsHTML() -> String {
        var body: [[String]] = []
        for pair in pairs {
            let name = HTMLPage.e(
                "\(rows[pair.first].rank). \(rows[pair.first].label) / \(rows[pair.second].rank). \(rows[pair.second].label)"
            )
            if let text = eerResult(pair) {
                let values = [rows[pair.first].reported.eer, rows[pair.second].reported.eer].map {
                    $0.map(RateText.percent) ?? "-"
                }
                body.append(
                    [name]
                        + [
                            "EER", values[0], values[1], pair.eer == nil ? "interval overlap" : "paired bootstrap",
                            text,
                        ]
                        .map(HTMLPage.e))
            }
            for test in pair.rates {
                let (how, result) = describe(test)
                body.append(
                    [name]
                        + [Self.metricName(test.metric), Self.short(test.first), Self.short(test.second), how, result]
                        .map(HTMLPage.e))
            }
        }
        return HTMLPage.rawTable(
            ["pair (first / second)", "metric", "first", "second", "test", "result"], body, numeric: [2, 3])
    }

    static func short(_ rate: RunSummary.Rate?) -> String {
        rate.map { RateText.percentWithCount(errors: $0.errors, total: $0.total) } ?? "n/a"
    }

    /// The pairwise section's reading guide.
    var howToReadPairs: String {
        """
        <div class="howto"><h3>How to read the pairwise tests</h3><ul>
        <li>Each pair of rows, the better-ranked first. Rows on the same samples (equal dataset \
        fingerprints in their manifests, the same reported split) are tested as <code>padbench compare \
        FIRST SECOND</code> tests them: BPCER and each species' APCER by the exact McNemar test on the \
        samples whose decision differs (discordant a / b: wrong in the first row only / in the second \
        only); the p shown is two-sided (twice the smaller one-sided p, at most 1), pairs.csv also has \
        both one-sided p-values, the second's being <code>compare</code>'s.</li>
        <li>EER: second - first by <code>compare</code>'s paired bootstrap over subjects (a sample \
        without subject is its own unit): \(bootstrap.replicates) replicates, seed \(bootstrap.seed), \
        one-sided \(RateText.fixed(bootstrap.confidence * 100, 1))% interval; an interval above zero \
        means the second row's EER is higher beyond chance. A stratum with fewer than \
        \(bootstrap.minimumUnits) units draws no replicate.</li>
        <li>Rows on different samples are not tested pairwise: their 95% intervals are compared \
        (disjoint: a difference beyond chance; overlapping: no conclusion).</li>
        <li>With many pairs some p-values fall below 0.05 by chance alone: no correction for \
        multiple comparisons is applied.</li>
        </ul></div>

        """
    }
}

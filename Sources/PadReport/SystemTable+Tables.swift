import PadArchive
import PadEvaluation
import PadMetrics

extension SystemTable {
    /// `table.csv`: one row per system, best first, rank column first; rates as fractions with
    /// every digit, counts and interval bounds in columns of their own, empty where undefined. When
    /// a run has comparisons, the whole-system columns (``systemColumns``) come before the run's path.
    package var csv: ReportTables.Table {
        var header = [
            "rank", "label", "profile", "split", "bona_fide", "attacks", "eer", "eer_ci_low", "eer_ci_high",
        ]
        for t in targets {
            let name = "bpcer@apcer=\(CSVFormat.number(t))"
            header += [name, name + "_ci_low", name + "_ci_high"]
        }
        header += Self.rateColumns("bpcer") + Self.rateColumns("apcer_max") + ["apcer_max_species"]
        header += species.flatMap { Self.rateColumns("apcer[\($0)]") }
        header += ["auc", "latency_p50_us", "latency_p50_ci_low_us", "latency_p50_ci_high_us"]
        header += (hasSystemRates ? Self.systemColumns : []) + ["run"]
        return (header, rows.map(csvRow))
    }

    static func rateColumns(_ name: String) -> [String] {
        [name, name + "_errors", name + "_n", name + "_ci_low", name + "_ci_high"]
    }

    static func number(_ value: Double?) -> String { value.map(CSVFormat.number) ?? "" }

    static func rateFields(_ rate: RunSummary.Rate?) -> [String] {
        guard let rate else { return ["", "", "", "", ""] }
        return [
            CSVFormat.number(rate.value), String(rate.errors), String(rate.total), CSVFormat.number(rate.ciLow),
            CSVFormat.number(rate.ciHigh),
        ]
    }

    func csvRow(_ row: Row) -> [String] {
        let set = row.reported
        let eer = row.intervals?.eer
        var fields = [
            String(row.rank), row.label, row.profile.name, set.split, String(set.bonaFide), String(set.attacks),
            Self.number(set.eer), Self.number(eer?.low), Self.number(eer?.high),
        ]
        for t in targets {
            let interval = row.bpcerInterval(atAPCER: t)
            fields += [Self.number(row.bpcer(atAPCER: t)), Self.number(interval?.low), Self.number(interval?.high)]
        }
        fields += Self.rateFields(set.bpcer) + Self.rateFields(set.apcerMax) + [set.apcerMaxSpecies]
        fields += species.flatMap { Self.rateFields(row.apcer($0)) }
        let latency = row.latency
        fields += [
            Self.number(set.auc), Self.number(latency?.p50), Self.number(latency?.interval?.low),
            Self.number(latency?.interval?.high),
        ]
        return fields + (hasSystemRates ? Self.systemFields(row.system) : []) + [row.path]
    }

    /// `pairs.csv`: one row per pair and metric, in pair order: the test, its counts and p-values
    /// (McNemar), its difference and one-sided lower bound (paired bootstrap of the EER), or
    /// whether the intervals overlap (different samples).
    package var pairsCSV: ReportTables.Table {
        let header = [
            "first_rank", "first", "second_rank", "second", "same_samples", "metric", "test", "first_value",
            "second_value", "first_only_wrong", "second_only_wrong", "p_second_worse", "p_first_worse", "p_two_sided",
            "difference", "lower_bound", "intervals_overlap", "detail",
        ]
        var table: [[String]] = []
        for pair in pairs {
            let (a, b) = (rows[pair.first], rows[pair.second])
            let lead = [String(a.rank), a.label, String(b.rank), b.label, pair.paired ? "yes" : "no"]
            for test in pair.rates {
                let m = test.mcnemar
                table.append(
                    lead + [
                        test.metric, m == nil ? "clopper-pearson-overlap" : "mcnemar", Self.number(test.first?.value),
                        Self.number(test.second?.value), m.map { String($0.firstOnlyWrong) } ?? "",
                        m.map { String($0.secondOnlyWrong) } ?? "", Self.number(m?.pSecondWorse),
                        Self.number(m?.pFirstWorse), Self.number(m?.pTwoSided), "", "",
                        test.intervalsOverlap.map { $0 ? "yes" : "no" } ?? "", describe(test).result,
                    ])
            }
            if let eer = eerFields(pair) { table.append(lead + eer) }
        }
        return (header, table)
    }

    /// The EER's fields of `pairs.csv` from `metric` on: the bootstrap's difference and bound, or
    /// whether the intervals overlap; nil when the pair has neither.
    func eerFields(_ pair: Pair) -> [String]? {
        let (a, b) = (rows[pair.first].reported.eer, rows[pair.second].reported.eer)
        guard let text = eerResult(pair) else { return nil }
        if let result = pair.eer, let m = result.metrics.first {
            let bound = result.tooFewUnits ? nil : m.lowerBound
            return [
                "eer", "paired-bootstrap", Self.number(a), Self.number(b), "", "", "", "", "", Self.number(m.rise),
                Self.number(bound), "", text,
            ]
        }
        return [
            "eer", "subject-bootstrap-overlap", Self.number(a), Self.number(b), "", "", "", "", "", "", "",
            pair.eerIntervalsOverlap.map { $0 ? "yes" : "no" } ?? "", text,
        ]
    }

    /// The test's name and its result in words, for the terminal and the page.
    func describe(_ test: RateTest) -> (test: String, result: String) {
        if let m = test.mcnemar {
            return (
                "McNemar (exact)",
                "p \(Self.pValue(m.pTwoSided)) two-sided (discordant \(m.firstOnlyWrong) / \(m.secondOnlyWrong))"
            )
        }
        guard let overlap = test.intervalsOverlap else { return ("interval overlap", "undefined in one row") }
        return (
            "interval overlap",
            overlap ? "95% intervals overlap: no conclusion" : "95% intervals disjoint: a difference beyond chance"
        )
    }

    /// The EER's result in words: the bootstrap's difference and one-sided bound, why it drew no
    /// replicate, or whether the intervals overlap; nil when there is nothing to say.
    func eerResult(_ pair: Pair) -> String? {
        if let result = pair.eer, let m = result.metrics.first {
            let level = RateText.fixed(result.settings.confidence * 100, 0)
            guard !result.tooFewUnits else {
                return
                    "not tested: \(result.smallestStratum) has \(result.smallestUnits) of the "
                    + "\(result.settings.minimumUnits) units the paired bootstrap needs"
            }
            guard let rise = m.rise, let low = m.lowerBound else { return "undefined in a row or in every replicate" }
            return
                "second - first \(RateText.percentagePoints(rise)), one-sided \(level)% interval "
                + "[\(RateText.percentagePoints(low)), +inf) (\(result.bonaFideUnits) bona fide and \(result.attackUnits) "
                + "attack \(result.unitKind)): \(m.significant ? "second higher beyond chance" : "no conclusion")"
        }
        guard !pair.paired else { return nil }
        guard let overlap = pair.eerIntervalsOverlap else { return "no interval in a row (no subjects)" }
        return
            "subject-bootstrap 95% intervals \(overlap ? "overlap: no conclusion" : "disjoint: a difference beyond chance")"
    }

    /// The terminal's main table: rank, system, EER, BPCER at each target, APCER_max, BPCER,
    /// AUC and latency, each number with its interval.
    /// What `padbench table` prints: the ranked table, APCER per species at each operating point,
    /// the whole system's rates when a run has comparisons, the pairwise tests and the notes (the
    /// command adds where it wrote the files).
    package var terminalText: String {
        var lines = [terminalTable.render()]
        if !species.isEmpty { lines.append("\nAPCER per species at each operating point:\n" + speciesTable.render()) }
        if hasSystemRates {
            lines.append(
                "\nwhole system with a face comparator (vulnerability.csv; IAPMR all species pooled, IAPAR and "
                    + "system FNMR at the profile's operating point):\n" + systemTable.render())
        }
        if !pairs.isEmpty {
            lines.append(
                "\npairwise (discordant a / b: wrong in the first only / the second only; no multiple-comparison "
                    + "correction):\n" + pairsTable.render())
        }
        lines += notes.map { "note: \($0)" }
        return lines.joined(separator: "\n")
    }

    package var terminalTable: TextTable {
        let header =
            ["rank", "system", "EER [95% CI]"]
            + targets.map { "BPCER@APCER=\(RateText.percent($0)) [CI]" }
            + ["APCER_max (n) [95% CI]", "BPCER (n) [95% CI]", "AUC", "p50 latency [95% CI]"]
        let body = rows.map { row -> [String] in
            let set = row.reported
            let eer = row.intervals?.eer
            return [String(row.rank), row.label, Self.percent(set.eer, eer)]
                + targets.map { Self.percent(row.bpcer(atAPCER: $0), row.bpcerInterval(atAPCER: $0)) }
                + [
                    Self.rate(set.apcerMax) + (set.apcerMax == nil ? "" : " \(set.apcerMaxSpecies)"),
                    Self.rate(set.bpcer), set.auc.map { RateText.fixed($0, 4) } ?? "-", Self.latency(row.latency),
                ]
        }
        return TextTable(header: header, rows: body)
    }

    /// APCER per species at each row's operating point.
    package var speciesTable: TextTable {
        TextTable(
            header: ["rank", "system"] + species.map { "APCER[\($0)] (n) [95% CI]" },
            rows: rows.map { row in [String(row.rank), row.label] + species.map { Self.rate(row.apcer($0)) } })
    }

    /// Every pair's tests, one line each.
    package var pairsTable: TextTable {
        var body: [[String]] = []
        for pair in pairs {
            let name =
                "\(rows[pair.first].rank). \(rows[pair.first].label) / \(rows[pair.second].rank). "
                + rows[pair.second].label
            if let text = eerResult(pair) {
                body.append([name, "EER", pair.eer == nil ? "interval overlap" : "paired bootstrap", text])
            }
            for test in pair.rates {
                let (how, result) = describe(test)
                body.append([name, Self.metricName(test.metric), how, result])
            }
        }
        return TextTable(header: ["pair (first / second)", "metric", "test", "result"], rows: body)
    }

    /// `= 0.0312`, or `< 0.0001` where four decimals would print a p-value as zero.
    static func pValue(_ p: Double) -> String { p < 0.0001 ? "< 0.0001" : "= " + RateText.fixed(p, 4) }

    /// `BPCER`, `APCER_max`, `APCER[print]`: a metric as the tables head it.
    static func metricName(_ metric: String) -> String {
        metric.hasPrefix("apcer") ? "APCER" + metric.dropFirst("apcer".count) : metric.uppercased()
    }

    static func percent(_ value: Double?, _ interval: ProfileResult.Interval?) -> String {
        guard let value else { return "-" }
        return RateText.percent(value) + (interval.map { " " + RateText.percentInterval($0.low, $0.high) } ?? "")
    }

    static func rate(_ rate: RunSummary.Rate?) -> String {
        rate.map {
            "\(RateText.percentWithCount(errors: $0.errors, total: $0.total)) \(RateText.percentInterval($0.ciLow, $0.ciHigh))"
        } ?? "n/a"
    }

    static func latency(_ latency: Latency?) -> String {
        guard let latency else { return "-" }
        let interval = latency.interval.map { " [\(RateText.fixed($0.low, 1)), \(RateText.fixed($0.high, 1))]" } ?? ""
        return "\(RateText.fixed(latency.p50, 1)) \u{00B5}s" + interval
    }
}

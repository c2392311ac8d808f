import PadArchive
import PadMetrics

extension SystemTable {
    /// A row's whole-system rates with a face comparator, as its run's `vulnerability.csv` holds
    /// them (docs/vulnerability.md; values, counts and 95% Clopper-Pearson intervals read, not
    /// computed again): the comparator's IAPMR over all species pooled, and the row's profile's
    /// IAPAR (pooled) and system FNMR at the run's comparator threshold.
    package struct SystemRates: Sendable, Equatable {
        /// The comparator threshold of the run and how it was set (`vulnerability.csv`'s words).
        package var threshold: Double
        package var rule: String
        /// Attack comparisons matched / attack comparisons: the comparator alone, whatever PAD decides.
        package var iapmr: RunSummary.Rate?
        /// Attacks accepted by the profile and matched / attacks with a PAD decision and a comparison;
        /// nil when the profile has no such row (not a liveness decision or capture check) or none counted.
        package var iapar: RunSummary.Rate?
        /// Genuine presentations rejected by the profile or not matched / genuine presentations with a
        /// PAD decision and a comparison; nil like ``iapar``.
        package var systemFNMR: RunSummary.Rate?

        package init(
            threshold: Double, rule: String, iapmr: RunSummary.Rate?, iapar: RunSummary.Rate?,
            systemFNMR: RunSummary.Rate?
        ) {
            self.threshold = threshold; self.rule = rule
            self.iapmr = iapmr; self.iapar = iapar; self.systemFNMR = systemFNMR
        }
    }

    /// Whether any row's run has comparisons: only then do the tables have the whole-system columns.
    package var hasSystemRates: Bool { rows.contains { $0.system != nil } }

    /// `table.csv`'s whole-system columns (empty where a run has no comparisons or a rate is undefined).
    static let systemColumns =
        rateColumns("iapmr") + rateColumns("iapar") + rateColumns("system_fnmr")
        + ["comparator_threshold", "comparator_threshold_rule"]

    static func systemFields(_ system: SystemRates?) -> [String] {
        rateFields(system?.iapmr) + rateFields(system?.iapar) + rateFields(system?.systemFNMR) + [
            number(system?.threshold), system?.rule ?? "",
        ]
    }

    /// The terminal's whole-system table: IAPMR, IAPAR and system FNMR with counts and intervals,
    /// and the comparator threshold each run's rates are at; `-` for a run without comparisons.
    package var systemTable: TextTable {
        TextTable(
            header: [
                "rank", "system", "IAPMR (n) [95% CI]", "IAPAR (n) [95% CI]", "system FNMR (n) [95% CI]",
                "comparator threshold",
            ],
            rows: rows.map { row in
                let s = row.system
                return [
                    String(row.rank), row.label, Self.systemRate(s?.iapmr), Self.systemRate(s?.iapar),
                    Self.systemRate(s?.systemFNMR), s.map { "\(CSVFormat.number($0.threshold)) (\($0.rule))" } ?? "-",
                ]
            })
    }

    /// A whole-system rate with its count and interval; `-` when the run has none (never 0).
    static func systemRate(_ rate: RunSummary.Rate?) -> String {
        rate.map {
            "\(RateText.percentWithCount(errors: $0.errors, total: $0.total)) "
                + RateText.percentInterval($0.ciLow, $0.ciHigh)
        } ?? "-"
    }

    /// The page's whole-system cells: each rate with its interval, the threshold with its rule.
    static func systemCells(_ system: SystemRates?) -> [String] {
        func rate(_ rate: RunSummary.Rate?) -> String { rate == nil ? "-" : rateCell(rate) }
        guard let system else { return ["-", "-", "-", "-"] }
        return [
            rate(system.iapmr), rate(system.iapar), rate(system.systemFNMR),
            cell(CSVFormat.number(system.threshold), system.rule),
        ]
    }

    static let systemHeaders = ["IAPMR", "IAPAR", "system FNMR", "comparator threshold"]
}

import PadArchive
import PadMetrics

/// `fairness.csv` and the report's "Demographic differentials" section (ISO/IEC 19795-10:2024):
/// for each profile and each `group.<name>` characteristic, BPCER and APCER per species of every
/// group with 95% Clopper-Pearson intervals, then the differentials over the groups: max/min
/// ratio of BPCER and of APCER_max, FDR and GARBE (``DemographicDifferentials``, formulas there).
///
/// Example: `FairnessReportTests.rowsOfThreeGroups` in `Tests/PadReportTests/FairnessReportTests.swift`.
///
/// Columns: `profile,split,level,characteristic,group,metric,species,value,errors,n,ci_low,ci_high,parameter`.
/// Group rows: `bpcer`, `apcer` (one per species), `apcer_max` (species = the group's worst),
/// `subjects` (distinct subjects among the group's decided samples, when the run names subjects;
/// `parameter` = `fewer than 2 subjects` when the group is one person or none).
/// Differential rows (empty `group`): `bpcer_max_min_ratio`, `apcer_max_max_min_ratio`, `fdr`,
/// `garbe` (`parameter` = `alpha=<α>`), `groups` (the number of groups).
package enum FairnessReport {
    /// α of FDR and GARBE (de Freitas Pereira & Marcel use 0.5: APCER and BPCER weigh the same).
    package static let alpha = 0.5

    package static let header = [
        "profile", "split", "level", "characteristic", "group", "metric", "species", "value", "errors", "n", "ci_low",
        "ci_high", "parameter",
    ]

    /// One characteristic of one profile: its groups' counts and the differentials.
    package struct Characteristic: Sendable {
        package var profile: String
        package var split: String
        package var level: String
        /// `group.sex`.
        package var name: String
        package var speciesNames: [String]
        package var groups: [DemographicDifferentials.GroupCounts]
        package var alpha: Double

        package init(
            profile: String, split: String, level: String, name: String, speciesNames: [String],
            groups: [DemographicDifferentials.GroupCounts], alpha: Double
        ) {
            self.profile = profile; self.split = split; self.level = level; self.name = name
            self.speciesNames = speciesNames; self.groups = groups; self.alpha = alpha
        }

        var apcer: [Double] { groups.map { $0.apcerMax.total > 0 ? $0.apcerMax.value : .nan } }
        var bpcer: [Double] { groups.map { $0.bpcer.total > 0 ? $0.bpcer.value : .nan } }
        package var fdr: Double {
            DemographicDifferentials.fairnessDiscrepancyRate(apcer: apcer, bpcer: bpcer, alpha: alpha)
        }
        package var garbe: Double { DemographicDifferentials.garbe(apcer: apcer, bpcer: bpcer, alpha: alpha) }
        package var bpcerRatio: Double { DemographicDifferentials.maxMinRatio(groups.map(\.bpcer)) }
        package var apcerRatio: Double { DemographicDifferentials.maxMinRatio(groups.map(\.apcerMax)) }
    }

    static func n(_ v: Double) -> String {
        v.isNaN ? "" : v == .infinity ? "inf" : CSVFormat.number(v)
    }

    package static func rows(_ characteristics: [Characteristic]) -> [[String]] {
        var rows: [[String]] = []
        for c in characteristics {
            let prefix = [c.profile, c.split, c.level, c.name]
            func rate(_ group: String, _ metric: String, _ species: String, _ p: Proportion) {
                let ci = p.interval
                rows.append(
                    prefix + [
                        group, metric, species, n(p.value), String(p.errors), String(p.total), n(ci.low), n(ci.high),
                        "",
                    ])
            }
            for g in c.groups {
                if g.bpcer.total > 0 { rate(g.group, "bpcer", "", g.bpcer) }
                for s in c.speciesNames.indices.sorted(by: { c.speciesNames[$0] < c.speciesNames[$1] })
                where g.apcer[s].total > 0 {
                    rate(g.group, "apcer", c.speciesNames[s], g.apcer[s])
                }
                if let worst = g.apcerMaxSpecies { rate(g.group, "apcer_max", c.speciesNames[worst], g.apcer[worst]) }
                if let subjects = g.subjects {
                    rows.append(
                        prefix + [
                            g.group, "subjects", "", String(subjects), "", "", "", "",
                            subjects < 2 ? "fewer than 2 subjects" : "",
                        ])
                }
            }
            func differential(_ metric: String, _ value: Double, _ parameter: String = "") {
                rows.append(prefix + ["", metric, "", n(value), "", "", "", "", parameter])
            }
            differential("groups", Double(c.groups.count))
            differential("bpcer_max_min_ratio", c.bpcerRatio)
            differential("apcer_max_max_min_ratio", c.apcerRatio)
            differential("fdr", c.fdr, "alpha=\(CSVFormat.number(c.alpha))")
            differential("garbe", c.garbe, "alpha=\(CSVFormat.number(c.alpha))")
        }
        return rows
    }

    package static func table(_ characteristics: [Characteristic]) -> ReportTables.Table {
        (header, rows(characteristics))
    }

    /// The report section: one table of differentials per characteristic and profile, then the
    /// groups' rates. Empty without characteristics.
    package static func section(_ characteristics: [Characteristic]) -> String {
        guard !characteristics.isEmpty else { return "" }
        let summary = characteristics.map { c in
            [
                c.profile, c.name, String(c.groups.count), RateText.figure(c.bpcerRatio),
                RateText.figure(c.apcerRatio), RateText.figure(c.fdr), RateText.figure(c.garbe),
            ]
        }
        var html =
            "<h2>Demographic differentials (ISO/IEC 19795-10)</h2>\n<p class=\"meta\">Per group of each "
            + "<code>group.*</code> characteristic: BPCER and APCER_max at the profile's decision. FDR = 1 − "
            + "(α·max|ΔAPCER| + (1−α)·max|ΔBPCER|) over group pairs (1 = equal rates); GARBE = α·Gini(APCER) + "
            + "(1−α)·Gini(BPCER) with the n/(n−1) correction (0 = equal rates); α = "
            + "\(CSVFormat.number(characteristics[0].alpha)). Shown to 3 decimals; every number is in fairness.csv "
            + "with all its digits.</p>\n"
        html += HTMLPage.table(
            ["profile", "characteristic", "groups", "BPCER max/min", "APCER_max max/min", "FDR", "GARBE"], summary,
            numeric: [2, 3, 4, 5, 6])
        let groups = characteristics.flatMap { c in
            c.groups.map { g in
                [
                    c.profile, c.name, g.group,
                    g.subjects.map { $0 < 2 ? "\($0) (fewer than 2: one person's rates)" : String($0) } ?? "unknown",
                    g.bpcer.total > 0 ? HTMLReport.rate(g.bpcer) : "",
                    g.apcerMaxSpecies.map { c.speciesNames[$0] } ?? "",
                    g.apcerMax.total > 0 ? HTMLReport.rate(g.apcerMax) : "",
                ]
            }
        }
        html += HTMLPage.table(
            ["profile", "characteristic", "group", "subjects", "BPCER", "worst species", "APCER_max"], groups,
            numeric: [4, 6])
        let single = characteristics.flatMap { c in
            c.groups.filter { ($0.subjects ?? 2) < 2 }.map { "\(c.name)=\($0.group)" }
        }
        if !single.isEmpty {
            html +=
                "<p class=\"meta\">Groups of fewer than 2 subjects (\(HTMLPage.e(Set(single).sorted().joined(separator: ", ")))): "
                + "their rates measure one person, not the group; read the differentials with that in mind.</p>\n"
        }
        return html
    }
}

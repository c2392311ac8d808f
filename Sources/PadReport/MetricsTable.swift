import PadArchive
import PadEvaluation
import PadMetrics

/// `metrics.csv`: every number of `summary.csv` and `per_species.csv` as one long table, one row
/// per (profile, split, level, group, metric), so a notebook reads it with one `pandas.read_csv`
/// and a filter, without knowing the wide files' column layout.
///
/// Example: `MetricsTableTests.valuesEqualSummaryAndPerSpecies`
/// in `Tests/PadReportTests/MetricsTableTests.swift` (compiled and run by `swift test`).
///
/// Columns: `profile,split,level,group_kind,group,metric,value,errors,n,ci_low,ci_high,ci_method`.
/// - `level`: `presentation` (the headline files; a still image is a presentation of one frame)
///   or `frame` (the `frames/` files of a run whose presentations have several frames).
/// - `group_kind`/`group`: empty for a rate over the whole split; `species` and the species for
///   a per-species rate (`apcer`, `eer`) and for `apcer_max`/`apcer_max_system` (the species
///   attaining the maximum); `attack_potential` and the level for `apcer_ap`.
/// - `errors`/`n`: the counts of a proportion (empty for a rate that is not one, such as an EER).
/// - `ci_low`/`ci_high` with `ci_method`: `clopper-pearson-95` (over samples, or presentations),
///   or `subject-bootstrap-95` (subject-clustered percentile bootstrap, ``SubjectBootstrap``): a
///   rate with both intervals has one row per method, so the key is
///   (profile, split, level, group_kind, group, metric, ci_method).
/// Values are printed by the same formatter as the wide files, so they are equal as text.
package enum MetricsTable {
    package static let header = [
        "profile", "split", "level", "group_kind", "group", "metric", "value", "errors", "n", "ci_low", "ci_high",
        "ci_method",
    ]
    package static let clopperPearson = "clopper-pearson-95"
    package static let subjectBootstrap = "subject-bootstrap-95"

    /// The rows of `results` counted at `level` (`presentation` or `frame`).
    package static func rows(
        _ results: [ProfileResult], level: String, attackPotential: AttackPotential? = nil
    ) -> [[String]] {
        var rows: [[String]] = []
        for r in results {
            for set in r.sets {
                let key = Key(profile: r.profile.name, split: set.split, level: level)
                rows += headlineRows(set, key: key, attackPotential: attackPotential)
                rows += scoreRows(set, key: key)
                rows += subjectRows(set, key: key)
            }
        }
        return rows
    }

    /// The table of the headline results and, for a run of presentations of several frames, its
    /// frame-level results after them.
    package static func table(
        presentations: [ProfileResult], frames: [ProfileResult], attackPotential: AttackPotential? = nil
    ) -> ReportTables.Table {
        (
            header,
            rows(presentations, level: "presentation", attackPotential: attackPotential)
                + rows(frames, level: "frame", attackPotential: attackPotential)
        )
    }

    struct Key {
        var profile, split, level: String

        func row(
            _ metric: String, _ value: Double, kind: String = "", group: String = "", errors: String = "",
            n: String = "", ci: (Double, Double)? = nil, method: String = ""
        ) -> [String] {
            [
                profile, split, level, kind, group, metric, text(value), errors, n, ci.map { text($0.0) } ?? "",
                ci.map { text($0.1) } ?? "", ci == nil ? "" : method,
            ]
        }

        /// A proportion with its counts and Clopper-Pearson interval (ReportTables' rule: counts
        /// empty when the class has no samples).
        func proportion(_ metric: String, _ p: Proportion, kind: String = "", group: String = "") -> [String] {
            let ci = p.interval
            return row(
                metric, p.value, kind: kind, group: group, errors: ReportTables.count(p.errors, p.total),
                n: ReportTables.count(p.total, p.total), ci: (ci.low, ci.high), method: MetricsTable.clopperPearson)
        }
    }

    static func text(_ v: Double) -> String { v.isNaN ? "" : ReportTables.n(v) }

    /// The rates at the profile's decision: summary.csv's headline columns, per_species.csv's
    /// APCER per species and summary.csv's APCER_AP per level.
    static func headlineRows(
        _ set: ProfileResult.SetResult, key: Key, attackPotential: AttackPotential?
    ) -> [[String]] {
        guard let p = set.headline else { return [] }
        var rows = [
            key.proportion("apcer_max", p.apcerMax, kind: "species", group: p.apcerMaxSpecies),
            key.proportion("apcer_pooled", p.apcerPooled), key.proportion("bpcer", p.bpcer),
            key.row("acer_nonconformant", p.acer), key.proportion("bpnrr", p.bpnrr), key.proportion("apnrr", p.apnrr),
            key.proportion("bpcer_system", p.bpcerSystem),
            key.proportion("apcer_max_system", p.apcerMaxSystem, kind: "species", group: p.apcerMaxSystemSpecies),
            key.row("hter_pooled", Proportion.mean(p.apcerPooled, p.bpcer)),
        ]
        for s in p.speciesNames.indices.sorted(by: { p.speciesNames[$0] < p.speciesNames[$1] }) {
            rows.append(key.proportion("apcer", p.apcer[s], kind: "species", group: p.speciesNames[s]))
        }
        for level in attackPotential?.apcerPerLevel(speciesNames: p.speciesNames, apcer: p.apcer) ?? [] {
            rows.append(key.proportion("apcer_ap", level.apcer, kind: "attack_potential", group: level.level))
        }
        return rows
    }

    /// The swept score's rates (thresholds chosen on the split itself): EER, targets, AUC, pyeer's
    /// d' and zero-error points (``zeroErrorRows(_:key:)``) and the per-species EER of
    /// per_species.csv. A target not met has no row (its cell is empty in summary.csv).
    static func scoreRows(_ set: ProfileResult.SetResult, key: Key) -> [[String]] {
        guard let m = set.scoreMetrics else { return [] }
        var rows = [
            key.row("eer", m.eer.value), key.row("eer_apcer_max", m.eer.apcerMax),
            key.row("eer_bpcer", m.eer.bpcer),
        ]
        for t in m.bpcerAtAPCER where t.targetMet {
            rows.append(key.row("bpcer@apcer=\(ReportTables.n(t.target))", t.rate))
        }
        rows.append(key.row("auc", m.auc))
        for t in m.bestBPCERAtAPCER where t.targetMet { rows.append(key.row(ProfileResult.isoName(t.target), t.rate)) }
        for t in m.apcerAtBPCER where t.targetMet {
            rows.append(key.row("apcer@bpcer=\(ReportTables.n(t.target))", t.rate))
        }
        if let pooled = m.pooledEER { rows.append(key.row("eer_pooled", pooled.value)) }
        rows += zeroErrorRows(m, key: key)
        for (s, name) in m.curve.speciesNames.enumerated().sorted(by: { $0.element < $1.element })
        where m.speciesEER.indices.contains(s) && !m.speciesEER[s].isNaN {
            rows.append(key.row("eer", m.speciesEER[s], kind: "species", group: name))
        }
        return rows
    }

    /// pyeer 0.5.6's separation measures of the swept score (`get_eer_stats`), bona fide as its
    /// genuine class and every attack species pooled as its impostors (FMR = pooled APCER, FNMR =
    /// BPCER):
    /// - `d_prime`: d' = |mean_bf - mean_attack| / sqrt((var_bf + var_attack) / 2), population
    ///   variances (``PadMetrics/DecidabilityIndex``); no row when a class has no finite score.
    /// - `bpcer@apcer=0` (pyeer's ZeroFMR): BPCER with its counts and Clopper-Pearson interval at
    ///   the lowest threshold where pooled APCER reaches its lowest value, and that APCER in
    ///   `bpcer@apcer=0_apcer_pooled` (not 0 when an attack holds the highest score: pyeer reports
    ///   the point anyway, and so does this row; the companion row says so).
    /// - `apcer@bpcer=0` (pyeer's ZeroFNMR): pooled APCER at the highest threshold where BPCER is
    ///   at its lowest (the lowest bona fide score), and that BPCER in `apcer@bpcer=0_bpcer` (not 0
    ///   only when bona fide samples are rejected at every threshold).
    /// The two companion rows play the part `eer_apcer_max` and `eer_bpcer` play for the EER.
    static func zeroErrorRows(_ m: ProfileResult.ScoreMetrics, key: Key) -> [[String]] {
        var rows: [[String]] = []
        if let d = m.decidability, !d.value.isNaN { rows.append(key.row("d_prime", d.value)) }
        if let zero = m.zeroErrorPoints {
            rows += [
                key.proportion("bpcer@apcer=0", zero.bpcerAtZeroAPCER.bpcer),
                key.proportion("bpcer@apcer=0_apcer_pooled", zero.bpcerAtZeroAPCER.apcerPooled),
                key.proportion("apcer@bpcer=0", zero.apcerAtZeroBPCER.apcerPooled),
                key.proportion("apcer@bpcer=0_bpcer", zero.apcerAtZeroBPCER.bpcer),
            ]
        }
        return rows
    }

    /// summary.csv's subject-clustered bootstrap intervals, beside the value the headline row gives.
    static func subjectRows(_ set: ProfileResult.SetResult, key: Key) -> [[String]] {
        guard let b = set.subjectIntervals, !b.hasSingleSubjectStratum else { return [] }
        func row(_ metric: String, _ value: Double?, _ i: ProfileResult.Interval?, group: String = "") -> [[String]] {
            guard let i, let value else { return [] }
            let kind = group.isEmpty ? "" : "species"
            return [
                key.row(
                    metric, value, kind: kind, group: group, ci: (i.low, i.high), method: MetricsTable.subjectBootstrap)
            ]
        }
        let p = set.headline, m = set.scoreMetrics
        var rows =
            row("apcer_max", p?.apcerMax.value, b.apcerMax, group: p?.apcerMaxSpecies ?? "")
            + row("bpcer", p?.bpcer.value, b.bpcer) + row("eer", m?.eer.value, b.eer)
        for t in b.bpcerAtAPCER {
            let point = m?.bpcerAtAPCER.first { $0.target == t.target && $0.targetMet }
            rows += row("bpcer@apcer=\(ReportTables.n(t.target))", point?.rate, t.interval)
        }
        return rows
    }
}

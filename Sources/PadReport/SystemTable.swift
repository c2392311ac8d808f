import PadArchive
import PadEvaluation
import PadMetrics
import PadVocabulary

/// `padbench table RUN...`: several systems ranked on one page, as NIST FATE PAD reports many
/// algorithms on one sequestered set in one table and one DET.
///
/// Example: `SystemTableTests.threeScoreRunsRankAndPairAsCompare`
/// in `Tests/PadReportTests/SystemTableTests.swift` (compiled and run by `swift test`).
/// Every run is verified first (``StoredRun/verify()``); then one row per (run, profile) with a
/// swept score, or per profile `profiles` names, with the numbers of its reported split as
/// `results.json` holds them: EER (subject-bootstrap interval when the run stored one), BPCER at
/// each APCER target (bob.pad.base's rule, `bpcerAtAPCER`, with its interval), APCER per species,
/// APCER_max and BPCER at the profile's operating point (95% Clopper-Pearson), AUC, and the p50
/// per-sample latency of `timing.csv`'s `sample_total` row (with the order-statistic interval of
/// `samples.csv`'s per-sample times). Ranked by EER, ties by BPCER at the first target, then by
/// the order given; an undefined number ranks after every defined one, and rows equal on both
/// share a rank (1, 2, 2, 4). Each pair of rows is tested as `compare` tests two runs
/// (``Pair``).
package struct SystemTable: Sendable {
    /// A wrong command line that shows only once the runs are read: a profile none of them has,
    /// or fewer than two rows (exit 64).
    package struct UsageError: Error, Sendable, CustomStringConvertible {
        package var description: String
        init(_ description: String) { self.description = description }
    }

    package struct Latency: Sendable, Equatable {
        /// `timing.csv`'s `sample_total` p50 (wall clock), microseconds.
        package var p50: Double
        /// The distribution-free 95% interval of the median per-sample total (``QuantileInterval``
        /// over `samples.csv`'s times, as `compare` bounds it), microseconds; nil when the samples
        /// are too few to bound it.
        package var interval: ProfileResult.Interval?
    }

    package struct Row: Sendable {
        package var rank: Int
        package var label: String
        package var path: String
        package var profile: RunSummary.ProfileSummary
        /// The manifest's dataset fingerprint: rows with equal ones are on the same samples.
        package var fingerprint: String
        package var latency: Latency?
        /// The exact error curve of the swept score (nil without one), for the DET and the ROC.
        package var curve: ErrorCurve?
        package var reported: RunSummary.SetSummary { profile.reported }

        /// BPCER at APCER = `target` (nil: not reported, or the target is out of reach).
        package func bpcer(atAPCER target: Double) -> Double? {
            reported.bpcerAtAPCER.first { $0.target == target }?.rate
        }

        package func bpcerInterval(atAPCER target: Double) -> ProfileResult.Interval? {
            intervals?.bpcerAtAPCER.first { $0.target == target }?.interval
        }

        /// The run's subject-bootstrap intervals, nil when a stratum had a single subject: resampling
        /// one subject gives the same set every time, an interval of zero width that is no interval
        /// (`show` and `compare` call it "1 subject"; the sample dataset's bona fide eval split is one).
        package var intervals: ProfileResult.SubjectIntervals? {
            reported.subjectBootstrap.flatMap { $0.hasSingleSubjectStratum ? nil : $0 }
        }

        package func apcer(_ species: String) -> RunSummary.Rate? {
            reported.apcer.first { $0.species == species }?.apcer
        }
    }

    /// Best first.
    package var rows: [Row]
    /// Every pair of rows, the better-ranked first, in row order.
    package var pairs: [Pair]
    /// The APCER targets the rows report, ascending; the first breaks EER ties.
    package var targets: [Double]
    /// Every species of any row, by name.
    package var species: [String]
    /// Rows that are no liveness decision, runs with no row, pairs on different samples.
    package var notes: [String]
    package var bootstrap: PairedBootstrap.Settings

    package init(
        runs: [(label: String, run: StoredRun)], profiles wanted: [String]? = nil,
        bootstrap: PairedBootstrap.Settings = PairedBootstrap.Settings()
    ) throws {
        // An edited archive is refused before any of its numbers is read.
        for entry in runs { try entry.run.verify() }
        let picked = try Self.pick(runs.map(\.run), profiles: wanted)
        var rows: [Row] = [], swept: [StoredRun.SweptScores?] = [], runOf: [Int] = []
        var notes: [String] = []
        let labels = Self.labels(runs.map(\.label), picked)
        for (r, entry) in runs.enumerated() {
            if picked[r].isEmpty {
                notes.append(
                    "\(entry.label): no profile \(wanted == nil ? "with a swept score" : "of --profiles"); not in the table"
                )
                continue
            }
            let scores = try entry.run.sweptScores(profiles: picked[r].filter { $0.score != nil }.map(\.name))
            let latency = try Self.latency(entry.run)
            for (k, profile) in picked[r].enumerated() {
                rows.append(
                    Row(
                        rank: 0, label: labels[r][k], path: entry.run.path, profile: profile,
                        fingerprint: entry.run.manifest.dataset.fingerprint, latency: latency,
                        curve: scores[profile.name]?.curve))
                swept.append(scores[profile.name])
                runOf.append(r)
            }
        }
        guard rows.count >= 2 else {
            throw UsageError(
                "\(rows.count) row\(rows.count == 1 ? "" : "s") to rank (one per run and profile "
                    + "\(wanted == nil ? "with a swept score" : "of --profiles")); give at least two")
        }
        targets = Set(rows.flatMap { $0.reported.bpcerAtAPCER.map(\.target) }).sorted()
        species = Set(rows.flatMap { $0.reported.apcer.map(\.species) }).sorted()
        let first = targets.first
        let (order, ranks) = Self.ranking(rows.map { ($0.reported.eer, first.flatMap($0.bpcer(atAPCER:))) })
        self.rows = order.enumerated().map { k, row in
            var ranked = rows[row]
            ranked.rank = ranks[k]
            return ranked
        }
        notes += self.rows.compactMap(Self.decisionNote)
        notes += self.rows.filter { $0.reported.subjectBootstrap != nil && $0.intervals == nil }.map {
            "\($0.label): no EER or BPCER@APCER interval: a class has a single subject, and resampling one "
                + "subject gives the same set every time"
        }
        self.bootstrap = bootstrap
        pairs = []
        self.notes = notes
        let decisions = try Self.decisions(runs.map(\.run), rows: self.rows, runOf: order.map { runOf[$0] })
        pairs = pairTests(swept: order.map { swept[$0] }, decisions: decisions)
        if let note = differentSamplesNote { self.notes.append(note) }
    }

    /// Each run's profiles in the table: those with a swept score, or those `wanted` names
    /// (refused when none of the runs has one of the names).
    static func pick(_ runs: [StoredRun], profiles wanted: [String]?) throws -> [[RunSummary.ProfileSummary]] {
        guard let wanted else { return runs.map { $0.summary.profiles.filter { $0.score != nil } } }
        let known = Set(runs.flatMap { $0.summary.profiles.map(\.name) })
        if let missing = wanted.first(where: { !known.contains($0) }) {
            throw UsageError(
                "--profiles names \(missing), which none of the runs has (profiles: \(known.sorted().joined(separator: ", ")))"
            )
        }
        return runs.map { run in wanted.compactMap { name in run.summary.profiles.first { $0.name == name } } }
    }

    /// Row labels: the run's label, followed by the profile when the rows have several profiles;
    /// a label given twice (a run named twice, two folders of one name) gets ` (2)`, ` (3)`.
    static func labels(_ runLabels: [String], _ picked: [[RunSummary.ProfileSummary]]) -> [[String]] {
        let severalProfiles = Set(picked.flatMap { $0.map(\.name) }).count > 1
        var seen: [String: Int] = [:]
        return zip(runLabels, picked).map { label, profiles in
            profiles.map { profile in
                let text = severalProfiles ? "\(label) \(profile.name)" : label
                seen[text, default: 0] += 1
                return seen[text]! == 1 ? text : "\(text) (\(seen[text]!))"
            }
        }
    }

    /// The order of the rows and their ranks: EER ascending, ties by BPCER at the first target,
    /// then the order given; nil after every number. Rows equal on both share the rank of the
    /// first of them (competition ranking: 1, 2, 2, 4).
    static func ranking(_ keys: [(eer: Double?, bpcer: Double?)]) -> (order: [Int], ranks: [Int]) {
        let values = keys.map { ($0.eer ?? .infinity, $0.bpcer ?? .infinity) }
        let order = values.indices.sorted { (values[$0].0, values[$0].1, $0) < (values[$1].0, values[$1].1, $1) }
        var ranks: [Int] = []
        for (k, row) in order.enumerated() {
            let tied = k > 0 && values[order[k - 1]] == values[row]
            ranks.append(tied ? ranks[k - 1] : k + 1)
        }
        return (order, ranks)
    }

    /// Why a row's rates are not a liveness decision, as `compare` says it; nil when they are.
    static func decisionNote(_ row: Row) -> String? {
        if row.profile.isCaptureOnly {
            return "\(row.label): a capture check (what its checks turn away), not a liveness decision"
        }
        guard row.profile.isLivenessDecision else {
            return
                "\(row.label): not a liveness decision (gates left out: \(row.profile.gatesLeftOut.joined(separator: ", ")))"
        }
        return nil
    }

    /// A run's p50 per-sample latency: `timing.csv`'s `sample_total` row, with the interval of the
    /// median of `samples.csv`'s per-sample totals; nil for a run without timing (score files).
    static func latency(_ run: StoredRun) throws -> Latency? {
        guard let timing = run.timing, let step = timing.header.firstIndex(of: "step"),
            let column = timing.header.firstIndex(of: "p50_us"),
            let row = timing.records.first(where: { $0.fields[step] == "sample_total" }),
            let p50 = Double(row.fields[column])
        else { return nil }
        var latency = Latency(p50: p50, interval: nil)
        guard run.contains(RunFile.samples.name) else { return latency }
        let totals = LatencyComparison.RowTimes.sorted(
            try LatencyComparison.times(run.table(RunFile.samples.name)).wall["sample_total"] ?? [])
        if !totals.isEmpty {
            let median = QuantileInterval(sorted: totals, quantile: 0.5, confidence: 0.95)
            if median.isBounded { latency.interval = .init(low: median.low / 1000, high: median.high / 1000) }
        }
        return latency
    }
}

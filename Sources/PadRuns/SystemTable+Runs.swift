import PadArchive
import PadEvaluation
import PadMetrics
import PadReport
import PadVocabulary

/// How `padbench table` builds its ``SystemTable`` from stored runs: every run verified, one row
/// per (run, profile) ranked, with the whole system's rates of the run's `vulnerability.csv`
/// (``vulnerability(_:label:)``), every pair of rows tested as `compare` tests two runs.
extension SystemTable {
    /// A wrong command line that shows only once the runs are read: a profile none of them has,
    /// or fewer than two rows (exit 64).
    package struct UsageError: Error, Sendable, CustomStringConvertible {
        package var description: String
        init(_ description: String) { self.description = description }
    }

    package init(
        runs: [(label: String, run: StoredRun)], profiles wanted: [String]? = nil,
        bootstrap: PairedBootstrap.Settings = PairedBootstrap.Settings()
    ) throws {
        // An edited archive is refused before any of its numbers is read.
        for entry in runs { try entry.run.verify() }
        let picked = try Self.pick(runs.map(\.run), profiles: wanted)
        var rows: [Row] = [], swept: [StoredRun.SweptScores?] = [], runOf: [Int] = []
        var notes: [String] = [], comparators: [(label: String, stored: StoredVulnerability?)] = []
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
            comparators.append((entry.label, try Self.vulnerability(entry.run, label: entry.label)))
            for (k, profile) in picked[r].enumerated() {
                rows.append(
                    Row(
                        rank: 0, label: labels[r][k], path: entry.run.path, profile: profile,
                        fingerprint: entry.run.manifest.dataset.fingerprint, latency: latency,
                        curve: scores[profile.name]?.curve,
                        system: comparators.last?.stored?.system(profile: profile.name)))
                swept.append(scores[profile.name])
                runOf.append(r)
            }
        }
        guard rows.count >= 2 else {
            throw UsageError(
                "\(rows.count) row\(rows.count == 1 ? "" : "s") to rank (one per run and profile "
                    + "\(wanted == nil ? "with a swept score" : "of --profiles")); give at least two")
        }
        let targets = Set(rows.flatMap { $0.reported.bpcerAtAPCER.map(\.target) }).sorted()
        let species = Set(rows.flatMap { $0.reported.apcer.map(\.species) }).sorted()
        let first = targets.first
        let (order, ranks) = Self.ranking(rows.map { ($0.reported.eer, first.flatMap($0.bpcer(atAPCER:))) })
        let ranked = order.enumerated().map { k, row in
            var ranked = rows[row]
            ranked.rank = ranks[k]
            return ranked
        }
        notes += ranked.compactMap(Self.decisionNote) + Self.vulnerabilityNotes(comparators)
        notes += ranked.filter { $0.reported.subjectBootstrap != nil && $0.intervals == nil }.map {
            "\($0.label): no EER or BPCER@APCER interval: a class has a single subject, and resampling one "
                + "subject gives the same set every time"
        }
        self.init(rows: ranked, pairs: [], targets: targets, species: species, notes: notes, bootstrap: bootstrap)
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

    /// Whether two rows are on the same samples: `compare`'s rule (equal dataset fingerprints),
    /// and the same reported split, so their decisions pair sample by sample.
    static func samePresentations(_ a: Row, _ b: Row) -> Bool {
        a.fingerprint == b.fingerprint && a.reported.split == b.reported.split
    }

    /// McNemar per class (`""` = bona fide, else the species) of two rows' decisions on the same
    /// samples, from `compare`'s discordant count (``AccuracyComparison/discordant(base:new:)``).
    static func mcnemar(
        _ first: [String: AccuracyComparison.Decided], _ second: [String: AccuracyComparison.Decided]
    ) -> [String: McNemarTest] {
        let (worse, better) = AccuracyComparison.discordant(base: first, new: second)
        let classes = Set(first.values.map { $0.species ?? "" })
        return Dictionary(
            uniqueKeysWithValues: classes.map {
                ($0, McNemarTest(firstOnlyWrong: better[$0] ?? 0, secondOnlyWrong: worse[$0] ?? 0))
            })
    }

    /// Per row in a pair on the same samples, its profile's decisions on the reported split, read
    /// once per run (``AccuracyComparison/decisions(_:)``); nil for the other rows.
    static func decisions(_ runs: [StoredRun], rows: [Row], runOf: [Int]) throws
        -> [[String: AccuracyComparison.Decided]?]
    {
        var byRun: [Int: [String: [String: AccuracyComparison.Decided]]] = [:]
        var result: [[String: AccuracyComparison.Decided]?] = []
        for (k, row) in rows.enumerated() {
            guard rows.indices.contains(where: { $0 != k && samePresentations(rows[$0], row) }) else {
                result.append(nil)
                continue
            }
            if byRun[runOf[k]] == nil { byRun[runOf[k]] = try AccuracyComparison.decisions(runs[runOf[k]]) }
            result.append(byRun[runOf[k]]?[row.profile.name] ?? [:])
        }
        return result
    }

    /// Every pair's tests (rows in ranked order, their swept scores and decisions alike).
    func pairTests(swept: [StoredRun.SweptScores?], decisions: [[String: AccuracyComparison.Decided]?]) -> [Pair] {
        var pairs: [Pair] = []
        for i in rows.indices {
            for j in rows.indices where j > i {
                let (a, b) = (rows[i], rows[j])
                var pair = Pair(first: i, second: j, paired: Self.samePresentations(a, b), rates: [])
                if pair.paired, let da = decisions[i], let db = decisions[j] {
                    let tests = Self.mcnemar(da, db)
                    pair.rates =
                        [
                            RateTest(
                                metric: "bpcer", first: a.reported.bpcer, second: b.reported.bpcer,
                                mcnemar: tests[""] ?? McNemarTest(firstOnlyWrong: 0, secondOnlyWrong: 0))
                        ]
                        + species.map {
                            RateTest(
                                metric: "apcer[\($0)]", first: a.apcer($0), second: b.apcer($0),
                                mcnemar: tests[$0] ?? McNemarTest(firstOnlyWrong: 0, secondOnlyWrong: 0))
                        }
                    if let sa = swept[i], let sb = swept[j] {
                        pair.eer = PairedBootstrap.compare(
                            PairedBootstrap.Input(base: sa, new: sb), targets: ProfileResult.targets,
                            settings: bootstrap)
                    }
                } else {
                    pair.rates =
                        [
                            RateTest(metric: "bpcer", first: a.reported.bpcer, second: b.reported.bpcer),
                            RateTest(metric: "apcer_max", first: a.reported.apcerMax, second: b.reported.apcerMax),
                        ] + species.map { RateTest(metric: "apcer[\($0)]", first: a.apcer($0), second: b.apcer($0)) }
                    if let x = a.intervals?.eer, let y = b.intervals?.eer {
                        pair.eerIntervalsOverlap = x.low <= y.high && y.low <= x.high
                    }
                }
                // A class neither row has (no samples of that species in either) says nothing.
                pair.rates.removeAll { $0.first == nil && $0.second == nil }
                pairs.append(pair)
            }
        }
        return pairs
    }
}

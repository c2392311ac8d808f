import PadArchive
import PadEvaluation
import PadMetrics
import PadReport
import PadVocabulary

/// A stored run that disagrees with itself: `results.json` against its own counts or against
/// `decisions.csv`, or `decisions.csv` against the manifest's samples. `compare`, `show` and
/// `folds` exit 2 with this one line: the file, the profile and the number that disagrees.
package struct StoredRunMismatch: Error, Sendable, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

extension StoredRun {
    /// Checks what can be recomputed from the archive before anything reads its numbers (the CI
    /// gate must not be fooled by an edited archive), and throws ``StoredRunMismatch`` at the
    /// first disagreement:
    /// 1. every rate of `results.json` against its own counts: value = errors / total and the 95%
    ///    Clopper-Pearson interval of those counts (``ClopperPearson``);
    /// 2. `decisions.csv`, per profile: exactly one row per sample (as many rows as the manifest
    ///    has samples, and the manifest's sample fingerprint over their ids, labels, species and
    ///    splits, so no row is missing, doubled or relabelled);
    /// 3. per profile and reported split (and calibration split): the counts of bona fide,
    ///    attacks and failures, and BPCER, APCER per species, APCER_max and its species, pooled
    ///    APCER, BPNRR and APNRR, recomputed from the decisions (``OperatingPoint``).
    /// A run with presentations of several frames is checked at both levels: `results.json`
    /// against `presentation_decisions.csv` (one row per presentation), `frames/results.json`
    /// against `decisions.csv` (one row per frame, step 2).
    /// 4. `fairness.csv` against itself and `labels.csv` (``verifyFairness()``).
    /// 5. each stored profile YAML against the manifest's definition hash (``verifyProfiles()``);
    /// 6. `vulnerability.csv` and `epsc.csv` recomputed from `comparisons.csv` (``verifyVulnerability()``).
    /// Scores are not in `decisions.csv`: EER, AUC, `bpcer@apcer` targets and the subject
    /// bootstrap intervals are not recomputed.
    package func verify() throws {
        let names = summary.profiles.map(\.name)
        try Self.checkRates(summary, file: path + ":results.json")
        try verifyFairness()
        try verifyProfiles()
        try verifyVulnerability()
        let frames = try DecisionTally.read(self, member: RunFile.decisions.name, profiles: names)
        for profile in summary.profiles {
            try checkRows(frames.profiles[profile.name]!, profile: profile.name, path: frames.path)
            try checkCounts(frames.profiles[profile.name]!, profile: profile.name, member: frames.member)
        }
        // A run with presentations of several frames counts presentations in results.json
        // (`presentation_decisions.csv`) and frames in frames/results.json (`decisions.csv`).
        guard contains(RunFile.presentationDecisions.name) else {
            return try checkSets(summary, frames, file: RunFile.results.name)
        }
        let presentations = try DecisionTally.read(self, member: RunFile.presentationDecisions.name, profiles: names)
        try checkSets(summary, presentations, file: RunFile.results.name)
        if contains(RunFile.results.inFrames) {
            let frameSummary = try RunSummary.decode(
                from: archive.entry(named: RunFile.results.inFrames), path: path + ":frames/results.json")
            try Self.checkRates(frameSummary, file: path + ":frames/results.json")
            try checkSets(frameSummary, frames, file: RunFile.results.inFrames)
        }
    }

    /// Every profile's reported (and calibration) set of `summary` against the decisions.
    func checkSets(_ summary: RunSummary, _ tally: DecisionTally, file: String) throws {
        for profile in summary.profiles {
            guard let rows = tally.profiles[profile.name] else {
                throw StoredRunMismatch("\(path):\(file): profile \(profile.name) has no rows in \(tally.member)")
            }
            for set in [profile.reported] + (profile.calibrationSet.map { [$0] } ?? []) {
                try Self.checkSet(
                    set, rows.counts(split: set.split),
                    at: "\(path):\(file): profile \(profile.name) on \(set.split)", member: tally.member)
            }
        }
    }

    /// The rates of a profile's set, named as `show` names them.
    static func rates(_ set: RunSummary.SetSummary) -> [(String, RunSummary.Rate?)] {
        [
            ("BPCER", set.bpcer), ("APCER_max", set.apcerMax), ("APCER pooled", set.apcerPooled),
            ("BPNRR", set.bpnrr), ("APNRR", set.apnrr),
        ] + set.apcer.map { ("APCER[\($0.species)]", $0.apcer) }
    }

    /// Step 1: each stored rate is what its own counts give.
    static func checkRates(_ summary: RunSummary, file: String) throws {
        for profile in summary.profiles {
            for set in [profile.reported] + (profile.calibrationSet.map { [$0] } ?? []) {
                for case (let name, let rate?) in Self.rates(set) {
                    let at = "\(file): profile \(profile.name) \(name) on \(set.split)"
                    guard rate.total > 0, (0...rate.total).contains(rate.errors) else {
                        throw StoredRunMismatch("\(at) has impossible counts \(rate.errors)/\(rate.total)")
                    }
                    let (low, high) = ClopperPearson.interval(errors: rate.errors, total: rate.total)
                    if !Self.same(rate.value, Double(rate.errors) / Double(rate.total)) {
                        throw StoredRunMismatch(
                            "\(at) is \(RateText.percent(rate.value)), its counts \(rate.errors)/\(rate.total) give "
                                + RateText.percent(Double(rate.errors) / Double(rate.total)))
                    }
                    if !Self.same(rate.ciLow, low) || !Self.same(rate.ciHigh, high) {
                        throw StoredRunMismatch(
                            "\(at) \(rate.errors)/\(rate.total) has 95% CI "
                                + "\(RateText.percentInterval(rate.ciLow, rate.ciHigh)), its counts give "
                                + RateText.percentInterval(low, high))
                    }
                }
            }
        }
    }

    /// Equal up to the last bits a JSON round trip or another libm may change.
    static func same(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-9 }

    /// Step 2: one row per sample of the manifest, each once.
    func checkRows(_ rows: DecisionTally.ProfileRows, profile: String, path file: String) throws {
        let samples = manifest.dataset.samples
        guard rows.rows == samples else {
            let what = rows.rows < samples ? "rows missing" : "rows doubled"
            throw StoredRunMismatch(
                "\(file): profile \(profile) has \(rows.rows) rows, the manifest \(samples) samples (\(what))")
        }
        // decisions.csv names no presentation: its rows add up to the fingerprint less the
        // presentations' part.
        let expected = manifest.dataset.samplesFingerprint.map(FNV1a.hex) ?? manifest.dataset.fingerprint
        guard FNV1a.hex(rows.fingerprint) == expected else {
            throw StoredRunMismatch(
                "\(file): the rows of profile \(profile) are not the manifest's samples (fingerprint "
                    + "\(FNV1a.hex(rows.fingerprint)) vs \(expected)): a row was edited, "
                    + "doubled or dropped")
        }
    }

    /// Step 2 continued: the manifest's `counts` (what `show` prints) add up, samples = ok +
    /// failed = the manifest's samples, and the failed samples are the rows `decisions.csv` marks
    /// with a failure status (each row carries its sample's status, whatever the profile).
    func checkCounts(_ rows: DecisionTally.ProfileRows, profile: String, member: String) throws {
        let counts = manifest.counts
        guard let samples = counts["samples"], let ok = counts["ok"], let failed = counts["failed"] else { return }
        let at = "\(path):\(RunFile.manifest.name): counts"
        guard samples == manifest.dataset.samples, ok >= 0, failed >= 0, ok + failed == samples else {
            throw StoredRunMismatch(
                "\(at) samples \(samples), ok \(ok), failed \(failed) do not add up to the dataset's "
                    + "\(manifest.dataset.samples) samples")
        }
        let failedRows = rows.splits.values.reduce(0) { $0 + $1.failed }
        guard failedRows == failed else {
            throw StoredRunMismatch(
                "\(at) \(failed) failed samples, \(member) marks \(failedRows) failed for profile \(profile)")
        }
    }

    /// Step 3: the stored counts and rates of one set against those of its decisions.
    static func checkSet(
        _ set: RunSummary.SetSummary, _ counts: DecisionTally.SplitCounts, at: String, member: String
    ) throws {
        for (what, stored, counted) in [
            ("bona fide", set.bonaFide, counts.bonaFide + counts.bonaFideFailed),
            ("attacks", set.attacks, counts.attackCount), ("failed", set.failed, counts.failed),
        ] where stored != counted {
            throw StoredRunMismatch("\(at) has \(stored) \(what), \(member) \(counted)")
        }
        var expected = set
        let headline =
            counts.undecided == 0 && counts.processed > 0
            ? OperatingPoint(threshold: 1, counts: counts.counts) : nil
        expected.bpcer = headline.flatMap { RunSummary.Rate($0.bpcer) }
        expected.apcerMax = headline.flatMap { RunSummary.Rate($0.apcerMax) }
        expected.apcerMaxSpecies = headline?.apcerMaxSpecies ?? ""
        expected.apcerPooled = headline.flatMap { RunSummary.Rate($0.apcerPooled) }
        expected.bpnrr = headline.flatMap { RunSummary.Rate($0.bpnrr) }
        expected.apnrr = headline.flatMap { RunSummary.Rate($0.apnrr) }
        expected.apcer =
            headline.map { p in
                p.speciesNames.indices.compactMap { k in
                    RunSummary.Rate(p.apcer[k]).map { RunSummary.SpeciesRate(species: p.speciesNames[k], apcer: $0) }
                }
            } ?? []
        try compare(stored: set, counted: expected, at: at, member: member)
    }

    static func compare(
        stored: RunSummary.SetSummary, counted: RunSummary.SetSummary, at: String, member: String
    ) throws {
        let storedSpecies = stored.apcer.map(\.species), countedSpecies = counted.apcer.map(\.species)
        guard storedSpecies == countedSpecies else {
            throw StoredRunMismatch(
                "\(at) has APCER for species \(storedSpecies), \(member) for \(countedSpecies)")
        }
        for ((name, s), (_, c)) in zip(rates(stored), rates(counted))
        where s?.errors != c?.errors || s?.total != c?.total {
            func text(_ r: RunSummary.Rate?) -> String { r.map { "\($0.errors)/\($0.total)" } ?? "none" }
            throw StoredRunMismatch("\(at) has \(name) \(text(s)), \(member) gives \(text(c))")
        }
        guard stored.apcerMaxSpecies == counted.apcerMaxSpecies else {
            throw StoredRunMismatch(
                "\(at) names APCER_max species '\(stored.apcerMaxSpecies)', \(member) "
                    + "'\(counted.apcerMaxSpecies)'")
        }
    }
}

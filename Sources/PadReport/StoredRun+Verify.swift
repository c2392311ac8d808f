import PadArchive
import PadDataset
import PadMetrics

/// A stored run that disagrees with itself: `results.json` against its own counts or against
/// `decisions.csv`, or `decisions.csv` against the manifest's samples. `compare`, `show` and
/// `folds` exit 2 with this one line: the file, the profile and the number that disagrees.
public struct StoredRunMismatch: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
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
    /// Scores are not in `decisions.csv`: EER, AUC, `bpcer@apcer` targets and the subject
    /// bootstrap intervals are not recomputed.
    public func verify() throws {
        try checkRates()
        let tally = try DecisionTally.read(self, profiles: summary.profiles.map(\.name))
        for profile in summary.profiles {
            let rows = tally.profiles[profile.name]!
            try checkRows(rows, profile: profile.name, path: tally.path)
            for set in [profile.reported] + (profile.calibrationSet.map { [$0] } ?? []) {
                try checkSet(set, rows.counts(split: set.split), profile: profile.name)
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
    func checkRates() throws {
        let file = path + ":results.json"
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
        guard FNV1a.hex(rows.fingerprint) == manifest.dataset.fingerprint else {
            throw StoredRunMismatch(
                "\(file): the rows of profile \(profile) are not the manifest's samples (fingerprint "
                    + "\(FNV1a.hex(rows.fingerprint)) vs \(manifest.dataset.fingerprint)): a row was edited, "
                    + "doubled or dropped")
        }
    }

    /// Step 3: the stored counts and rates of one set against those of its decisions.
    func checkSet(_ set: RunSummary.SetSummary, _ counts: DecisionTally.SplitCounts, profile: String) throws {
        let at = "\(path):results.json: profile \(profile) on \(set.split)"
        for (what, stored, counted) in [
            ("bona fide", set.bonaFide, counts.bonaFide + counts.bonaFideFailed),
            ("attacks", set.attacks, counts.attackCount), ("failed", set.failed, counts.failed),
        ] where stored != counted {
            throw StoredRunMismatch("\(at) has \(stored) \(what), decisions.csv \(counted)")
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
        try Self.compare(stored: set, counted: expected, at: at)
    }

    static func compare(stored: RunSummary.SetSummary, counted: RunSummary.SetSummary, at: String) throws {
        let storedSpecies = stored.apcer.map(\.species), countedSpecies = counted.apcer.map(\.species)
        guard storedSpecies == countedSpecies else {
            throw StoredRunMismatch(
                "\(at) has APCER for species \(storedSpecies), decisions.csv for \(countedSpecies)")
        }
        for ((name, s), (_, c)) in zip(rates(stored), rates(counted))
        where s?.errors != c?.errors || s?.total != c?.total {
            func text(_ r: RunSummary.Rate?) -> String { r.map { "\($0.errors)/\($0.total)" } ?? "none" }
            throw StoredRunMismatch("\(at) has \(name) \(text(s)), decisions.csv gives \(text(c))")
        }
        guard stored.apcerMaxSpecies == counted.apcerMaxSpecies else {
            throw StoredRunMismatch(
                "\(at) names APCER_max species '\(stored.apcerMaxSpecies)', decisions.csv "
                    + "'\(counted.apcerMaxSpecies)'")
        }
    }
}

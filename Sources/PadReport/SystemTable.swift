import PadArchive
import PadEvaluation
import PadMetrics
import PadVocabulary

/// `padbench table RUN...`: several systems ranked on one page, as NIST FATE PAD reports many
/// algorithms on one sequestered set in one table and one DET.
///
/// Example: `SystemTableTests.threeScoreRunsRankAndPairAsCompare`
/// in `Tests/PadRunsTests/SystemTableTests.swift` (compiled and run by `swift test`).
/// Every run is verified first (``StoredRun/verify()``); then one row per (run, profile) with a
/// swept score, or per profile `profiles` names, with the numbers of its reported split as
/// `results.json` holds them: EER (subject-bootstrap interval when the run stored one), BPCER at
/// each APCER target (bob.pad.base's rule, `bpcerAtAPCER`, with its interval), APCER per species,
/// APCER_max and BPCER at the profile's operating point (95% Clopper-Pearson), AUC, and the p50
/// per-sample latency of `timing.csv`'s `sample_total` row (with the order-statistic interval of
/// `samples.csv`'s per-sample times), and for a run with a face comparator the whole system's
/// rates its `vulnerability.csv` holds (``SystemRates``). Ranked by EER, ties by BPCER at the
/// first target, then by the order given; an undefined number ranks after every defined one, and rows equal on both
/// share a rank (1, 2, 2, 4). Each pair of rows is tested as `compare` tests two runs
/// (``Pair``). PadRuns builds the table from the stored runs (`SystemTable(runs:profiles:bootstrap:)`);
/// this module holds its rows and pairs and renders them (page, CSVs, terminal tables).
package struct SystemTable: Sendable {
    package struct Latency: Sendable, Equatable {
        /// `timing.csv`'s `sample_total` p50 (wall clock), microseconds.
        package var p50: Double
        /// The distribution-free 95% interval of the median per-sample total (``QuantileInterval``
        /// over `samples.csv`'s times, as `compare` bounds it), microseconds; nil when the samples
        /// are too few to bound it.
        package var interval: ProfileResult.Interval?
        package init(p50: Double, interval: ProfileResult.Interval?) { self.p50 = p50; self.interval = interval }
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
        /// The whole system's rates with the run's face comparator (nil: a run without `--comparisons`).
        package var system: SystemRates?
        package init(
            rank: Int, label: String, path: String, profile: RunSummary.ProfileSummary, fingerprint: String,
            latency: Latency?, curve: ErrorCurve?, system: SystemRates? = nil
        ) {
            self.rank = rank; self.label = label; self.path = path; self.profile = profile
            self.fingerprint = fingerprint; self.latency = latency; self.curve = curve; self.system = system
        }
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
        rows: [Row], pairs: [Pair], targets: [Double], species: [String], notes: [String],
        bootstrap: PairedBootstrap.Settings
    ) {
        self.rows = rows; self.pairs = pairs; self.targets = targets; self.species = species; self.notes = notes
        self.bootstrap = bootstrap
    }
}

import PadMetrics
import PadProfiles

/// What one profile scored on one run: the rates on the reported split (and, for calibrated
/// profiles, on the calibration split with the same thresholds), the swept-score metrics,
/// calibration, rejection reasons, and which gates were left out.
///
/// The properties `split`, `headline`, `scoreMetrics`, counts and `rejectReasons` read the
/// reported set (`eval` when the data has one, else all samples).
package struct ProfileResult: Sendable {
    package struct Calibration: Sendable {
        package var gate: Int
        package var output: String
        package var target: String
        package var split: String
        package var threshold: Double
        /// Rates of the calibrated gate's score alone on the calibration split at the threshold.
        package var calibrationAPCERMax: Double
        package var calibrationBPCER: Double
        /// False when the target cannot be met on the calibration data (then the threshold is the
        /// closest one reachable, and the summary says so).
        package var targetMet: Bool
        package init(
            gate: Int, output: String, target: String, split: String, threshold: Double,
            calibrationAPCERMax: Double, calibrationBPCER: Double, targetMet: Bool = true
        ) {
            self.gate = gate; self.output = output; self.target = target; self.split = split
            self.threshold = threshold; self.calibrationAPCERMax = calibrationAPCERMax;
            self.calibrationBPCER = calibrationBPCER
            self.targetMet = targetMet
        }
    }

    package struct RejectReason: Sendable {
        package var label: String
        package var species: String
        package var code: String
        package var message: String
        package var count: Int
        /// count / processed samples of that label and species.
        package var fraction: Double
        package init(label: String, species: String, code: String, message: String, count: Int, fraction: Double) {
            self.label = label; self.species = species; self.code = code; self.message = message
            self.count = count; self.fraction = fraction
        }
    }

    /// The rate targets every swept score is reported at (BPCER@APCER = x and APCER@BPCER = x),
    /// in this order in `summary.csv`, `results.json` and the bootstrap intervals.
    package static let targets: [Double] = [0.01, 0.05, 0.1]

    /// FATE PAD's name of the best BPCER at APCER_max <= x: `bpcer100` for 1%, `bpcer20` for 5%,
    /// `bpcer10` for 10%.
    package static func isoName(_ x: Double) -> String { "bpcer\(Int((1 / x).rounded()))" }

    /// A rate target on the swept score: the threshold chosen, the other rate there, and whether
    /// the target could be met at all.
    package struct Target: Sendable {
        package var target: Double
        package var threshold: Double
        /// BPCER (for BPCER@APCER) or APCER_max (for APCER@BPCER) at the threshold.
        package var rate: Double
        package var targetMet: Bool
        package init(target: Double, threshold: Double, rate: Double, targetMet: Bool) {
            self.target = target; self.threshold = threshold; self.rate = rate; self.targetMet = targetMet
        }
    }

    /// Swept-score metrics (present when the profile names a score the run measured and both
    /// classes have processed samples).
    package struct ScoreMetrics: Sendable {
        package var score: String
        package var curve: ErrorCurve
        package var eer: EqualErrorRate
        /// The rule ``eer`` was found by.
        package var eerRule: EERRule = .apcerMax
        /// bob.pad.base's BPCER@APCER (``ThresholdSearch/apcerThreshold(_:apcerAtMost:)``).
        package var bpcerAtAPCER: [Target]
        /// The best BPCER with APCER_max <= x (``ThresholdSearch/lowestThreshold(_:apcerMaxAtMost:)``):
        /// BPCER100, BPCER20, BPCER10 for x = 1%, 5%, 10%.
        package var bestBPCERAtAPCER: [Target] = []
        package var apcerAtBPCER: [Target]
        /// EER of bona fide against each species alone (in `curve.speciesNames` order; nil for a
        /// species without processed attacks), with its threshold: `outputs.csv` reads the rows of
        /// the swept output from here instead of sweeping the curve again.
        package var speciesEERs: [EqualErrorRate?] = []
        /// The values of ``speciesEERs`` (NaN for a species without processed attacks).
        package var speciesEER: [Double] { speciesEERs.map { $0?.value ?? .nan } }
        /// EER over all attacks pooled, bob.pad.base's rule (``EqualErrorRate/init(pooled:)``).
        package var pooledEER: EqualErrorRate?
        package var auc: Double
        /// pyeer's decidability index d' = |mean_bf - mean_attack| / sqrt((var_bf + var_attack) / 2)
        /// (population variances; every attack species pooled) of the swept scores
        /// (``PadMetrics/DecidabilityIndex``): how far apart the two classes' scores lie, in
        /// standard deviations, whatever the threshold.
        package var decidability: DecidabilityIndex?
        /// pyeer's ZeroFMR and ZeroFNMR points with FMR = pooled APCER and FNMR = BPCER
        /// (``PadMetrics/ZeroErrorPoints``): BPCER where pooled APCER first reaches its lowest
        /// value (0 unless an attack holds the highest score), and pooled APCER where BPCER is
        /// last at its lowest (0 unless samples are rejected at every threshold).
        package var zeroErrorPoints: ZeroErrorPoints?
        /// The reported set's scores sorted class by class, kept only when the evaluator was asked
        /// to (``ProfileEvaluator/keepsSortedScores``): `outputs.csv` reuses them instead of sorting
        /// the same scores again.
        package var sortedScores: SortedScores?
        package init(
            score: String, curve: ErrorCurve, eer: EqualErrorRate, bpcerAtAPCER: [Target], apcerAtBPCER: [Target],
            auc: Double
        ) {
            self.score = score; self.curve = curve; self.eer = eer
            self.bpcerAtAPCER = bpcerAtAPCER; self.apcerAtBPCER = apcerAtBPCER; self.auc = auc
        }
    }

    /// A two-sided 95% interval (PadMetrics' ``SubjectBootstrap/Interval``).
    package typealias Interval = SubjectBootstrap.Interval

    /// Subject-clustered bootstrap intervals of the reported set (PadMetrics'
    /// ``SubjectBootstrap/Intervals``): present when the dataset names subjects.
    package typealias SubjectIntervals = SubjectBootstrap.Intervals

    /// The profile's rates on one split.
    package struct SetResult: Sendable {
        package var split: String
        /// Decision-based rates: every gate applied (threshold 1 on accepted = 1 / rejected = 0).
        package var headline: OperatingPoint?
        package var headlineError: String?
        package var scoreMetrics: ScoreMetrics?
        package var scoreError: String?
        package var rejectReasons: [RejectReason]
        package var bonaFideCount: Int
        package var attackCount: Int
        package var failedCount: Int
        /// The failed samples (or presentations) that are bona fide: known with or without a
        /// headline (a split whose every sample failed has none, and its failures are still split
        /// by class).
        package var bonaFideFailedCount: Int
        /// Subject-clustered bootstrap intervals (reported set, datasets with subjects).
        package var subjectIntervals: SubjectIntervals?
        package init(
            split: String, headline: OperatingPoint?, headlineError: String?, scoreMetrics: ScoreMetrics?,
            scoreError: String?,
            rejectReasons: [RejectReason], bonaFideCount: Int, attackCount: Int, failedCount: Int,
            bonaFideFailedCount: Int = 0
        ) {
            self.split = split; self.headline = headline; self.headlineError = headlineError
            self.scoreMetrics = scoreMetrics; self.scoreError = scoreError; self.rejectReasons = rejectReasons
            self.bonaFideCount = bonaFideCount; self.attackCount = attackCount; self.failedCount = failedCount
            self.bonaFideFailedCount = bonaFideFailedCount
        }
    }

    package var profile: Profile
    /// The reported split (`eval`, or `all`).
    package var reported: SetResult
    /// The calibration split with the same thresholds (`dev`), when the profile was calibrated on
    /// another split than the one reported, or, for `eval --scores --threshold T`, the dev rows.
    package var calibrationSet: SetResult?
    package var calibrations: [Calibration]
    /// Where thresholds came from (``ThresholdSource/text``: `profile gates`, `calibrated ... on
    /// dev`, `eval (not calibrated: chosen on the reported set)`).
    package var thresholdSource: ThresholdSource
    /// Notes: gates left out, approximated or skipped, calibration warnings, sanity checks
    /// (summary.csv `note` holds their `text`).
    package var notes: [ResultNote]
    /// Outputs of gates left out because the run did not measure them (summary.csv `gates_left_out`).
    package var gatesLeftOut: [String]
    /// +1, or -1 when the scores came from an attack-high file or the swept output is read
    /// lower-bona-fide (`eval --score`): thresholds are shown in the file's or output's own
    /// polarity (negated back; accepted when score <= threshold).
    package var thresholdSign: Double
    /// The profile's decision on every row of the table it was evaluated on (samples, or for a
    /// presentation-level result its presentations), made once by ``ProfileEvaluator``; nil for a
    /// result read back from a stored run.
    package var decisions: DecisionCodes?
    /// The fused score's training (``FusionOutcome``) when the profile's score is fused.
    package var fusion: FusionOutcome?

    package init(
        profile: Profile, reported: SetResult, calibrationSet: SetResult? = nil, calibrations: [Calibration],
        thresholdSource: ThresholdSource, notes: [ResultNote] = [], gatesLeftOut: [String] = [],
        thresholdSign: Double = 1
    ) {
        self.profile = profile
        self.reported = reported
        self.calibrationSet = calibrationSet
        self.calibrations = calibrations
        self.thresholdSource = thresholdSource
        self.notes = notes
        self.gatesLeftOut = gatesLeftOut
        self.thresholdSign = thresholdSign
    }

    /// The reported set first, then the calibration set.
    package var sets: [SetResult] { [reported] + (calibrationSet.map { [$0] } ?? []) }
    package var split: String { reported.split }
    package var headline: OperatingPoint? { reported.headline }
    package var headlineError: String? { reported.headlineError }
    package var scoreMetrics: ScoreMetrics? { reported.scoreMetrics }
    package var scoreError: String? { reported.scoreError }
    package var rejectReasons: [RejectReason] { reported.rejectReasons }
    package var bonaFideCount: Int { reported.bonaFideCount }
    package var attackCount: Int { reported.attackCount }
    package var failedCount: Int { reported.failedCount }

    /// False for a capture check (``PadProfiles/Profile/isCaptureOnly``: no liveness gate and no
    /// liveness score), and when a gate left out was the swept score, the profile's only liveness /
    /// PAD gates (outputs named `*.score`, `*.live`, `*.liveness`, `*.spoof`, or calibrated gates),
    /// or every active gate (nothing was decided: every sample is accepted): then the rates are not
    /// a liveness decision.
    package var isLivenessDecision: Bool {
        if profile.isCaptureOnly { return false }
        let active = profile.gates.filter { !$0.isSkipped }
        let livenessGates = active.filter { gate in
            gate.calibration != nil || Profile.isLivenessOutput(gate.output)
        }.map(\.output)
        if let score = profile.score, gatesLeftOut.contains(score) { return false }
        if !livenessGates.isEmpty && livenessGates.allSatisfy(gatesLeftOut.contains) { return false }
        if !active.isEmpty && active.allSatisfy({ gatesLeftOut.contains($0.output) }) { return false }
        return true
    }

    /// The operating threshold on the swept score, in the swept (bona-fide-high) units: the
    /// calibrated one, or the fixed threshold of a `ge` gate on the score output (negated for a
    /// `le` gate on a score swept negated); nil when the profile has neither.
    package var scoreThreshold: Double? {
        if let calibrated = calibrations.first { return calibrated.threshold }
        let negated = profile.sweepsScoreNegated
        return profile.gates.first {
            $0.output == profile.score && $0.calibration == nil && !$0.isSkipped
                && $0.comparison == (negated ? .le : .ge)
        }.map { negated ? -$0.threshold : $0.threshold }
    }

    /// A threshold as the user's score file states it.
    package func shownThreshold(_ t: Double) -> Double { t * thresholdSign }
}

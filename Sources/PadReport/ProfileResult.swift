import PadMetrics
import PadProfiles

/// What one profile scored on one run: the headline operating point (decisions of every gate),
/// the swept-score metrics, calibration, and rejection reasons.
public struct ProfileResult: Sendable {
    public struct Calibration: Sendable {
        public var gate: Int
        public var output: String
        public var target: String
        public var split: String
        public var threshold: Double
        /// Rates of the calibrated gate's score alone on the calibration split at the threshold.
        public var calibrationAPCERMax: Double
        public var calibrationBPCER: Double
        public init(gate: Int, output: String, target: String, split: String, threshold: Double,
                    calibrationAPCERMax: Double, calibrationBPCER: Double) {
            self.gate = gate; self.output = output; self.target = target; self.split = split
            self.threshold = threshold; self.calibrationAPCERMax = calibrationAPCERMax; self.calibrationBPCER = calibrationBPCER
        }
    }

    public struct RejectReason: Sendable {
        public var label: String
        public var species: String
        public var code: String
        public var message: String
        public var count: Int
        /// count / processed samples of that label and species.
        public var fraction: Double
        public init(label: String, species: String, code: String, message: String, count: Int, fraction: Double) {
            self.label = label; self.species = species; self.code = code; self.message = message
            self.count = count; self.fraction = fraction
        }
    }

    /// Swept-score metrics (present when the profile names a score the run measured).
    public struct ScoreMetrics: Sendable {
        public var score: String
        public var curve: ErrorCurve
        public var eer: EqualErrorRate
        public var bpcerAtAPCER: [(target: Double, threshold: Double, bpcer: Double)]
        public var apcerAtBPCER: [(target: Double, threshold: Double, apcerMax: Double)]
        public var auc: Double
        public init(score: String, curve: ErrorCurve, eer: EqualErrorRate,
                    bpcerAtAPCER: [(target: Double, threshold: Double, bpcer: Double)],
                    apcerAtBPCER: [(target: Double, threshold: Double, apcerMax: Double)], auc: Double) {
            self.score = score; self.curve = curve; self.eer = eer
            self.bpcerAtAPCER = bpcerAtAPCER; self.apcerAtBPCER = apcerAtBPCER; self.auc = auc
        }
    }

    public var profile: Profile
    public var split: String
    /// Decision-based rates: every gate applied (threshold 1 on accepted = 1 / rejected = 0).
    public var headline: OperatingPoint?
    public var headlineError: String?
    public var calibrations: [Calibration]
    public var scoreMetrics: ScoreMetrics?
    public var scoreError: String?
    public var rejectReasons: [RejectReason]
    public var bonaFideCount: Int
    public var attackCount: Int
    public var failedCount: Int
    /// Gates left out, approximated or skipped, in words (summary.csv `note`).
    public var notes: [String]

    public init(profile: Profile, split: String, headline: OperatingPoint?, headlineError: String?,
                calibrations: [Calibration], scoreMetrics: ScoreMetrics?, scoreError: String?,
                rejectReasons: [RejectReason], bonaFideCount: Int, attackCount: Int, failedCount: Int, notes: [String] = []) {
        self.profile = profile
        self.split = split
        self.headline = headline
        self.headlineError = headlineError
        self.calibrations = calibrations
        self.scoreMetrics = scoreMetrics
        self.scoreError = scoreError
        self.rejectReasons = rejectReasons
        self.bonaFideCount = bonaFideCount
        self.attackCount = attackCount
        self.failedCount = failedCount
        self.notes = notes
    }
}

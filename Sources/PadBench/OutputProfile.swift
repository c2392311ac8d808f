import PadArchive
import PadDataset
import PadEvaluation
import PadMetrics
import PadProfiles

/// Which way an output reads as bona fide for `eval --archive --score OUTPUT`.
public enum ScoreDirection: String, Sendable, CaseIterable {
    case higherBonaFide = "higher-bonafide"
    case lowerBonaFide = "lower-bonafide"
}

/// `eval --archive RUN --score OUTPUT`: one output decided alone, in its direction, with a
/// criterion or a fixed threshold.
public struct OutputScoreJob: Sendable {
    public var output: String
    /// nil: the output's declared direction (higher-better / lower-better in the manifest), else
    /// the measured one (AUC of bona fide over all attacks on the calibration split, dev when the
    /// run has one).
    public var direction: ScoreDirection?
    public var criterion: ThresholdCriterion
    /// A fixed threshold in the output's own units (then no criterion).
    public var threshold: Double?
    public init(
        output: String, direction: ScoreDirection? = nil, criterion: ThresholdCriterion = .eer, threshold: Double? = nil
    ) {
        self.output = output; self.direction = direction; self.criterion = criterion; self.threshold = threshold
    }
}

extension EvalRunner {
    /// The name of the profile `eval --archive RUN --score OUTPUT` builds.
    public static let outputProfileName = "score-output"

    /// The profile of `eval --archive RUN --score OUTPUT`: one gate on the output, accepted as
    /// bona fide when value >= t (value <= t for a lower-bona-fide output: a `le` gate, whose
    /// score the evaluator sweeps negated), t fixed or chosen by the criterion (EER by default,
    /// bob.measure's rule) on dev when the run has a dev split, else on the reported set itself
    /// (and the summary says so), like ``scoreProfile(_:files:)`` for score files.
    public static func outputProfile(_ output: String) -> Profile { outputProfile(OutputScoreJob(output: output)) }

    public static func outputProfile(_ job: OutputScoreJob, negated: Bool = false) -> Profile {
        let output = job.output
        var (gate, gateYAML) = scoreGate(output: output, threshold: job.threshold, criterion: job.criterion)
        if negated {
            gate.comparison = .le
            gate.message = "\(output) above the threshold"
            // A fixed gate's op, or a calibrated gate's `op: le` (calibrated on the output negated).
            gateYAML =
                gateYAML.contains("op: ge")
                ? gateYAML.replacingOccurrences(of: "op: ge", with: "op: le") : "    op: le\n" + gateYAML
        }
        let rule = job.threshold == nil ? "threshold by \(job.criterion)" : "fixed threshold"
        let description = "\(output) alone (\(negated ? "lower" : "higher") = bona fide), \(rule)"
        let yaml = """
            name: \(outputProfileName)
            description: "\(description)"
            source: padbench eval --archive --score
            score: \(output)
            gates:
              - output: \(output)
            \(gateYAML)
                code: SCORE
                message: \(gate.message)

            """
        return Profile(
            name: outputProfileName, description: description, source: "padbench eval --archive --score",
            score: output, gates: [gate], yaml: yaml, origin: "eval --score")
    }

    /// The one gate of a generated score profile (`scores`, `score-output`): accepted when
    /// output >= t, t fixed (already in the table's polarity) or calibrated by the criterion on
    /// dev; with its YAML lines.
    static func scoreGate(output: String, threshold: Double?, criterion: ThresholdCriterion) -> (Gate, String) {
        var gate = Gate(
            output: output, comparison: .ge, threshold: .nan, code: "SCORE", message: "\(output) below the threshold",
            line: 7)
        if let t = threshold {
            gate.threshold = t
            return (gate, "    op: ge\n    value: \(CSVFormat.number(t))")
        }
        let target: Gate.Calibration.Target
        let targetYAML: String
        switch criterion {
        case .bpcerAtAPCER(let x): target = .apcer(x); targetYAML = "target_apcer: \(CSVFormat.number(x))"
        case .apcerAtBPCER(let x): target = .bpcer(x); targetYAML = "target_bpcer: \(CSVFormat.number(x))"
        case .minHTER: target = .minHTER; targetYAML = "criterion: min-hter"
        case .eer, .fixed: target = .eer; targetYAML = "criterion: eer"
        }
        gate.kind = .calibrated
        gate.calibration = .init(target: target, calibrationSplit: .dev, appliedSplit: .eval)
        return (gate, "    calibrate: {\(targetYAML), on: dev}")
    }

    /// The profile of `--score OUTPUT` in its direction, and a note saying which and why.
    static func directedProfile(_ job: OutputScoreJob, table: MeasurementTable, manifest: RunManifest) -> (
        profile: Profile, note: String
    ) {
        let (direction, why) = Self.direction(of: job, table: table, manifest: manifest)
        let lower = direction == .lowerBonaFide
        let note =
            "\(job.output) decided \(direction.rawValue) (\(why))"
            + (lower ? ": accepted when value <= threshold, thresholds in its own units" : "")
        return (outputProfile(job, negated: lower), note)
    }

    /// The direction `--score OUTPUT` decides in, and why: `--direction`, else the direction the
    /// run's manifest declares for the output, else the measured one (AUC of bona fide over all
    /// attacks >= 0.5 on dev when the run has one, else on all samples).
    static func direction(
        of job: OutputScoreJob, table: MeasurementTable, manifest: RunManifest
    ) -> (ScoreDirection, String) {
        if let given = job.direction { return (given, "--direction") }
        // The manifest names each output in full (`quality.blur`, `face.size@dataset_box`).
        let declared = manifest.estimators.flatMap(\.outputs).first { $0.name == job.output }?.direction
        if let d = declared, d != .none {
            return (d == .higherIsBetter ? .higherBonaFide : .lowerBonaFide, "declared \(d.rawValue)")
        }
        guard let column = table.columnIndex(of: job.output) else { return (.higherBonaFide, "default") }
        let split: Split? = table.splits.contains(.dev) ? .dev : nil
        let set = ProfileEvaluator(table: table).calibrationSet(column: column, split: split)
        guard let curve = try? ErrorCurve(set), curve.hasBonaFide, curve.hasAttacks else {
            return (.higherBonaFide, "default")
        }
        let auc = areaUnderROC(curve)
        let on = split?.rawValue ?? "all samples"
        return auc < 0.5
            ? (.lowerBonaFide, "measured on \(on): AUC \(CSVFormat.number(1 - auc)) lower-bona-fide")
            : (.higherBonaFide, "measured on \(on): AUC \(CSVFormat.number(auc)) higher-bona-fide")
    }
}

import PadArchive
import PadEvaluation
import PadMetrics
import PadProfiles
import PadVocabulary

/// Which way an output reads as bona fide for `eval --archive --score OUTPUT`.
package enum ScoreDirection: String, Sendable, CaseIterable {
    case higherBonaFide = "higher-bonafide"
    case lowerBonaFide = "lower-bonafide"
}

/// `eval --archive RUN --score OUTPUT`: one output decided alone, in its direction, with a
/// criterion or a fixed threshold.
package struct OutputScoreJob: Sendable {
    package var output: String
    /// nil: the output's declared direction (higher-better / lower-better in the manifest), else
    /// the measured one (AUC of bona fide over all attacks on the calibration split, dev when the
    /// run has one).
    package var direction: ScoreDirection?
    package var criterion: ThresholdCriterion
    /// A fixed threshold in the output's own units (then no criterion).
    package var threshold: Double?
    package init(
        output: String, direction: ScoreDirection? = nil, criterion: ThresholdCriterion = .eer, threshold: Double? = nil
    ) {
        self.output = output; self.direction = direction; self.criterion = criterion; self.threshold = threshold
    }
}

extension EvalRunner {
    /// The name of the profile `eval --archive RUN --score OUTPUT` builds.
    package static let outputProfileName = "score-output"

    /// The profile of `eval --archive RUN --score OUTPUT`: one gate on the output, accepted as
    /// bona fide when value >= t (value <= t for a lower-bona-fide output: a `le` gate, whose
    /// score the evaluator sweeps negated), t fixed or chosen by the criterion (EER by default,
    /// bob.measure's rule) on dev when the run has a dev split, else on the reported set itself
    /// (and the summary says so), like ``scoreProfile(_:files:)`` for score files.
    package static func outputProfile(_ output: String) throws -> Profile {
        try outputProfile(OutputScoreJob(output: output))
    }

    package static func outputProfile(_ job: OutputScoreJob, negated: Bool = false) throws -> Profile {
        let output = job.output
        var gateYAML = scoreGate(threshold: job.threshold, criterion: job.criterion)
        let message = "\(output) \(negated ? "above" : "below") the threshold"
        if negated {
            // A fixed gate's op, or a calibrated gate's `op: le` (calibrated on the output negated).
            gateYAML =
                gateYAML.contains("op: ge")
                ? gateYAML.replacingOccurrences(of: "op: ge", with: "op: le") : "    op: le\n" + gateYAML
        }
        let rule = job.threshold == nil ? "threshold by \(job.criterion)" : "fixed threshold"
        let description = "\(output) alone (\(negated ? "lower" : "higher") = bona fide), \(rule)"
        let yaml = """
            name: \(outputProfileName)
            description: \(Self.yamlQuoted(description))
            source: padbench eval --archive --score
            score: \(output)
            gates:
              - output: \(output)
            \(gateYAML)
                code: SCORE
                message: \(message)

            """
        return try generated(yaml, origin: "eval --score")
    }

    /// A profile padbench writes for itself is its YAML, loaded by the one profile loader: the
    /// `profiles/<name>.yaml` stored in the archive is then exactly what decided (gate lines
    /// included), and no struct written by hand can drift from it.
    static func generated(_ yaml: String, origin: String) throws -> Profile {
        try ProfileLoader().load(yaml: yaml, file: origin)
    }

    /// `text` as a YAML double-quoted scalar (YAML 1.2, section 7.3.1): backslash, quote and
    /// control characters escaped, so any file name reads back as itself.
    static func yamlQuoted(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": quoted += "\\\\"
            case "\"": quoted += "\\\""
            case "\n": quoted += "\\n"
            case "\t": quoted += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                quoted += "\\x" + String(format: "%02X", scalar.value)
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }

    /// The YAML lines of the one gate of a generated score profile (`scores`, `score-output`):
    /// accepted when output >= t, t fixed (already in the table's polarity) or calibrated by the
    /// criterion on dev.
    static func scoreGate(threshold: Double?, criterion: ThresholdCriterion) -> String {
        if let t = threshold { return "    op: ge\n    value: \(CSVFormat.number(t))" }
        let targetYAML: String
        switch criterion {
        case .bpcerAtAPCER(let x): targetYAML = "target_apcer: \(CSVFormat.number(x))"
        case .apcerAtBPCER(let x): targetYAML = "target_bpcer: \(CSVFormat.number(x))"
        case .minHTER: targetYAML = "criterion: min-hter"
        case .eer, .fixed: targetYAML = "criterion: eer"
        }
        return "    calibrate: {\(targetYAML), on: dev}"
    }

    /// The profile of `--score OUTPUT` in its direction, and a note saying which and why.
    static func directedProfile(_ job: OutputScoreJob, table: MeasurementTable, manifest: RunManifest) throws -> (
        profile: Profile, note: ResultNote
    ) {
        let (direction, why) = Self.direction(of: job, table: table, manifest: manifest)
        let lower = direction == .lowerBonaFide
        let note = ResultNote.direction(
            output: job.output, direction: direction.rawValue, why: why, lowerBonaFide: lower)
        return (try outputProfile(job, negated: lower), note)
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

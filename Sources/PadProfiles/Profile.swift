import PadVocabulary

/// A threshold profile: gates over estimator outputs that turn measurements into accept/reject
/// decisions, shaped after a capture SDK's configuration.
///
/// Example: `PadProfilesDocExamples.compileAndDecide`
/// in `Tests/PadProfilesTests/DocExamplesTests.swift` (compiled and run by `swift test`).
/// A sample is accepted as bona fide when every gate passes; the decision records the first
/// failing gate, so reports can break rejections down by reason. A gate on a NaN value (not
/// assessable) fails.
package struct Profile: Sendable, Equatable {
    package var name: String
    package var description: String
    /// Which SDK and document version the profile is shaped after.
    package var source: String
    /// The output that curves and EER sweep (higher = more bona fide), if any: a measured output,
    /// or the name of ``fusion``'s fused score.
    package var score: String?
    /// How ``score`` is made from several outputs when it is a fused score (`score: {fusion: ...}`);
    /// nil when the score is a measured output.
    package var fusion: FusedScore?
    package var gates: [Gate]
    /// Estimator options the profile asks for (`face.use_dataset_box`).
    package var useDatasetFaceBox: Bool
    /// The YAML text it was loaded from (stored in archives).
    package var yaml: String
    /// Where it came from: a file path or `builtin:<name>`.
    package var origin: String
    /// How a presentation of several frames is decided (`frames:`); nil is `aggregate`.
    package var frames: FramesRule?
    /// Under `aggregate`, how named outputs are combined over a presentation's frames
    /// (`frames: {decide: aggregate, outputs: {face.count: max}}`); every other output is combined
    /// by the run's `--aggregate` (the mean by default).
    package var frameOutputs: [String: FrameAggregate] = [:]

    /// The frames rule in force (`aggregate` when the profile has no `frames:` section).
    package var framesRule: FramesRule { frames ?? .aggregate }

    /// The frames rule as `profiles show` and the reports print it: `best_shot`, or
    /// `aggregate (face.count: max; others: the run's --aggregate)`.
    package var framesText: String {
        guard case .aggregate = framesRule else { return framesRule.text }
        let named = frameOutputs.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.rawValue)" }
        return "aggregate (" + (named + ["others: the run's --aggregate, mean by default"]).joined(separator: "; ")
            + ")"
    }

    package init(
        name: String, description: String, source: String, score: String?, gates: [Gate],
        useDatasetFaceBox: Bool = false, yaml: String = "", origin: String = ""
    ) {
        self.name = name
        self.description = description
        self.source = source
        self.score = score
        self.gates = gates
        self.useDatasetFaceBox = useDatasetFaceBox
        self.yaml = yaml
        self.origin = origin
    }

    /// The files the profiles were loaded from (built-in profiles have none).
    package static func files(_ profiles: [Profile]) -> [String] {
        profiles.map(\.origin).filter { !$0.isEmpty && !$0.hasPrefix("builtin:") }
    }

    /// Measured outputs the active (not skipped) gates and the score read: a fused score stands
    /// for the outputs it fuses.
    package var requiredOutputs: [String] {
        var names = gates.filter { !$0.isSkipped }.flatMap {
            [$0.output] + ($0.approximation.map { [$0.output] } ?? [])
        }
        if let score { names.append(score) }
        if let fusion { names = names.flatMap { $0 == fusion.name ? fusion.outputs : [$0] } }
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }
    }

    /// Estimator names the profile needs (`quality` for `quality.sharpness`).
    package var requiredEstimators: [String] {
        var seen = Set<String>()
        return requiredOutputs.compactMap { $0.split(separator: ".").first.map(String.init) }.filter {
            seen.insert($0).inserted
        }
    }

    package var calibratedGates: [Int] { gates.indices.filter { gates[$0].calibration != nil } }

    /// Active gates a run with these outputs cannot decide: neither the gate's output nor its
    /// approximation's output is measured (the same rule ``CompiledProfile`` applies), by index.
    /// A gate on the fused score counts as measured when every fused output is.
    package func leftOutGates(measured: Set<String>) -> [Int] {
        var measured = measured
        if let fusion, fusion.outputs.allSatisfy(measured.contains) { measured.insert(fusion.name) }
        return gates.indices.filter { i in
            let gate = gates[i]
            return !gate.isSkipped && !measured.contains(gate.output)
                && !(gate.approximation.map { measured.contains($0.output) } ?? false)
        }
    }
}

/// One condition of a profile.
package struct Gate: Sendable, Equatable {
    package enum Comparison: String, Sendable, CaseIterable {
        case ge, gt, le, lt, eq, between

        /// Whether `value` passes: `value >= threshold` for `ge`, ..., both bounds for `between`.
        /// A NaN value passes none.
        @inlinable
        package func holds(_ value: Double, threshold: Double, upper: Double) -> Bool {
            switch self {
            case .ge: return value >= threshold
            case .gt: return value > threshold
            case .le: return value <= threshold
            case .lt: return value < threshold
            case .eq: return value == threshold
            case .between: return value >= threshold && value <= upper
            }
        }
    }

    /// Whether the threshold carries a vendor's number in physical units exactly, approximates
    /// a vendor's proprietary scale on padbench's own outputs, is calibrated, or is padbench's own
    /// choice for a check the vendor names but gives no number for (Aware's feedback codes).
    package enum Kind: String, Sendable {
        case exact, approximation, calibrated, own
    }

    /// A threshold chosen on one split to meet a target rate, applied on another.
    package struct Calibration: Sendable, Equatable {
        package enum Target: Sendable, Equatable {
            /// APCER_max <= x (BPCER@APCER, bob.pad.base's rule).
            case apcer(Double)
            /// BPCER <= x.
            case bpcer(Double)
            /// The equal-error threshold (bob.measure).
            case eer
            /// The threshold minimising (APCER_max + BPCER) / 2.
            case minHTER

            /// `apcer_max<=0.01`, `bpcer<=0.05`, `eer`, `min-hter`.
            package var text: String {
                switch self {
                case .apcer(let x): return "apcer_max<=\(x)"
                case .bpcer(let x): return "bpcer<=\(x)"
                case .eer: return "eer"
                case .minHTER: return "min-hter"
                }
            }
        }
        package var target: Target
        package var calibrationSplit: Split
        package var appliedSplit: Split
        package init(target: Target, calibrationSplit: Split = .dev, appliedSplit: Split = .eval) {
            self.target = target
            self.calibrationSplit = calibrationSplit
            self.appliedSplit = appliedSplit
        }
    }

    package var output: String
    package var comparison: Comparison
    /// The threshold (`ge`..`eq`) or the lower bound (`between`).
    package var threshold: Double
    /// Upper bound of `between`.
    package var upper: Double
    package var code: String
    package var message: String
    package var kind: Kind
    package var note: String
    /// Non-nil for gates padbench cannot evaluate yet (head pose, eye state): the reason.
    package var skipped: String?
    package var calibration: Calibration?
    /// Used when `output` (a vendor's exported score) is not in the run: the same check on
    /// padbench's own outputs, always `kind: approximation`.
    package var approximation: ApproximateGate?
    /// Line of the gate in its YAML file (for messages).
    package var line: Int

    package init(
        output: String, comparison: Comparison, threshold: Double, upper: Double = .nan, code: String,
        message: String, kind: Kind = .exact, note: String = "", skipped: String? = nil,
        calibration: Calibration? = nil, approximation: ApproximateGate? = nil, line: Int = 0
    ) {
        self.output = output
        self.comparison = comparison
        self.threshold = threshold
        self.upper = upper
        self.code = code
        self.message = message
        self.kind = kind
        self.note = note
        self.skipped = skipped
        self.calibration = calibration
        self.approximation = approximation
        self.line = line
    }

    package var isSkipped: Bool { skipped != nil }

    /// The check to make instead when the gate's own output was not measured.
    package struct ApproximateGate: Sendable, Equatable {
        package var output: String
        package var comparison: Comparison
        package var threshold: Double
        package var upper: Double
        package var note: String
        package init(output: String, comparison: Comparison, threshold: Double, upper: Double = .nan, note: String = "")
        {
            self.output = output
            self.comparison = comparison
            self.threshold = threshold
            self.upper = upper
            self.note = note
        }
    }

    /// This gate with its approximation in place (same code and message).
    package var approximated: Gate? {
        guard let a = approximation else { return nil }
        return Gate(
            output: a.output, comparison: a.comparison, threshold: a.threshold, upper: a.upper, code: code,
            message: message, kind: .approximation, note: a.note, line: line)
    }

    /// Whether a value passes; NaN never passes (not assessable = rejected).
    @inlinable
    package func passes(_ value: Double) -> Bool { comparison.holds(value, threshold: threshold, upper: upper) }

    /// `quality.sharpness >= 50`, `face.size_ratio in [0.1, 0.3]`.
    package var conditionText: String {
        func n(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : "\(v)" }
        if let calibration {
            let op = comparison == .le ? "<=" : ">="
            switch calibration.target {
            case .apcer(let x):
                return "\(output) \(op) t (t calibrated on \(calibration.calibrationSplit.rawValue): APCER_max <= \(x))"
            case .bpcer(let x):
                return "\(output) \(op) t (t calibrated on \(calibration.calibrationSplit.rawValue): BPCER <= \(x))"
            case .eer, .minHTER:
                return
                    "\(output) \(op) t (t calibrated on "
                    + "\(calibration.calibrationSplit.rawValue): \(calibration.target.text))"
            }
        }
        switch comparison {
        case .ge: return "\(output) >= \(n(threshold))"
        case .gt: return "\(output) > \(n(threshold))"
        case .le: return "\(output) <= \(n(threshold))"
        case .lt: return "\(output) < \(n(threshold))"
        case .eq: return "\(output) == \(n(threshold))"
        case .between: return "\(output) in [\(n(threshold)), \(n(upper))]"
        }
    }
}

extension Profile {
    /// Output names that decide liveness by their last part (`pad.score`, `luna.liveness`,
    /// `idemia.live`, `misnap.spoof`, `NAME.score` of an `--onnx` model or an external program).
    package static let livenessOutputSuffixes: Set<String> = ["score", "live", "liveness", "spoof"]

    /// Whether an output is a liveness / PAD output by its name (``livenessOutputSuffixes``).
    package static func isLivenessOutput(_ name: String) -> Bool {
        let output = name.prefix { $0 != "@" }
        return livenessOutputSuffixes.contains(output.split(separator: ".").last.map(String.init) ?? "")
    }

    /// A capture check, not a liveness decision: no active gate is on a liveness output (by name,
    /// ``isLivenessOutput(_:)``, or written as such by being calibrated) and the swept score, if
    /// any, is no liveness output either (`basic` sweeps sharpness). Its rates are capture reject
    /// rates: how many bona fide presentations and attacks the checks turn away.
    /// A profile that gates on its swept score alone (`eval --score OUTPUT` writes one) evaluates
    /// that output as a PAD score, whatever its name: no capture check.
    package var isCaptureOnly: Bool {
        if let score, Self.isLivenessOutput(score) { return false }
        let active = gates.filter { !$0.isSkipped }
        if let score, !active.isEmpty, active.allSatisfy({ $0.output == score }) { return false }
        return !active.contains { $0.calibration != nil || Self.isLivenessOutput($0.output) }
    }
}

extension Profile {
    /// FNV-1a over what decides: the swept score, the options, and every gate's output,
    /// comparison, thresholds, calibration and approximation (not the name, description, codes or
    /// YAML comments). Two runs whose profile of one name has different hashes decided
    /// differently, so `compare` refuses to gate them.
    package var definitionHash: String {
        var text = "score=\(score ?? "")|dataset_box=\(useDatasetFaceBox)"
        // Only a fused score changes the hash (profiles with a measured score keep theirs).
        if let fusion { text += "|fusion=\(fusion.text): \(fusion.name)" }
        // Only a rule that is written changes the hash (profiles without `frames:` keep theirs).
        if let frames, frames != .aggregate { text += "|frames=\(frames.text)" }
        for (output, rule) in frameOutputs.sorted(by: { $0.key < $1.key }) {
            text += "|frame \(output)=\(rule.rawValue)"
        }
        for gate in gates {
            text += "|\(gate.output) \(gate.comparison.rawValue) \(gate.threshold.bitPattern) \(gate.upper.bitPattern)"
            if let skipped = gate.skipped { text += " skipped:\(skipped.isEmpty ? "-" : "y")" }
            if let c = gate.calibration { text += " cal:\(c.target.text) on \(c.calibrationSplit.rawValue)" }
            if let a = gate.approximation {
                text += " approx:\(a.output) \(a.comparison.rawValue) \(a.threshold.bitPattern) \(a.upper.bitPattern)"
            }
        }
        return FNV1a.hex(FNV1a.hash(text))
    }

    /// The option values the profile measures with (``MeasurementVariant/defaults`` without
    /// `options:`): profiles with different options get measurements of their own, and a profile
    /// reads the columns of its own variant.
    package var variant: MeasurementVariant {
        MeasurementVariant(options: useDatasetFaceBox ? [.useDatasetFaceBox] : [])
    }

    /// The text of ``variant`` ("" for the defaults, `dataset_box`): the manifest's `profile_options`.
    package var optionsKey: String { variant.key }
}

import PadArchive
import PadDataset
import PadMetrics
import PadProfiles
import PadReport

/// Decides and scores profiles on a ``MeasurementTable``: calibrates calibrated gates on their
/// split, applies every gate to every sample, and computes the ISO/IEC 30107-3 rates, the swept
/// score's curve, EER and targets. Never runs an estimator (measure once, decide many times).
///
/// ```swift
/// let results = try ProfileEvaluator(table: table).evaluate(profiles, decisions: writer)
/// ```
public struct ProfileEvaluator: Sendable {
    public let table: MeasurementTable

    public init(table: MeasurementTable) { self.table = table }

    /// `eval` when the dataset has an eval split, else all samples (`all`).
    public var reportSplit: Split? { table.splits.contains(.eval) ? .eval : nil }

    /// Checks, before any work, that every calibrated gate has both classes on its calibration
    /// split; the message names the profile and gate.
    public static func checkCalibration(_ profiles: [Profile], labels: [Label], splits: [Split]) throws(EvaluationError) {
        for profile in profiles {
            for g in profile.calibratedGates {
                let gate = profile.gates[g]
                let split = gate.calibration!.calibrationSplit
                var bonaFide = 0, attacks = 0
                for i in labels.indices where splits[i] == split { if labels[i].isBonaFide { bonaFide += 1 } else { attacks += 1 } }
                if attacks == 0 || bonaFide == 0 {
                    throw EvaluationError("profile \(profile.name), gate on \(gate.output) (\(profile.origin) line \(gate.line)): calibration split '\(split.rawValue)' has \(bonaFide) bona fide and \(attacks) attack samples; it needs both")
                }
            }
        }
    }

    public func evaluate(_ profiles: [Profile], decisions: CSVWriter? = nil) throws -> [ProfileResult] {
        try decisions?.writeRow(["id", "profile", "split", "label", "species", "status", "accepted", "code", "message"])
        var results: [ProfileResult] = []
        for profile in profiles {
            results.append(try evaluate(profile, decisions: decisions))
        }
        return results
    }

    func evaluate(_ profile: Profile, decisions: CSVWriter?) throws -> ProfileResult {
        let n = table.count
        // 1. Calibrate.
        var thresholds: [Int: Double] = [:]
        var calibrations: [ProfileResult.Calibration] = []
        for g in profile.calibratedGates {
            let gate = profile.gates[g]
            let calibration = gate.calibration!
            // A calibrated gate on an output this run lacks is left out (and listed) below.
            guard let column = table.columnIndex(of: gate.output) else { continue }
            var set = ScoreSet()
            for i in 0..<n where table.splits[i] == calibration.calibrationSplit {
                let value = table.statuses[i].isOK ? table.value(column, i) : .nan
                set.append(score: value.isNaN && table.statuses[i].isOK ? -.infinity : value, species: table.labels[i].species)
            }
            let curve = try ErrorCurve(set)
            let criterion: ThresholdCriterion
            let targetText: String
            switch calibration.target {
            case let .apcer(x): criterion = .bpcerAtAPCER(x); targetText = "apcer_max<=\(CSVFormat.number(x))"
            case let .bpcer(x): criterion = .apcerAtBPCER(x); targetText = "bpcer<=\(CSVFormat.number(x))"
            }
            let t = criterion.threshold(on: curve)
            thresholds[g] = t
            let point = OperatingPoint(curve: curve, threshold: t)
            calibrations.append(.init(gate: g, output: gate.output, target: targetText, split: calibration.calibrationSplit.rawValue,
                                      threshold: t, calibrationAPCERMax: point.apcerMax.value, calibrationBPCER: point.bpcer.value))
        }
        let compiled = profile.compiled(columns: table.columns, calibratedThresholds: thresholds)

        // 2. Decide every sample; score the report split.
        let reportSplit = self.reportSplit
        var decisionSet = ScoreSet(), scoreSet = ScoreSet()
        var reasons: [String: (label: String, species: String, code: String, message: String, count: Int)] = [:]
        var groupCounts: [String: Int] = [:]
        var bonaFide = 0, attacks = 0, failed = 0
        let values = table.values
        for i in 0..<n {
            let label = table.labels[i]
            let status = table.statuses[i]
            let decision: Decision? = status.isOK ? compiled.decide { values[$0][i] } : nil
            if let decisions {
                let gate = decision.flatMap { $0.isAccepted ? nil : profile.gates[$0.failedGate] }
                try decisions.writeRow([table.ids[i], profile.name, table.splits[i].rawValue, label.csvLabel, label.species ?? "",
                                        status.code, decision.map { $0.isAccepted ? "1" : "0" } ?? "",
                                        gate.map { Self.code(of: $0, decision: decision!) } ?? "", gate?.message ?? ""])
            }
            guard reportSplit == nil || table.splits[i] == reportSplit else { continue }
            if label.isBonaFide { bonaFide += 1 } else { attacks += 1 }
            guard let decision else {
                failed += 1
                decisionSet.append(score: .nan, species: label.species)
                scoreSet.append(score: .nan, species: label.species)
                continue
            }
            decisionSet.append(score: decision.isAccepted ? 1 : 0, species: label.species)
            if compiled.scoreColumn != nil { scoreSet.append(score: compiled.effectiveScore { values[$0][i] }, species: label.species) }
            let groupKey = label.csvLabel + "\u{1F}" + (label.species ?? "")
            groupCounts[groupKey, default: 0] += 1
            if !decision.isAccepted {
                let gate = profile.gates[decision.failedGate]
                let code = Self.code(of: gate, decision: decision)
                let key = groupKey + "\u{1F}" + code
                reasons[key, default: (label.csvLabel, label.species ?? "", code, gate.message, 0)].count += 1
            }
        }
        var headline: OperatingPoint?, headlineError: String?
        do { headline = OperatingPoint(curve: try ErrorCurve(decisionSet), threshold: 1) } catch { headlineError = "\(error)" }
        var scoreMetrics: ProfileResult.ScoreMetrics?, scoreError: String?
        if let score = profile.score {
            if compiled.scoreColumn == nil {
                scoreError = "score \(score) was not measured in this run"
            } else {
                do {
                    let curve = try ErrorCurve(scoreSet)
                    let bpcerTargets = ReportTables.targets.map { x -> (target: Double, threshold: Double, bpcer: Double) in
                        let t = ThresholdSearch.lowestAttackScore(curve, apcerAtMost: x)
                        return (x, t, curve.bpcer(curve.pointIndex(for: t)))
                    }
                    let apcerTargets = ReportTables.targets.map { x -> (target: Double, threshold: Double, apcerMax: Double) in
                        let t = ThresholdSearch.highestBonaFideScore(curve, bpcerAtMost: x)
                        return (x, t, curve.apcerMax(curve.pointIndex(for: t)).value)
                    }
                    scoreMetrics = .init(score: score, curve: curve, eer: EqualErrorRate(curve), bpcerAtAPCER: bpcerTargets,
                                         apcerAtBPCER: apcerTargets, auc: areaUnderROC(curve))
                } catch {
                    scoreError = "\(error)"
                }
            }
        }
        let rejectReasons = reasons.values.sorted { ($0.label, $0.species, -$0.count, $0.code) < ($1.label, $1.species, -$1.count, $1.code) }
            .map { r in
                ProfileResult.RejectReason(label: r.label, species: r.species, code: r.code, message: r.message, count: r.count,
                                           fraction: Double(r.count) / Double(groupCounts[r.label + "\u{1F}" + r.species] ?? 1))
            }
        var notes: [String] = []
        let unmeasured = compiled.unmeasuredGates.map { profile.gates[$0].output }
        if !unmeasured.isEmpty { notes.append("gates left out, outputs not measured in this run: \(unmeasured.joined(separator: ", "))") }
        let approximated = compiled.approximatedGates.map { "\(profile.gates[$0].output) -> \(profile.gates[$0].approximation!.output)" }
        if !approximated.isEmpty { notes.append("approximated on padbench outputs: \(approximated.joined(separator: ", "))") }
        let skipped = profile.gates.filter(\.isSkipped).map(\.output)
        if !skipped.isEmpty { notes.append("skipped (not measurable by padbench): \(skipped.joined(separator: ", "))") }
        return ProfileResult(profile: profile, split: reportSplit?.rawValue ?? "all", headline: headline, headlineError: headlineError,
                             calibrations: calibrations, scoreMetrics: scoreMetrics, scoreError: scoreError,
                             rejectReasons: rejectReasons, bonaFideCount: bonaFide, attackCount: attacks, failedCount: failed,
                             notes: notes)
    }

    /// The gate's reject code; a gate that failed on a NaN value says the output was not assessable.
    static func code(of gate: Gate, decision: Decision) -> String {
        let base = gate.code.isEmpty ? gate.output : gate.code
        return decision.valueWasNaN ? base + " (not assessable)" : base
    }
}

/// A profile that cannot be evaluated on this data.
public struct EvaluationError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

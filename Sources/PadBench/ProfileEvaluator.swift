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
/// Nothing here aborts a run after measuring: a calibration that cannot run, a one-class split or
/// a score nobody measured is reported in the result (notes, empty rates), and every file is
/// still written.
public struct ProfileEvaluator: Sendable {
    public let table: MeasurementTable
    /// For score files (`eval --scores`): with no calibration split in the data, choose the
    /// threshold on the reported set itself and say so. For datasets a calibrated profile without
    /// its calibration split is reported as not calibrated instead.
    public var choosesOnReportedSetWithoutCalibrationSplit: Bool

    public init(table: MeasurementTable, choosesOnReportedSetWithoutCalibrationSplit: Bool = false) {
        self.table = table
        self.choosesOnReportedSetWithoutCalibrationSplit = choosesOnReportedSetWithoutCalibrationSplit
    }

    /// `eval` when the data has an eval split, else all samples (`all`).
    public var reportSplit: Split? { table.splits.contains(.eval) ? .eval : nil }

    public func evaluate(_ profiles: [Profile], decisions: CSVWriter? = nil) throws -> [ProfileResult] {
        try decisions?.writeRow(["id", "profile", "split", "label", "species", "status", "accepted", "code", "message"])
        var results: [ProfileResult] = []
        for profile in profiles {
            results.append(try evaluate(profile, decisions: decisions))
        }
        return results
    }

    /// The run's column names as this profile sees them: a profile with options reads the columns
    /// measured with its options (`face.x@dataset_box` as `face.x`), and no profile sees another
    /// option set's columns (profiles are isolated).
    func columnNames(for profile: Profile) -> [String] {
        let key = profile.optionsKey
        let names = Set(table.columns)
        return table.columns.map { name in
            if let at = name.firstIndex(of: "@") {
                return name[name.index(after: at)...] == key ? String(name[..<at]) : ""
            }
            return !key.isEmpty && names.contains(name + "@" + key) ? "" : name
        }
    }

    func evaluate(_ profile: Profile, decisions: CSVWriter?) throws -> ProfileResult {
        let columns = columnNames(for: profile)
        let reportSplit = self.reportSplit
        var notes: [String] = []
        let calibration = calibrate(profile, columns: columns, reportSplit: reportSplit, notes: &notes)
        let compiled = profile.compiled(columns: columns, calibratedThresholds: calibration.thresholds)
        try writeDecisions(profile, compiled, notCalibrated: calibration.failure, to: decisions)

        var reported = score(profile, compiled, split: reportSplit)
        var calibrationSet: ProfileResult.SetResult?
        let calibrationSplits = Set(profile.calibratedGates.map { profile.gates[$0].calibration!.calibrationSplit })
        if let split = calibrationSplits.first, calibrationSplits.count == 1, split != reportSplit, table.splits.contains(split) {
            calibrationSet = score(profile, compiled, split: split)
        }
        if let failure = calibration.failure {
            reported.headline = nil
            reported.headlineError = "not calibrated: \(failure)"
            calibrationSet?.headline = nil
            calibrationSet?.headlineError = reported.headlineError
        }
        let leftOut = compiled.unmeasuredGates.map { profile.gates[$0].output }
        if !leftOut.isEmpty { notes.append("gates left out, outputs not measured in this run: \(leftOut.joined(separator: ", "))") }
        let approximated = compiled.approximatedGates.map { "\(profile.gates[$0].output) -> \(profile.gates[$0].approximation!.output)" }
        if !approximated.isEmpty { notes.append("approximated on padbench outputs: \(approximated.joined(separator: ", "))") }
        let skipped = profile.gates.filter(\.isSkipped).map(\.output)
        if !skipped.isEmpty { notes.append("skipped (not measurable by padbench): \(skipped.joined(separator: ", "))") }
        return ProfileResult(profile: profile, reported: reported, calibrationSet: calibrationSet, calibrations: calibration.records,
                             thresholdSource: calibration.source, notes: notes, gatesLeftOut: leftOut)
    }

    // MARK: calibration

    struct CalibrationOutcome {
        var thresholds: [Int: Double] = [:]
        var records: [ProfileResult.Calibration] = []
        /// Why a calibrated gate got no threshold (then the profile has no rates).
        var failure: String?
        var source = "profile gates"
    }

    /// Chooses each calibrated gate's threshold on its calibration split. The gate's output alone
    /// is swept; a processed sample whose output is not assessable is rejected at every threshold.
    func calibrate(_ profile: Profile, columns: [String], reportSplit: Split?, notes: inout [String]) -> CalibrationOutcome {
        var outcome = CalibrationOutcome()
        let index = Dictionary(columns.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        for g in profile.calibratedGates {
            let gate = profile.gates[g]
            let calibration = gate.calibration!
            // A calibrated gate on an output this run lacks is left out (and listed) by the caller.
            guard let column = index[gate.output] else { continue }
            // The calibration split, or (score files without one) the reported set itself.
            let onReported = choosesOnReportedSetWithoutCalibrationSplit && !table.splits.contains(calibration.calibrationSplit)
            let chosenSplit: Split? = onReported ? reportSplit : calibration.calibrationSplit
            var set = ScoreSet()
            for i in 0..<table.count where chosenSplit == nil || table.splits[i] == chosenSplit {
                let value = table.value(column, i)
                if !table.statuses[i].isOK { set.append(score: .nan, species: table.labels[i].species) }
                else if value.isNaN { set.appendRejectedAtEveryThreshold(species: table.labels[i].species) }
                else { set.append(score: value, species: table.labels[i].species) }
            }
            let splitName = chosenSplit?.rawValue ?? "all"
            let where_ = "gate on \(gate.output) (line \(gate.line) of the profile)"
            let criterion: ThresholdCriterion
            switch calibration.target {
            case let .apcer(x): criterion = .bpcerAtAPCER(x)
            case let .bpcer(x): criterion = .apcerAtBPCER(x)
            case .eer: criterion = .eer
            case .minHTER: criterion = .minHTER
            }
            do {
                let curve = try ErrorCurve(set)
                let choice = try criterion.choose(on: curve)
                let point = OperatingPoint(curve: curve, threshold: choice.threshold)
                outcome.thresholds[g] = choice.threshold
                outcome.records.append(.init(gate: g, output: gate.output, target: calibration.target.text, split: splitName,
                                             threshold: choice.threshold, calibrationAPCERMax: point.apcerMax.value,
                                             calibrationBPCER: point.bpcer.value, targetMet: choice.targetMet))
                if !choice.targetMet { notes.append("\(where_): target \(calibration.target.text) cannot be met on \(splitName)") }
                if let warning = Self.resolutionWarning(calibration.target, curve: curve, split: splitName) {
                    notes.append("\(where_): \(warning)")
                }
            } catch {
                outcome.failure = "\(where_): calibration split '\(splitName)' cannot be used: \(error)"
                notes.append(outcome.failure!)
            }
            outcome.source = onReported ? "\(splitName) (not calibrated: chosen on the reported set)"
                : "calibrated \(calibration.target.text) on \(splitName)"
        }
        return outcome
    }

    /// A target below 1/n cannot be resolved by n samples: with 10 attacks of a species, APCER
    /// moves in steps of 10%, so "APCER <= 1%" and "<= 3%" pick the same threshold.
    static func resolutionWarning(_ target: Gate.Calibration.Target, curve: ErrorCurve, split: String) -> String? {
        switch target {
        case let .apcer(x):
            let counts = curve.attackCounts.indices.filter { curve.attackCounts[$0] > 0 }.map { (curve.speciesNames[$0], curve.attackCounts[$0]) }
            guard let smallest = counts.min(by: { $0.1 < $1.1 }), x < 1 / Double(smallest.1) else { return nil }
            return "APCER target \(CSVFormat.number(x)) is below 1/n for species \(smallest.0) (n = \(smallest.1) on \(split)): the data cannot resolve it; the threshold is the one for APCER 0 of that species"
        case let .bpcer(x):
            guard curve.bonaFideCount > 0, x < 1 / Double(curve.bonaFideCount) else { return nil }
            return "BPCER target \(CSVFormat.number(x)) is below 1/n (n = \(curve.bonaFideCount) bona fide on \(split)): the data cannot resolve it"
        case .eer, .minHTER:
            return nil
        }
    }

    // MARK: decisions

    func writeDecisions(_ profile: Profile, _ compiled: CompiledProfile, notCalibrated: String?, to writer: CSVWriter?) throws {
        guard let writer else { return }
        for i in 0..<table.count {
            let label = table.labels[i], status = table.statuses[i]
            var accepted = "", code = "", message = ""
            if status.isOK {
                if notCalibrated != nil {
                    code = "NOT_CALIBRATED"
                    message = "the profile's calibration could not run"
                } else {
                    let decision = compiled.decide { table.values[$0][i] }
                    accepted = decision.isAccepted ? "1" : "0"
                    if !decision.isAccepted {
                        let gate = profile.gates[decision.failedGate]
                        code = Self.code(of: gate, decision: decision)
                        message = gate.message
                    }
                }
            }
            try writer.writeRow([table.ids[i], profile.name, table.splits[i].rawValue, label.csvLabel, label.species ?? "",
                                 status.code, accepted, code, message])
        }
    }

    // MARK: scoring one split

    struct GroupKey: Hashable { var label: String; var species: String }
    struct ReasonKey: Hashable { var group: GroupKey; var code: String }

    /// Rates of a profile on one split (`nil` = all samples).
    func score(_ profile: Profile, _ compiled: CompiledProfile, split: Split?) -> ProfileResult.SetResult {
        var decisionSet = ScoreSet(), scoreSet = ScoreSet()
        var reasons: [ReasonKey: (message: String, count: Int)] = [:]
        var groupCounts: [GroupKey: Int] = [:]
        var bonaFide = 0, attacks = 0, failed = 0
        let values = table.values
        for i in 0..<table.count where split == nil || table.splits[i] == split {
            let label = table.labels[i]
            if label.isBonaFide { bonaFide += 1 } else { attacks += 1 }
            guard table.statuses[i].isOK else {
                failed += 1
                decisionSet.append(score: .nan, species: label.species)
                scoreSet.append(score: .nan, species: label.species)
                continue
            }
            let decision = compiled.decide { values[$0][i] }
            decisionSet.append(score: decision.isAccepted ? 1 : 0, species: label.species)
            if compiled.scoreColumn != nil {
                if let score = compiled.sweptScore({ values[$0][i] }) { scoreSet.append(score: score, species: label.species) }
                else { scoreSet.appendRejectedAtEveryThreshold(species: label.species) }
            }
            let group = GroupKey(label: label.csvLabel, species: label.species ?? "")
            groupCounts[group, default: 0] += 1
            if !decision.isAccepted {
                let gate = profile.gates[decision.failedGate]
                reasons[ReasonKey(group: group, code: Self.code(of: gate, decision: decision)), default: (gate.message, 0)].count += 1
            }
        }
        var headline: OperatingPoint?, headlineError: String?
        do { headline = OperatingPoint(curve: try ErrorCurve(decisionSet), threshold: 1) } catch { headlineError = "\(error)" }
        if headline != nil && bonaFide == 0 { headlineError = "no bona fide samples: BPCER is undefined" }
        if headline != nil && attacks == 0 { headlineError = "no attack samples: APCER is undefined" }
        var scoreMetrics: ProfileResult.ScoreMetrics?, scoreError: String?
        if let score = profile.score {
            if compiled.scoreColumn == nil {
                scoreError = "score \(score) was not measured in this run"
            } else {
                do { scoreMetrics = try Self.scoreMetrics(score, scoreSet) } catch { scoreError = "\(score): \(error)" }
            }
        }
        let rejectReasons = reasons.map { key, value in
            ProfileResult.RejectReason(label: key.group.label, species: key.group.species, code: key.code, message: value.message,
                                       count: value.count, fraction: Double(value.count) / Double(groupCounts[key.group] ?? 1))
        }.sorted { ($0.label, $0.species, -$0.count, $0.code) < ($1.label, $1.species, -$1.count, $1.code) }
        return ProfileResult.SetResult(split: split?.rawValue ?? "all", headline: headline, headlineError: headlineError,
                                       scoreMetrics: scoreMetrics, scoreError: scoreError, rejectReasons: rejectReasons,
                                       bonaFideCount: bonaFide, attackCount: attacks, failedCount: failed)
    }

    /// Curve, EER, targets and AUC of a swept score (both classes needed).
    static func scoreMetrics(_ score: String, _ set: ScoreSet) throws -> ProfileResult.ScoreMetrics {
        let curve = try ErrorCurve(set)
        let eer = try EqualErrorRate(curve)
        let bpcerTargets = try ReportTables.targets.map { x -> ProfileResult.Target in
            let choice = try ThresholdCriterion.bpcerAtAPCER(x).choose(on: curve)
            return .init(target: x, threshold: choice.threshold, rate: curve.bpcer(choice.point), targetMet: choice.targetMet)
        }
        let apcerTargets = try ReportTables.targets.map { x -> ProfileResult.Target in
            let choice = try ThresholdCriterion.apcerAtBPCER(x).choose(on: curve)
            return .init(target: x, threshold: choice.threshold, rate: curve.apcerMax(choice.point).value, targetMet: choice.targetMet)
        }
        return .init(score: score, curve: curve, eer: eer, bpcerAtAPCER: bpcerTargets, apcerAtBPCER: apcerTargets, auc: areaUnderROC(curve))
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

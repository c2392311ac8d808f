import PadArchive
import PadMetrics
import PadProfiles
import PadText
import PadVocabulary

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
package struct ProfileEvaluator: Sendable {
    package internal(set) var table: MeasurementTable
    /// For score files (`eval --scores`): with no calibration split in the data, choose the
    /// threshold on the reported set itself and say so. For datasets a calibrated profile without
    /// its calibration split is reported as not calibrated instead.
    package var choosesOnReportedSetWithoutCalibrationSplit: Bool
    /// Keep each reported swept score's sorted scores in its ``ProfileResult/ScoreMetrics`` (one
    /// profile on ten million scores: `outputs.csv` then does not sort them again). Off by
    /// default: a run of many profiles would hold one sorted copy of its scores per profile.
    package var keepsSortedScores = false
    /// Also score the dev split of a profile with fixed thresholds (`eval --scores --threshold T`
    /// on a file with dev rows): the dev row is reported beside eval, as for a calibrated one.
    package var reportsDevWithFixedThresholds = false
    /// Which attack rate the EER (and the eer / min-hter criteria) balance against BPCER.
    package var eerRule: EERRule = .apcerMax

    package init(table: MeasurementTable, choosesOnReportedSetWithoutCalibrationSplit: Bool = false) {
        self.table = table
        self.choosesOnReportedSetWithoutCalibrationSplit = choosesOnReportedSetWithoutCalibrationSplit
    }

    /// `eval` when the data has an eval split, else all samples (`all`).
    package var reportSplit: Split? { table.splits.contains(.eval) ? .eval : nil }

    package func evaluate(_ profiles: [Profile], decisions: CSVWriter? = nil) throws -> [ProfileResult] {
        try decisions?.writeRow(Self.decisionsHeader)
        var results: [ProfileResult] = []
        for profile in profiles {
            results.append(try evaluate(profile, decisions: decisions))
        }
        return results
    }

    /// The run's columns as this profile sees them, by the plain output name it reads (nil: a
    /// column it does not see). A profile reads the columns measured with its own options
    /// (``ColumnKey/variant`` equal to ``Profile/variant``: `face.x@dataset_box` as `face.x`), and
    /// the defaults' column of an output no estimator measured again with its options (an estimator
    /// that reads no option serves every profile). No profile sees another option set's columns:
    /// profiles are isolated.
    package func columnNames(for profile: Profile) -> [String?] {
        let variant = profile.variant
        let keys = Set(table.keys)
        return table.keys.map { key in
            if key.variant == variant { return key.name }
            return key.variant.isDefault && !keys.contains(key.with(variant: variant)) ? key.name : nil
        }
    }

    /// `evaluate(_:decisions:)` with `decisions.csv` written in the background, on the lane that
    /// owns its writer: each profile's rows are enqueued once it is calibrated, and the caller goes
    /// on as soon as the last profile is scored. The caller then enqueues the writer's `close()`
    /// and calls ``BackgroundLane/wait()``, which throws the first write error (nothing after it
    /// is written). The same rows in the same order.
    ///
    /// ```swift
    /// let decisions = BackgroundLane(try CSVWriter(path: folder + "/decisions.csv"))
    /// let results = try evaluator.evaluate(profiles, decisions: decisions)
    /// decisions.enqueue { try $0.close() }
    /// try decisions.wait()  // the rows written and the file closed, or the first write error
    /// ```
    package func evaluate(_ profiles: [Profile], decisions: BackgroundLane<CSVWriter>) throws -> [ProfileResult] {
        decisions.enqueue { try $0.writeRow(Self.decisionsHeader) }
        return try profiles.map { try evaluate($0, decisions: .background(decisions)) }
    }

    static let decisionsHeader = DecisionsSchema.header

    /// Where a profile's rows of `decisions.csv` go: written beside its scoring (then waited for),
    /// queued on a background writer, or nowhere.
    enum DecisionsTarget {
        case beside(CSVWriter?)
        case background(BackgroundLane<CSVWriter>)
    }

    func evaluate(_ profile: Profile, decisions: CSVWriter?) throws -> ProfileResult {
        try evaluate(profile, decisions: .beside(decisions))
    }

    func evaluate(_ profile: Profile, decisions target: DecisionsTarget) throws -> ProfileResult {
        if let fusion = profile.fusion, !columnNames(for: profile).contains(fusion.name) {
            return try evaluateFused(profile, fusion, decisions: target)
        }
        return try evaluateOnColumns(profile, decisions: target)
    }

    /// The profile decided on the table's columns as they are (a fused score's column added
    /// already, or left out as unmeasured).
    func evaluateOnColumns(_ profile: Profile, decisions target: DecisionsTarget) throws -> ProfileResult {
        let columns = columnNames(for: profile)
        let reportSplit = self.reportSplit
        var notes: [ResultNote] = []
        let curves = CurveCache(keepsSorted: keepsSortedScores)
        let calibration = calibrate(profile, columns: columns, reportSplit: reportSplit, curves: curves, notes: &notes)
        let compiled = profile.compiled(columns: columns, calibratedThresholds: calibration.thresholds)
        // The one decision pass: the tallies, decisions.csv and the run's analyses read these.
        let decided = DecisionCodes(table: table, compiled: compiled)
        var (reported, calibrationSet): (ProfileResult.SetResult, ProfileResult.SetResult?)
        switch target {
        case .beside(let decisions):
            (reported, calibrationSet) = try scoredBesideDecisions(
                profile, compiled, reportSplit: reportSplit, curves: curves, notCalibrated: calibration.failure,
                decisions: decisions, decided: decided)
        case .background(let decisions):
            let notCalibrated = calibration.failure
            decisions.enqueue {
                try self.writeDecisions(profile, compiled, notCalibrated: notCalibrated, to: $0, decided: decided)
            }
            (reported, calibrationSet) = scoredSplits(
                profile, compiled, reportSplit: reportSplit, curves: curves, decided: decided)
        }
        if let failure = calibration.failure {
            reported.headline = nil
            reported.headlineError = "not calibrated: \(failure)"
            calibrationSet?.headline = nil
            calibrationSet?.headlineError = reported.headlineError
        }
        notes += Self.sanityNotes(
            profile, reported: reported, calibrationSet: calibrationSet, calibrations: calibration.records)
        let leftOut = compiled.unmeasuredGates.map { profile.gates[$0].output }
        if !leftOut.isEmpty {
            notes.append(.gatesLeftOut(outputs: leftOut))
        }
        let approximated = compiled.approximatedGates.map {
            ResultNote.Approximation(
                output: profile.gates[$0].output, approximation: profile.gates[$0].approximation!.output)
        }
        if !approximated.isEmpty {
            notes.append(.approximated(approximated))
        }
        let skipped = profile.gates.filter(\.isSkipped).map(\.output)
        if !skipped.isEmpty {
            notes.append(.skipped(outputs: skipped))
        }
        var result = ProfileResult(
            profile: profile, reported: reported, calibrationSet: calibrationSet, calibrations: calibration.records,
            thresholdSource: calibration.source, notes: notes, gatesLeftOut: leftOut,
            thresholdSign: profile.sweepsScoreNegated ? -1 : 1)
        result.decisions = decided
        return result
    }

    /// The reported split's result and the calibration (or dev) split's, scored while
    /// `decisions.csv` is written on another core: both only read the table and the compiled
    /// profile (ten million rows: seconds each). The writer is used by the writing step alone;
    /// its error, if any, is thrown once both are done.
    func scoredBesideDecisions(
        _ profile: Profile, _ compiled: CompiledProfile, reportSplit: Split?, curves: CurveCache,
        notCalibrated: String?, decisions: CSVWriter?, decided: DecisionCodes? = nil
    ) throws -> (ProfileResult.SetResult, ProfileResult.SetResult?) {
        // Safety: the writer is used by the first step only, the cache by the second; `both` returns after both.
        nonisolated(unsafe) let (writer, curves) = (decisions, curves)
        return try Parallel.both(
            { try self.writeDecisions(profile, compiled, notCalibrated: notCalibrated, to: writer, decided: decided) },
            { self.scoredSplits(profile, compiled, reportSplit: reportSplit, curves: curves, decided: decided) }
        ).1
    }

    /// The reported split's result, and the calibration split's (or with fixed thresholds and
    /// ``reportsDevWithFixedThresholds``, dev's) when it is another split of the table.
    func scoredSplits(
        _ profile: Profile, _ compiled: CompiledProfile, reportSplit: Split?, curves: CurveCache,
        decided: DecisionCodes? = nil
    ) -> (ProfileResult.SetResult, ProfileResult.SetResult?) {
        let decided = decided ?? DecisionCodes(table: table, compiled: compiled)
        let reported = score(profile, compiled, split: reportSplit, curves: curves, decided: decided)
        var calibrationSet: ProfileResult.SetResult?
        let calibrationSplits = Set(profile.calibratedGates.map { profile.gates[$0].calibration!.calibrationSplit })
        if let split = calibrationSplits.first, calibrationSplits.count == 1, split != reportSplit,
            table.splits.contains(split)
        {
            calibrationSet = score(profile, compiled, split: split, curves: curves, decided: decided)
        } else if reportsDevWithFixedThresholds, calibrationSplits.isEmpty, reportSplit == .eval,
            table.splits.contains(.dev)
        {
            calibrationSet = score(profile, compiled, split: .dev, curves: curves, decided: decided)
        }
        return (reported, calibrationSet)
    }

    // MARK: calibration

    struct CalibrationOutcome {
        var thresholds: [Int: Double] = [:]
        var records: [ProfileResult.Calibration] = []
        /// Why a calibrated gate got no threshold (then the profile has no rates).
        var failure: String?
        var source = ThresholdSource.profileGates
    }

    /// Chooses each calibrated gate's threshold on its calibration split. The gate's output alone
    /// is swept; a processed sample whose output is not assessable is rejected at every threshold.
    func calibrate(
        _ profile: Profile, columns: [String?], reportSplit: Split?, curves: CurveCache = CurveCache(),
        notes: inout [ResultNote]
    ) -> CalibrationOutcome {
        var outcome = CalibrationOutcome()
        let index = Dictionary(
            columns.enumerated().compactMap { i, name in name.map { ($0, i) } }, uniquingKeysWith: { a, _ in a })
        for g in profile.calibratedGates {
            let gate = profile.gates[g]
            let calibration = gate.calibration!
            // A calibrated gate on an output this run lacks is left out (and listed) by the caller.
            guard let column = index[gate.output] else { continue }
            // The calibration split, or (score files without one) the reported set itself.
            let onReported =
                choosesOnReportedSetWithoutCalibrationSplit && !table.splits.contains(calibration.calibrationSplit)
            let chosenSplit: Split? = onReported ? reportSplit : calibration.calibrationSplit
            // A `le` calibrated gate (lower-bona-fide output) is calibrated on the output negated.
            let set = calibrationSet(column: column, split: chosenSplit, negated: gate.comparison == .le)
            let splitName = chosenSplit?.rawValue ?? "all"
            var problems: [ResultNote.CalibrationProblem] = []
            let criterion: ThresholdCriterion
            switch calibration.target {
            case .apcer(let x): criterion = .bpcerAtAPCER(x)
            case .bpcer(let x): criterion = .apcerAtBPCER(x)
            case .eer: criterion = .eer
            case .minHTER: criterion = .minHTER
            }
            do {
                let curve = try curves.curve(for: set)
                let choice = try criterion.choose(on: curve, eerRule: eerRule)
                let point = OperatingPoint(curve: curve, threshold: choice.threshold)
                outcome.thresholds[g] = choice.threshold
                outcome.records.append(
                    .init(
                        gate: g, output: gate.output, target: calibration.target.text, split: splitName,
                        threshold: choice.threshold, calibrationAPCERMax: point.apcerMax.value,
                        calibrationBPCER: point.bpcer.value, targetMet: choice.targetMet))
                if !choice.targetMet {
                    problems.append(.targetNotMet(target: calibration.target.text, split: splitName))
                }
                if let warning = Self.resolutionWarning(calibration.target, curve: curve, split: splitName) {
                    problems.append(warning)
                }
            } catch {
                problems.append(.splitUnusable(split: splitName, error: "\(error)"))
                outcome.failure =
                    ResultNote.calibration(output: gate.output, line: gate.line, problem: problems.last!).text
            }
            notes += problems.map { .calibration(output: gate.output, line: gate.line, problem: $0) }
            outcome.source =
                onReported
                ? .chosenOnReportedSet(split: splitName)
                : .calibrated(target: calibration.target.text, split: splitName)
        }
        return outcome
    }

    /// The gate's output on the split: a failed sample is a failure (NaN), a processed sample
    /// whose output is not assessable is rejected at every threshold.
    package func calibrationSet(column: Int, split: Split?, negated: Bool = false) -> ScoreSet {
        var set = ScoreSet(speciesNames: table.speciesNames)
        set.reserveCapacity(rowCount(split: split))
        let gateValues = table.values[column], species = table.speciesIndex, statuses = table.statuses
        statuses.withCodeNumbers { codes, ok in
            for i in 0..<table.count where split == nil || table.splits[i] == split {
                let value = gateValues[i]
                if codes[i] != ok {
                    set.append(score: .nan, speciesIndex: species[i])
                } else if value.isNaN {
                    set.appendRejectedAtEveryThreshold(speciesIndex: species[i])
                } else {
                    set.append(score: negated ? -value : value, speciesIndex: species[i])
                }
            }
        }
        return set
    }

    /// Rows of the split (`nil` = all): the exact capacity of its score set, which would otherwise
    /// grow by copying (ten million scores: every doubling faults in fresh pages).
    func rowCount(split: Split?) -> Int {
        guard let split else { return table.count }
        return table.splits.withUnsafeBufferPointer { splits in
            var n = 0
            for s in splits where s == split { n += 1 }
            return n
        }
    }

    /// A target below 1/n cannot be resolved by n samples: with 10 attacks of a species, APCER
    /// moves in steps of 10%, so "APCER <= 1%" and "<= 3%" pick the same threshold.
    static func resolutionWarning(_ target: Gate.Calibration.Target, curve: ErrorCurve, split: String)
        -> ResultNote.CalibrationProblem?
    {
        switch target {
        case .apcer(let x):
            let counts = curve.attackCounts.indices.filter { curve.attackCounts[$0] > 0 }.map {
                (curve.speciesNames[$0], curve.attackCounts[$0])
            }
            guard let smallest = counts.min(by: { $0.1 < $1.1 }), x < 1 / Double(smallest.1) else { return nil }
            return .apcerBelowResolution(target: x, species: smallest.0, count: smallest.1, split: split)
        case .bpcer(let x):
            guard curve.bonaFideCount > 0, x < 1 / Double(curve.bonaFideCount) else { return nil }
            return .bpcerBelowResolution(target: x, count: curve.bonaFideCount, split: split)
        case .eer, .minHTER:
            return nil
        }
    }

    // MARK: decisions

    /// `decisions.csv` rows of one profile, formatted into one reused block of memory (ten
    /// million rows take seconds): everything after the id is one of a few fixed texts made once
    /// per profile (``DecisionText``), so a row is its id and two copies, with no String, array
    /// or reference count touched per row.
    func writeDecisions(
        _ profile: Profile, _ compiled: CompiledProfile, notCalibrated: String?, to writer: CSVWriter?,
        decided: DecisionCodes? = nil
    ) throws {
        guard let writer else { return }
        let decided = decided ?? DecisionCodes(table: table, compiled: compiled)
        let text = DecisionText(profile, speciesNames: table.speciesNames, notCalibrated: notCalibrated != nil)
        let block = CSVBlock(writer: writer)
        let statuses = table.statuses
        try text.pieces.withPieces { pieces in
            try table.splits.withUnsafeBufferPointer { splits in
                try table.speciesIndex.withUnsafeBufferPointer { species in
                    try statuses.withCodeNumbers { codes, ok in
                        try table.ids.forEachUTF8(0..<table.count) { i, id in
                            try block.appendField(utf8: id)
                            try block.append(pieces[text.middle(splits[i], species[i])])
                            guard codes[i] == ok else {
                                return try Self.appendFailure(statuses[i], to: block)
                            }
                            try block.append(pieces[text.tail(code: decided.codes[i])])
                        }
                    }
                }
            }
        }
        try block.flush()
    }

    /// The end of a failed sample's row: its status code, then empty accepted, code and message.
    static func appendFailure(_ status: SampleStatus, to block: CSVBlock) throws {
        var code = status.field
        try code.withUTF8 { try block.appendField(utf8: $0) }
        for byte in ",,,\n".utf8 { try block.append(byte: byte) }
    }

    /// The fixed texts of one profile's `decisions.csv` rows (CSV-escaped, in ``DecisionsSchema``'s
    /// column order), made once per profile:
    /// after the id, `,profile,split,label,species,` (one per split and class) and the end of a
    /// processed row: accepted, not calibrated, or rejected by a gate (its code, plain or not
    /// assessable, and its message).
    struct DecisionText {
        var pieces = CSVPieces()
        let classCount: Int
        /// The number of the first tail: accepted (or not calibrated), then per gate plain and NaN.
        var firstTail = 0
        let notCalibrated: Bool

        init(_ profile: Profile, speciesNames: [String], notCalibrated: Bool) {
            classCount = speciesNames.count + 1
            self.notCalibrated = notCalibrated
            let name = Self.escaped(profile.name)
            // In the order ``middle(_:_:)`` numbers them.
            for split in [Split.train, .dev, .eval, .none] {
                for s in -1..<speciesNames.count {
                    let label =
                        Array((s < 0 ? "bonafide," : "attack,").utf8) + (s < 0 ? [] : Self.escaped(speciesNames[s]))
                    pieces.add(
                        [UInt8(ascii: ",")] + name + Array(",\(split.rawValue),".utf8) + label + [UInt8(ascii: ",")])
                }
            }
            firstTail = pieces.add(
                notCalibrated
                    ? "ok,,\(DecisionsSchema.notCalibratedCode),the profile's calibration could not run\n" : "ok,1,,\n")
            for gate in profile.gates {
                for nan in [false, true] {
                    let code = ProfileEvaluator.code(of: gate, decision: Decision(failedGate: 0, valueWasNaN: nan))
                    pieces.add(
                        Array("ok,0,".utf8) + Self.escaped(code) + [UInt8(ascii: ",")] + Self.escaped(gate.message) + [
                            0x0A
                        ])
                }
            }
        }

        /// The piece after the id of a sample of this split and species (-1 = bona fide).
        @inline(__always)
        func middle(_ split: Split, _ species: Int32) -> Int {
            let row: Int
            switch split {
            case .train: row = 0
            case .dev: row = 1
            case .eval: row = 2
            case .none: row = 3
            }
            return row * classCount + Int(species) + 1
        }

        /// The piece that ends a processed sample's row with this decision (``DecisionCodes``:
        /// 0 accepted, then per gate plain and NaN, in the order the tails were made).
        @inline(__always)
        func tail(code: UInt16) -> Int {
            notCalibrated ? firstTail : firstTail + Int(code)
        }

        static func escaped(_ text: String) -> [UInt8] {
            var bytes: [UInt8] = []
            CSVFormat.appendField(text, to: &bytes)
            return bytes
        }
    }

    // MARK: scoring one split

    /// What one pass over a split counts: the decision counts the headline is computed from,
    /// the swept score's set, and rejections by species and first failing gate.
    struct SplitTally {
        var decisions: OperatingPoint.Counts
        var scores: ScoreSet
        /// Rejections, flattened: `(species + 1) * gates * 2 + gate * 2 + (valueWasNaN ? 1 : 0)`.
        var rejections: [Int]
        var gateCount: Int
        var failed = 0

        init(speciesNames: [String], gateCount: Int) {
            decisions = OperatingPoint.Counts(speciesNames: speciesNames)
            scores = ScoreSet(speciesNames: speciesNames)
            self.gateCount = gateCount
            rejections = [Int](repeating: 0, count: (speciesNames.count + 1) * max(1, gateCount) * 2)
        }

        var bonaFideCount: Int { decisions.bonaFide + decisions.bonaFideFailed }
        var attackCount: Int { decisions.attacks.reduce(0, +) + decisions.attacksFailed.reduce(0, +) }

        mutating func countFailure(species: Int32) {
            failed += 1
            if species < 0 { decisions.bonaFideFailed += 1 } else { decisions.attacksFailed[Int(species)] += 1 }
            scores.append(score: .nan, speciesIndex: species)
        }

        mutating func count(_ decision: Decision, species: Int32) {
            if species < 0 {
                decisions.bonaFide += 1
                if !decision.isAccepted { decisions.bonaFideRejected += 1 }
            } else {
                decisions.attacks[Int(species)] += 1
                if decision.isAccepted { decisions.attacksAccepted[Int(species)] += 1 }
            }
            if !decision.isAccepted {
                rejections[
                    (Int(species) + 1) * gateCount * 2 + decision.failedGate * 2 + (decision.valueWasNaN ? 1 : 0)] += 1
            }
        }
    }

    /// Rates of a profile on one split (`nil` = all samples). `curves` holds the curves already
    /// built for this profile (calibration), reused when the swept score's set is the same.
    func score(
        _ profile: Profile, _ compiled: CompiledProfile, split: Split?, curves: CurveCache? = nil,
        decided: DecisionCodes? = nil
    ) -> ProfileResult.SetResult {
        let decided = decided ?? DecisionCodes(table: table, compiled: compiled)
        let tally = self.tally(compiled, gateCount: profile.gates.count, split: split, decided: decided)
        var headline: OperatingPoint?, headlineError: String?
        if tally.decisions.processed == 0 {
            headlineError = "\(MetricsError.noScores)"
        } else {
            headline = OperatingPoint(threshold: 1, counts: tally.decisions)
        }
        if headline != nil && tally.bonaFideCount == 0 { headlineError = "no bona fide samples: BPCER is undefined" }
        if headline != nil && tally.attackCount == 0 { headlineError = "no attack samples: APCER is undefined" }
        var scoreMetrics: ProfileResult.ScoreMetrics?, scoreError: String?
        if let score = profile.score {
            if compiled.scoreColumn == nil {
                scoreError = "score \(score) was not measured in this run"
            } else {
                let swept = compiled.sweptOutput ?? score
                do { scoreMetrics = try Self.scoreMetrics(swept, tally.scores, curves: curves, eerRule: eerRule) } catch
                {
                    scoreError = "\(swept): \(error)"
                }
            }
        }
        return ProfileResult.SetResult(
            split: split?.rawValue ?? "all", headline: headline, headlineError: headlineError,
            scoreMetrics: scoreMetrics, scoreError: scoreError,
            rejectReasons: rejectReasons(profile, tally),
            bonaFideCount: tally.bonaFideCount, attackCount: tally.attackCount, failedCount: tally.failed,
            bonaFideFailedCount: tally.decisions.bonaFideFailed)
    }

    /// One pass over the split's samples: decide each, count, and collect the swept score.
    func tally(_ compiled: CompiledProfile, gateCount: Int, split: Split?, decided: DecisionCodes) -> SplitTally {
        var tally = SplitTally(speciesNames: table.speciesNames, gateCount: gateCount)
        let values = table.values, speciesIndex = table.speciesIndex, sweeps = compiled.scoreColumn != nil
        if sweeps { tally.scores.reserveCapacity(rowCount(split: split)) }
        // `.ok` by the status's code number (one load), not a SampleStatus built per row.
        let statuses = table.statuses
        statuses.withCodeNumbers { codes, ok in
            for i in 0..<table.count where split == nil || table.splits[i] == split {
                let species = speciesIndex[i]
                guard codes[i] == ok else {
                    tally.countFailure(species: species)
                    continue
                }
                tally.count(decided.decision(i)!, species: species)
                if sweeps {
                    if let score = compiled.sweptScore({ values[$0][i] }) {
                        tally.scores.append(score: score, speciesIndex: species)
                    } else {
                        tally.scores.appendRejectedAtEveryThreshold(speciesIndex: species)
                    }
                }
            }
        }
        return tally
    }

    /// One reject reason per class, species and code (two gates may share a code: their counts
    /// add up, the first gate's message is shown).
    struct ReasonGroup: Hashable { var species: Int32; var code: String }

    func rejectReasons(_ profile: Profile, _ tally: SplitTally) -> [ProfileResult.RejectReason] {
        var merged: [ReasonGroup: ProfileResult.RejectReason] = [:]
        for species in Int32(-1)..<Int32(table.speciesNames.count) {
            let processed = species < 0 ? tally.decisions.bonaFide : tally.decisions.attacks[Int(species)]
            for gate in profile.gates.indices {
                for nan in [false, true] {
                    let count = tally.rejections[(Int(species) + 1) * tally.gateCount * 2 + gate * 2 + (nan ? 1 : 0)]
                    guard count > 0 else { continue }
                    let code = Self.code(
                        of: profile.gates[gate], decision: Decision(failedGate: gate, valueWasNaN: nan))
                    let group = ReasonGroup(species: species, code: code)
                    merged[
                        group,
                        default: ProfileResult.RejectReason(
                            label: species < 0 ? "bonafide" : "attack",
                            species: species < 0 ? "" : table.speciesNames[Int(species)],
                            code: code, message: profile.gates[gate].message, count: 0, fraction: 0)
                    ].count += count
                    merged[group]!.fraction = Double(merged[group]!.count) / Double(max(1, processed))
                }
            }
        }
        return merged.values.sorted {
            ($0.label, $0.species, -$0.count, $0.code) < ($1.label, $1.species, -$1.count, $1.code)
        }
    }

    /// Curve, EER, targets, AUC, d' and the zero-error points of a swept score (both classes
    /// needed). Each is a read of the same curve (ten million points: a tenth of a second to half
    /// a second each), so they are computed on all cores; an error is the one the first failing step in this order throws (EER, BPCER@APCER
    /// targets, APCER@BPCER targets).
    static func scoreMetrics(_ score: String, _ set: ScoreSet, curves: CurveCache? = nil, eerRule: EERRule = .apcerMax)
        throws -> ProfileResult.ScoreMetrics
    {
        let curve = try curves?.curve(for: set) ?? ErrorCurve(set)
        let reads = CurveReads.all(speciesCount: curve.speciesNames.count)
        let results = Parallel.map(reads) { read in Result { try read.value(on: curve, eerRule: eerRule) } }
        func value(_ read: CurveReads) throws -> CurveReads.Value { try results[reads.firstIndex(of: read)!].get() }
        guard case .eer(let eer) = try value(.eer), case .targets(let bpcerTargets) = try value(.bpcerTargets),
            case .targets(let apcerTargets) = try value(.apcerTargets), case .targets(let best) = try value(.best),
            case .auc(let auc) = try value(.auc), case .optionalEER(let pooled) = try value(.pooled)
        else { preconditionFailure("each read gives its own kind of value") }
        var metrics = ProfileResult.ScoreMetrics(
            score: score, curve: curve, eer: eer, bpcerAtAPCER: bpcerTargets, apcerAtBPCER: apcerTargets, auc: auc)
        metrics.bestBPCERAtAPCER = best
        metrics.eerRule = eerRule
        metrics.speciesEERs = try curve.speciesNames.indices.map { s in
            guard case .optionalEER(let eer) = try value(.species(s)) else { preconditionFailure("species EER") }
            return eer
        }
        metrics.pooledEER = pooled
        if case .decidability(let d) = try value(.decidability) { metrics.decidability = d }
        if case .zeroErrors(let zero) = try value(.zeroErrors) { metrics.zeroErrorPoints = zero }
        metrics.sortedScores = curves?.sorted(for: set)
        return metrics
    }

    /// One read of a swept score's curve (``scoreMetrics(_:_:curves:eerRule:)``).
    enum CurveReads: Hashable, Sendable {
        case eer, bpcerTargets, apcerTargets, best, auc, pooled, decidability, zeroErrors
        case species(Int)

        enum Value: Sendable {
            case eer(EqualErrorRate)
            case optionalEER(EqualErrorRate?)
            case targets([ProfileResult.Target])
            case auc(Double)
            case decidability(DecidabilityIndex)
            case zeroErrors(ZeroErrorPoints?)
        }

        /// The slowest first (each species' EER sweeps every point), so two cores end together.
        static func all(speciesCount: Int) -> [CurveReads] {
            (0..<speciesCount).map { .species($0) } + [
                .eer, .pooled, .best, .bpcerTargets, .apcerTargets, .auc, .zeroErrors, .decidability,
            ]
        }

        func value(on curve: ErrorCurve, eerRule: EERRule) throws -> Value {
            switch self {
            case .eer: return .eer(try EqualErrorRate(curve, rule: eerRule))
            case .bpcerTargets:
                return .targets(
                    try ProfileResult.targets.map { x in
                        let choice = try ThresholdCriterion.bpcerAtAPCER(x).choose(on: curve)
                        return .init(
                            target: x, threshold: choice.threshold, rate: curve.bpcer(choice.point),
                            targetMet: choice.targetMet)
                    })
            case .apcerTargets:
                return .targets(
                    try ProfileResult.targets.map { x in
                        let choice = try ThresholdCriterion.apcerAtBPCER(x).choose(on: curve)
                        return .init(
                            target: x, threshold: choice.threshold, rate: curve.apcerMax(choice.point).value,
                            targetMet: choice.targetMet)
                    })
            case .best:
                return .targets(
                    ProfileResult.targets.map { x in
                        let choice = ThresholdSearch.lowestThreshold(curve, apcerMaxAtMost: x)
                        return .init(
                            target: x, threshold: choice.threshold, rate: curve.bpcer(choice.point),
                            targetMet: choice.targetMet)
                    })
            case .auc: return .auc(areaUnderROC(curve))
            // pyeer's d' and ZeroFMR / ZeroFNMR (get_eer_stats), each one pass over the curve's
            // sorted scores and counts: no second sort, and d' summed in score order, so a run
            // and the merge of its shards (samples in another order) give the same bits.
            case .decidability: return .decidability(DecidabilityIndex(curve))
            case .zeroErrors: return .zeroErrors(try? ZeroErrorPoints(curve))
            case .pooled: return .optionalEER(try? EqualErrorRate(pooled: curve))
            case .species(let s): return .optionalEER(try? EqualErrorRate(curve, species: s))
            }
        }
    }

    /// The gate's reject code; a gate that failed on a NaN value says the output was not assessable.
    static func code(of gate: Gate, decision: Decision) -> String {
        let base = gate.code.isEmpty ? gate.output : gate.code
        return decision.valueWasNaN ? base + " (not assessable)" : base
    }
}

/// The curves built while one profile is evaluated, each with its score set: a calibration on
/// the reported set (score files without a dev split) and the reported swept score sweep the same
/// set, and a calibration split scored again gives the same set, so each curve is sorted once.
/// With `keepsSorted`, each curve's sorted scores are kept beside it (``sorted(for:)``).
final class CurveCache {
    private var entries: [(set: ScoreSet, curve: ErrorCurve, sorted: SortedScores?)] = []
    let keepsSorted: Bool

    init(keepsSorted: Bool = false) { self.keepsSorted = keepsSorted }

    func curve(for set: ScoreSet) throws(MetricsError) -> ErrorCurve {
        if let hit = entries.first(where: { $0.set.isIdentical(to: set) }) { return hit.curve }
        let sorted = SortedScores(set)
        let curve = try ErrorCurve(sorted: sorted)
        entries.append((set, curve, keepsSorted ? sorted : nil))
        return curve
    }

    /// The sorted scores of a set whose curve was built here (nil unless `keepsSorted`).
    func sorted(for set: ScoreSet) -> SortedScores? {
        // Nothing is kept otherwise (bench): skip the search, which compares every score.
        guard keepsSorted else { return nil }
        return entries.first(where: { $0.set.isIdentical(to: set) })?.sorted
    }
}

/// A profile that cannot be evaluated on this data.
package struct EvaluationError: Error, Sendable, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

import PadArchive
import PadProfiles
import PadVocabulary

/// Presentation-level results beside frame-level ones: each profile decided again on its
/// presentation table (``PresentationTable``), so counts, APCER per species, BPCER, curves, EER,
/// intervals and reject reasons count presentations (ISO/IEC 30107-3 counts capture attempts,
/// not frames). Thresholds of calibrated gates are chosen again on the presentations of the
/// calibration split; a best shot or k-of-n frame is selected with the frame-level thresholds.
///
/// Example: `PresentationBobTests.presentationRatesEqualBobOnPerVideoMeans`
/// in `Tests/PadBenchTests/PresentationBobTests.swift` (compiled and run by `swift test`).
package struct PresentationLevel: Sendable {
    /// Per profile, in the order of the frame results: its presentation table and its result.
    package var tables: [MeasurementTable]
    package var results: [ProfileResult]
    package var aggregate: FrameAggregate

    /// The archive member with one decision per presentation and profile (`decisions.csv`'s
    /// columns), written beside `decisions.csv` (one row per frame).
    package static let decisionsMember = RunFile.presentationDecisions.name

    /// Every profile of `frameResults` decided per presentation; `decisions` (when given) gets
    /// `decisions.csv`'s columns with one row per presentation and profile.
    package static func evaluate(
        _ table: MeasurementTable, frameResults: [ProfileResult], aggregate: FrameAggregate,
        choosesOnReportedSetWithoutCalibrationSplit: Bool = false, decisions: CSVWriter? = nil
    ) throws -> PresentationLevel {
        let groups = PresentationGroups(table)
        let frameEvaluator = ProfileEvaluator(table: table)
        try decisions?.writeRow(DecisionsSchema.header)
        var level = PresentationLevel(tables: [], results: [], aggregate: aggregate)
        for frameResult in frameResults {
            let profile = frameResult.profile
            let thresholds = Dictionary(
                frameResult.calibrations.map { ($0.gate, $0.threshold) }, uniquingKeysWith: { a, _ in a })
            // A fused score is a column of the frame table, aggregated over frames like a measured
            // score (the frames' fused scores, with the weights trained on frames).
            let frames = try frameEvaluator.tableWithFusedScore(profile, frameResult.fusion)
            let compiled = profile.compiled(
                columns: ProfileEvaluator(table: frames).columnNames(for: profile), calibratedThresholds: thresholds)
            let presentations = PresentationTable.make(
                frames, groups: groups, profile: profile, compiled: compiled, aggregate: aggregate)
            let evaluator = ProfileEvaluator(
                table: presentations,
                choosesOnReportedSetWithoutCalibrationSplit: choosesOnReportedSetWithoutCalibrationSplit)
            var result = try evaluator.evaluate(profile, decisions: decisions)
            result.thresholdSign = frameResult.thresholdSign
            result.notes += frameResult.notes.filter { $0 == .attackHighScores }
            // The frames' fusion, unless deciding the presentations said already why there is none.
            if let fusion = profile.fusion, let outcome = frameResult.fusion, result.fusion == nil {
                result.fusion = outcome
                result.notes.insert(.fusion(fusion, outcome), at: 0)
            }
            result.notes.append(
                .presentations(
                    rule: profile.framesRule, aggregate: aggregate, outputs: profile.frameOutputs,
                    presentations: groups.count, frames: table.count))
            level.tables.append(presentations)
            level.results.append(result)
        }
        return level
    }
}

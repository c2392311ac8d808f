import PadProfiles
import PadVocabulary

extension ProfileEvaluator {
    /// A profile whose swept score is fused (``PadProfiles/FusedScore``) decided like any other on
    /// the table with its fused column added: the fusion is trained first (``FusionOutcome``), on
    /// its `on:` split, or, for score files without that split
    /// (``choosesOnReportedSetWithoutCalibrationSplit``), on the reported set with a check note; a
    /// dataset without the split gets no fusion and no rates, as an uncalibrated gate does. When the
    /// run did not measure every fused output, the fused score is unmeasured: its gates are left out
    /// and listed, as a gate on any output the run lacks (``PadProfiles/Profile/leftOutGates(measured:)``).
    func evaluateFused(_ profile: Profile, _ fusion: FusedScore, decisions target: DecisionsTarget) throws
        -> ProfileResult
    {
        let columns = columnNames(for: profile)
        if let missing = fusion.outputs.first(where: { !columns.contains($0) }) {
            let outcome = FusionOutcome(
                split: fusion.trainingSplit.rawValue, trained: nil,
                failure: "fused output \(missing) was not measured in this run")
            var result = try evaluateOnColumns(profile, decisions: target)
            result.fusion = outcome
            result.notes.insert(.fusion(fusion, outcome), at: 0)
            return result
        }
        let outcome: FusionOutcome
        var onReported = false
        if table.splits.contains(fusion.trainingSplit) {
            outcome = .train(fusion, table: table, columns: columns, split: fusion.trainingSplit)
        } else if choosesOnReportedSetWithoutCalibrationSplit {
            outcome = .train(fusion, table: table, columns: columns, split: reportSplit)
            onReported = true
        } else {
            let split = fusion.trainingSplit.rawValue
            outcome = FusionOutcome(split: split, trained: nil, failure: "no \(split) samples to train it on")
        }
        var derived = self
        derived.table = try tableWithFusedScore(profile, outcome)
        var result = try derived.evaluateOnColumns(profile, decisions: target)
        result.fusion = outcome
        result.notes.insert(.fusion(fusion, outcome), at: 0)
        if onReported && outcome.trained != nil {
            result.notes.append(.check(.fusedOnReportedSet(score: fusion.name, split: outcome.split)))
        }
        if let failure = outcome.failure {
            result.reported.headline = nil
            result.reported.headlineError = "not fused: \(failure)"
            result.calibrationSet?.headline = nil
            result.calibrationSet?.headlineError = "not fused: \(failure)"
        }
        return result
    }

    /// The table with the profile's fused score as a column, computed with `outcome`'s weights;
    /// the table itself when the profile has no fused score or the column is there already (a
    /// presentation table made from a fused frame table carries it).
    package func tableWithFusedScore(_ profile: Profile, _ outcome: FusionOutcome?) throws -> MeasurementTable {
        let columns = columnNames(for: profile)
        guard let fusion = profile.fusion, let outcome, !columns.contains(fusion.name),
            fusion.outputs.allSatisfy(columns.contains)
        else { return table }
        let key = ColumnKey(
            estimator: "fused", output: String(fusion.name.dropFirst(FusedScore.prefix.count)),
            variant: profile.variant)
        return table.addingColumn(key, values: try outcome.column(fusion, table: table, columns: columns))
    }
}

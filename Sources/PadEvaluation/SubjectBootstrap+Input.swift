import PadMetrics
import PadProfiles
import PadVocabulary

extension SubjectBootstrap.Input {
    /// The profile's decision and swept score of every processed sample of its reported split,
    /// with the thresholds the run chose (calibrated ones included); nil when the profile has no
    /// headline rates. `rows` keeps each entry's row in `table`. `split` chooses another split
    /// than the reported one (`all` = every sample).
    package init?(_ result: ProfileResult, table: MeasurementTable, split splitName: String? = nil) {
        guard result.reported.headline != nil else { return nil }
        // A fused score is derived again with the run's weights: the table holds measurements only.
        guard let table = try? ProfileEvaluator(table: table).tableWithFusedScore(result.profile, result.fusion)
        else { return nil }
        let columns = ProfileEvaluator(table: table).columnNames(for: result.profile)
        let thresholds = Dictionary(
            result.calibrations.map { ($0.gate, $0.threshold) }, uniquingKeysWith: { a, _ in a })
        let compiled = result.profile.compiled(columns: columns, calibratedThresholds: thresholds)
        let split = Split(rawValue: splitName ?? result.reported.split)
        self.init(
            species: [], subjects: [], accepted: [], scores: compiled.scoreColumn == nil ? nil : [],
            speciesNames: table.speciesNames)
        let values = table.values
        // The run's own decisions when the result was made on this table (one decision pass);
        // a stored run's result is decided here from its thresholds.
        let decided = result.decisions.flatMap { $0.count == table.count ? $0 : nil }
        // Counted first: exact capacities (a million samples would otherwise leave up to half of
        // each array unused).
        rows = (0..<table.count).filter { (split == nil || table.splits[$0] == split) && table.statuses[$0].isOK }
        species.reserveCapacity(rows.count)
        subjects.reserveCapacity(rows.count)
        accepted.reserveCapacity(rows.count)
        scores?.reserveCapacity(rows.count)
        for i in rows {
            species.append(table.speciesIndex[i])
            subjects.append(table.subject(i))
            accepted.append(decided?.accepted(i) ?? compiled.decide { values[$0][i] }.isAccepted)
            if scores != nil { scores!.append(compiled.sweptScore { values[$0][i] } ?? .nan) }
        }
    }
}

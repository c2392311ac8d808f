import PadEvaluation
import PadMetrics
import PadProfiles
import PadReport
import PadVocabulary

/// Statistics every run folder gets beside the profiles' rates, computed from the measurement
/// table on the reported split (`eval` when present, else all samples): which output separates
/// which attack (`outputs.csv`), and subject-clustered bootstrap intervals.
package enum RunStatistics {
    /// Processed samples of the reported split (32-bit sample numbers: 4 bytes each).
    static func reportedSamples(_ table: MeasurementTable) -> [Int32] {
        let onlyEval = table.splits.contains(.eval)
        // Status code numbers and splits read through buffers: no SampleStatus built and no
        // Equatable witness called per row (ten million rows).
        return table.statuses.withCodeNumbers { codes, ok in
            table.splits.withUnsafeBufferPointer { splits in
                func isEval(_ split: Split) -> Bool {
                    if case .eval = split { return true }
                    return false
                }
                func reported(_ i: Int) -> Bool { (!onlyEval || isEval(splits[i])) && codes[i] == ok }
                // Counted first: exact capacity, no growth by copying.
                var n = 0
                for i in 0..<table.count where reported(i) { n += 1 }
                var rows: [Int32] = []
                rows.reserveCapacity(n)
                for i in 0..<table.count where reported(i) { rows.append(Int32(i)) }
                return rows
            }
        }
    }

    /// `outputs.csv` rows: every output column of the run, each species against bona fide.
    /// One column at a time, and of it only the reported samples' values (a spilled column is
    /// read from disk block by block, never whole).
    /// A profile's reported scores sorted for its curve (``ProfileEvaluator/keepsSortedScores``)
    /// are reused for the column it swept when they are the same samples.
    package static func outputSeparation(_ table: MeasurementTable, results: [ProfileResult] = []) throws
        -> [OutputSeparation.Row]
    {
        let samples = reportedSamples(table)
        let species = samples.map { table.speciesIndex[Int($0)] }
        let speciesNames = table.speciesNames
        return try table.columns.indices.flatMap { c in
            OutputSeparation.rows(
                output: table.columns[c], values: try table.column(c, rows: samples), species: species,
                speciesNames: speciesNames, shared: sharedSort(of: table.columns[c], results: results, table: table))
        }
    }

    /// The sorted scores a profile swept on `column` when they are outputs.csv's samples: the
    /// profile reads the column under its own name (no options), reports the same split (eval when
    /// present, else all) and rejected no sample at every threshold, so its sorted classes are
    /// exactly the column's values of the split's processed samples (failed ones are NaN, left out
    /// of both). ``OutputSeparation/rows(output:values:species:speciesNames:shared:)`` checks the
    /// class counts again.
    static func sharedSort(of column: String, results: [ProfileResult], table: MeasurementTable)
        -> OutputSeparation.SharedSort?
    {
        let split = table.splits.contains(.eval) ? Split.eval.rawValue : "all"
        for result in results where result.profile.optionsKey.isEmpty && result.reported.split == split {
            guard let metrics = result.reported.scoreMetrics, metrics.score == column,
                let sorted = metrics.sortedScores, sorted.rejectsNoneAtEveryThreshold
            else { continue }
            return .init(
                sorted: sorted, curve: metrics.curve, speciesEERs: metrics.speciesEERs,
                eer: metrics.eerRule == .apcerMax ? metrics.eer : nil, auc: metrics.auc)
        }
        return nil
    }

    /// Adds subject-clustered bootstrap intervals to each profile's reported set when the table
    /// names subjects. Thresholds stay as the run chose them (calibrated ones included).
    package static func withSubjectIntervals(_ results: [ProfileResult], table: MeasurementTable) -> [ProfileResult] {
        guard table.hasSubjects else { return results }
        return results.map { result in
            var result = result
            if let input = bootstrapInput(result, table: table) {
                result.reported.subjectIntervals = SubjectBootstrap.intervals(input, targets: ProfileResult.targets)
            }
            return result
        }
    }

    /// The profile's decision and swept score of every processed sample of its reported split.
    static func bootstrapInput(_ result: ProfileResult, table: MeasurementTable) -> SubjectBootstrap.Input? {
        SubjectBootstrap.Input(result, table: table)
    }
}

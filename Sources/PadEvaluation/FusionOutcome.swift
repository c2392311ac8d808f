import PadArchive
import PadMetrics
import PadProfiles
import PadVocabulary

/// A profile's fused score as one run trained it (``PadProfiles/FusedScore``): the weights, or
/// why there are none. `results.json` records it per profile, so a reader sees the weights the
/// run's curves were swept with; re-deciding the same measurements trains the same weights.
///
/// Training (``train(_:table:columns:split:)``) takes the processed samples of the training
/// split: bona fide as the positive class, every attack species pooled as the negative one, a
/// sample with a NaN output left out (bob.fusion.base drops such rows), the z-normalisation and
/// weights of ``PadMetrics/TrainedFusion`` (mean, or scikit-learn's L2 logistic regression with
/// C = 1e6). The fused column (``column(_:table:columns:)``) holds every processed sample's fused
/// score and NaN for failed samples and samples with a NaN output: their swept score is not
/// assessable, as a measured score's NaN is.
package struct FusionOutcome: Sendable, Equatable, Codable {
    /// The split trained on (`dev`; the reported split for a score file without one; `all`).
    package var split: String
    package var trained: TrainedFusion?
    /// Why no fusion could be trained (the fused score is then NaN everywhere and the profile has
    /// no rates).
    package var failure: String?

    package init(split: String, trained: TrainedFusion?, failure: String? = nil) {
        self.split = split
        self.trained = trained
        self.failure = failure
    }

    /// The fusion trained on `split` (nil = every sample) of `table`, whose columns the profile
    /// reads by `columns` (``ProfileEvaluator/columnNames(for:)``).
    package static func train(_ fusion: FusedScore, table: MeasurementTable, columns: [String?], split: Split?)
        -> FusionOutcome
    {
        let splitName = split?.rawValue ?? "all"
        let outputs: [[Double]]
        do { outputs = try values(fusion, table: table, columns: columns) } catch {
            return FusionOutcome(split: splitName, trained: nil, failure: "\(error)")
        }
        let rows = (0..<table.count).filter { (split == nil || table.splits[$0] == split) && table.statuses[$0].isOK }
        guard !rows.isEmpty else {
            return FusionOutcome(split: splitName, trained: nil, failure: "no processed sample on \(splitName)")
        }
        do {
            let trained = try TrainedFusion.train(
                fusion.method, outputNames: fusion.outputs,
                outputs: outputs.map { column in rows.map { column[$0] } },
                isBonaFide: rows.map { table.speciesIndex[$0] < 0 })
            return FusionOutcome(split: splitName, trained: trained)
        } catch {
            return FusionOutcome(split: splitName, trained: nil, failure: "\(error) on \(splitName)")
        }
    }

    /// The fused score of every row of `table` (NaN for a failed sample, a NaN output, or when
    /// nothing was trained). Throws when a fused output is not among `columns`.
    package func column(_ fusion: FusedScore, table: MeasurementTable, columns: [String?]) throws -> [Double] {
        guard let trained else { return [Double](repeating: .nan, count: table.count) }
        let outputs = try Self.values(fusion, table: table, columns: columns)
        var sample = [Double](repeating: 0, count: outputs.count)
        return table.statuses.withCodeNumbers { codes, ok in
            (0..<table.count).map { i in
                guard codes[i] == ok else { return .nan }
                for j in outputs.indices { sample[j] = outputs[j][i] }
                return trained.fusedScore(sample)
            }
        }
    }

    /// The fused outputs' columns as the profile sees them.
    static func values(_ fusion: FusedScore, table: MeasurementTable, columns: [String?]) throws -> [[Double]] {
        try fusion.outputs.map { output in
            guard let c = columns.firstIndex(of: output) else {
                throw EvaluationError("fused output \(output) was not measured in this run")
            }
            return try table.column(c)
        }
    }

    /// The sentence the result's notes carry.
    package func note(_ fusion: FusedScore) -> String {
        let head =
            "fused score \(fusion.name): \(fusion.method.rawValue) fusion of \(fusion.outputs.joined(separator: ", "))"
        guard let trained else { return head + " not trained: \(failure ?? "no training samples")" }
        let weights = zip(trained.outputNames, trained.weights).map { "\($0) \(CSVFormat.number($1))" }
        let leftOut = trained.trainingFailed > 0 ? ", \(trained.trainingFailed) left out for a NaN output" : ""
        let counts = "\(trained.trainingBonaFide) bona fide, \(trained.trainingAttacks) attacks\(leftOut)"
        let intercept = CSVFormat.number(trained.intercept)
        return head + " trained on \(split) (\(counts)): weights on the z-normalised outputs "
            + weights.joined(separator: ", ") + ", intercept " + intercept
    }
}

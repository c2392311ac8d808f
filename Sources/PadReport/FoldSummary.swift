import Foundation
import PadArchive

/// Mean and standard deviation of each profile's rates over several runs, as OULU-NPU protocols 3
/// and 4 report their six folds (Boulkenafet et al., FG 2017).
///
/// ```swift
/// let folds = try FoldSummary(runs: paths.map { try StoredRun(path: $0) })
/// print(folds.table)
/// ```
/// The standard deviation is the sample one (n - 1 in the denominator). A profile must appear in
/// every run; rates missing from a run (no swept score) are left out of that metric's statistics
/// and the count of runs used is given per metric.
public struct FoldSummary: Sendable {
    public static let metrics = ["apcer_max", "apcer_pooled", "bpcer", "acer_nonconformant", "eer", "bpcer@apcer=0.01", "bpcer@apcer=0.05", "bpcer@apcer=0.1"]

    public let rows: [[String]]
    public static let header = ["profile", "metric", "folds", "mean", "std", "min", "max"]

    public init(runs: [StoredRun]) throws {
        guard runs.count >= 2 else { throw ComparisonError("give at least two fold runs") }
        let byRun = runs.map(\.rowsByKey)
        let profiles = byRun[0].keys.sorted()
        for (run, rows) in zip(runs, byRun) where Set(rows.keys) != Set(profiles) {
            throw ComparisonError("\(run.path): profiles \(rows.keys.sorted()) differ from \(profiles)")
        }
        var rows: [[String]] = []
        for profile in profiles {
            for metric in Self.metrics {
                let values = byRun.compactMap { $0[profile]?[metric].flatMap(Double.init) }.filter(\.isFinite)
                guard !values.isEmpty else { continue }
                let mean = values.reduce(0, +) / Double(values.count)
                let variance = values.count > 1 ? values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1) : .nan
                rows.append([profile, metric, String(values.count), CSVFormat.number(mean), CSVFormat.number(variance.squareRoot()),
                             CSVFormat.number(values.min()!), CSVFormat.number(values.max()!)])
            }
        }
        self.rows = rows
    }
}

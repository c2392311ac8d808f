import Foundation
import PadArchive

/// Mean and standard deviation of each profile's rates over several runs, as OULU-NPU protocols 3
/// and 4 report their six folds (Boulkenafet et al., FG 2017).
///
/// Example: `CompareTests.foldSummaryGivesMeanAndSampleStandardDeviation`
/// in `Tests/PadBenchTests/CompareTests.swift` (compiled and run by `swift test`).
/// The standard deviation is the sample one (n - 1 in the denominator). A profile must appear in
/// every run; rates missing from a run (no swept score) are left out of that metric's statistics
/// and the count of runs used is given per metric.
public struct FoldSummary: Sendable {
    public static let metrics = [
        "apcer_max", "apcer_pooled", "bpcer", "acer_nonconformant", "eer", "bpcer@apcer=0.01", "bpcer@apcer=0.05",
        "bpcer@apcer=0.1",
    ]

    public let rows: [[String]]
    public static let header = ["profile", "metric", "folds", "mean", "std", "min", "max"]

    public init(runs: [StoredRun]) throws {
        guard runs.count >= 2 else { throw ComparisonError("give at least two fold runs") }
        var seen: [String: String] = [:]
        for run in runs {
            try run.verify()
            let m = run.manifest
            let identity = "\(m.dataset.fingerprint) \(m.dataset.outputsFingerprint ?? "") \(m.times.started)"
            if let first = seen[identity] {
                throw ComparisonError("\(run.path) is the same run as \(first); give each fold once")
            }
            seen[identity] = run.path
        }
        let byRun = runs.map { run in
            Dictionary(run.summary.profiles.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        }
        let profiles = byRun[0].keys.sorted()
        for (run, rows) in zip(runs, byRun) where Set(rows.keys) != Set(profiles) {
            throw ComparisonError("\(run.path): profiles \(rows.keys.sorted()) differ from \(profiles)")
        }
        var rows: [[String]] = []
        for profile in profiles {
            for metric in Self.metrics {
                let values = byRun.compactMap { $0[profile].flatMap { Self.value(metric, of: $0.reported) } }.filter(
                    \.isFinite)
                guard !values.isEmpty else { continue }
                let mean = values.reduce(0, +) / Double(values.count)
                let squares = values.reduce(0.0) { $0 + ($1 - mean) * ($1 - mean) }
                let variance = values.count > 1 ? squares / Double(values.count - 1) : .nan
                rows.append([
                    profile, metric, String(values.count), CSVFormat.number(mean),
                    CSVFormat.number(variance.squareRoot()),
                    CSVFormat.number(values.min()!), CSVFormat.number(values.max()!),
                ])
            }
        }
        self.rows = rows
    }

    /// A metric of one fold, from the typed results.
    static func value(_ metric: String, of set: RunSummary.SetSummary) -> Double? {
        switch metric {
        case "apcer_max": return set.apcerMax?.value
        case "apcer_pooled": return set.apcerPooled?.value
        case "bpcer": return set.bpcer?.value
        case "acer_nonconformant":
            guard let a = set.apcerMax?.value, let b = set.bpcer?.value else { return nil }
            return (a + b) / 2
        case "eer": return set.eer
        default:
            let target = metric.hasPrefix("bpcer@apcer=") ? Double(metric.dropFirst("bpcer@apcer=".count)) : nil
            return set.bpcerAtAPCER.first { $0.target == target }?.rate
        }
    }
}

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
package struct FoldSummary: Sendable {
    package static let metrics = [
        "apcer_max", "apcer_pooled", "bpcer", "acer_nonconformant", "eer", "bpcer@apcer=0.01", "bpcer@apcer=0.05",
        "bpcer@apcer=0.1",
    ]

    /// `folds.csv`: fractions, one row per profile and metric.
    package let rows: [[String]]
    /// The same rows with each fold's value and, for a rate of counts (`apcer_max`,
    /// `apcer_pooled`, `bpcer`), its errors / N: what the terminal and folds.html print.
    package let statistics: [Statistic]
    package static let header = ["profile", "metric", "folds", "mean", "std", "min", "max"]

    /// One fold's value of a metric: errors and total when the metric is a rate of counts.
    package struct FoldValue: Sendable, Equatable {
        package var value: Double
        package var errors: Int?
        package var total: Int?

        /// `22.9% (16/70)`, or `22.9%` for a metric without counts (EER, ACER, BPCER@APCER).
        package var text: String {
            guard let errors, let total else { return RateText.percent(value) }
            return RateText.percentWithCount(errors: errors, total: total)
        }
    }

    /// A metric of one profile over the folds (``FoldValue``s in the order the runs were given).
    package struct Statistic: Sendable, Equatable {
        package var profile: String
        package var metric: String
        package var folds: [FoldValue]
        package var mean: Double
        /// Sample standard deviation (n - 1); NaN for one fold.
        package var std: Double
        /// The fold with the lowest value (the first of equals), and with the highest.
        package var min: FoldValue
        package var max: FoldValue

        /// For people: `profile, metric, folds, mean, std (percentage points), min, max`, rates as
        /// percent, min and max with their fold's counts.
        package var terminalRow: [String] {
            [
                profile, metric, String(folds.count), RateText.percent(mean),
                std.isNaN ? "n/a" : RateText.percent(std), min.text, max.text,
            ]
        }
    }

    /// The statistics over `summaries`, one per fold, in the order given. Every summary has the
    /// same profiles: `FoldSummary(runs:)` (PadRuns) checks that, verifies each run and refuses a
    /// run given twice before it calls this.
    package init(summaries: [RunSummary]) {
        let byRun = summaries.map { summary in
            Dictionary(summary.profiles.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        }
        let profiles = byRun.first?.keys.sorted() ?? []
        var statistics: [Statistic] = []
        for profile in profiles {
            for metric in Self.metrics {
                let values = byRun.compactMap { $0[profile].flatMap { Self.value(metric, of: $0.reported) } }.filter(
                    \.value.isFinite)
                guard let first = values.first else { continue }
                let mean = values.reduce(0) { $0 + $1.value } / Double(values.count)
                let squares = values.reduce(0.0) { $0 + ($1.value - mean) * ($1.value - mean) }
                let variance = values.count > 1 ? squares / Double(values.count - 1) : .nan
                statistics.append(
                    Statistic(
                        profile: profile, metric: metric, folds: values, mean: mean, std: variance.squareRoot(),
                        min: values.reduce(first) { $1.value < $0.value ? $1 : $0 },
                        max: values.reduce(first) { $1.value > $0.value ? $1 : $0 }))
            }
        }
        self.statistics = statistics
        self.rows = statistics.map { s in
            [
                s.profile, s.metric, String(s.folds.count), CSVFormat.number(s.mean), CSVFormat.number(s.std),
                CSVFormat.number(s.min.value), CSVFormat.number(s.max.value),
            ]
        }
    }

    /// A metric of one fold, from the typed results; rates of counts keep their counts.
    static func value(_ metric: String, of set: RunSummary.SetSummary) -> FoldValue? {
        func counted(_ rate: RunSummary.Rate?) -> FoldValue? {
            rate.map { FoldValue(value: $0.value, errors: $0.errors, total: $0.total) }
        }
        func plain(_ value: Double?) -> FoldValue? { value.map { FoldValue(value: $0) } }
        switch metric {
        case "apcer_max": return counted(set.apcerMax)
        case "apcer_pooled": return counted(set.apcerPooled)
        case "bpcer": return counted(set.bpcer)
        case "acer_nonconformant":
            guard let a = set.apcerMax?.value, let b = set.bpcer?.value else { return nil }
            return FoldValue(value: (a + b) / 2)
        case "eer": return plain(set.eer)
        default:
            let target = metric.hasPrefix("bpcer@apcer=") ? Double(metric.dropFirst("bpcer@apcer=".count)) : nil
            return plain(set.bpcerAtAPCER.first { $0.target == target }?.rate)
        }
    }
}

import Foundation
import PadReport
import PadRuns

/// ``FoldSummary``'s page as its doc comment shows it, built from stored runs (PadRuns'
/// `FoldSummary(runs:)`): compiled only (it needs stored runs and writes into the working
/// directory); `CompareTests` builds fold summaries from real runs.
enum PadRunsFoldsDocExample {
    static func write(runs: [StoredRun], paths: [String]) throws {
        try FoldSummary(runs: runs).html(runPaths: paths).write(toFile: "folds.html", atomically: true, encoding: .utf8)
    }
}

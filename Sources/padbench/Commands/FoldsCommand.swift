import ArgumentParser
import Foundation
import PadArchive
import PadReport
import PadRuns
import PadText

/// `padbench folds`: mean and standard deviation of rates over fold runs (OULU-NPU protocols 3, 4).
struct FoldsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "folds",
        abstract: "Mean and standard deviation of each profile's rates over several runs (e.g. OULU-NPU folds 1-6).")

    @Argument(help: "Run archives or folders, one per fold.") var runs: [String]
    @Option(help: "Write folds.csv and folds.html here.") var out: String?
    @Flag(help: "Print JSON (numbers as numbers) instead of a table.") var json = false

    struct Row: Encodable {
        var profile: String, metric: String, folds: Int
        var mean: Double?, std: Double?, min: Double?, max: Double?
        /// Each fold's value, with errors and total for a rate of counts.
        var values: [FoldValue]
    }

    struct FoldValue: Encodable {
        var value: Double
        var errors: Int?, total: Int?
    }

    func run() throws {
        // Each run is verified (exit 2 when it disagrees with itself) before its rates are summed.
        let summary = try CommandSupport.checkingStoredRuns("folds") {
            try FoldSummary(runs: runs.map { try StoredRun(path: $0) })
        }
        if json {
            let rows = summary.statistics.map { s in
                Row(
                    profile: s.profile, metric: s.metric, folds: s.folds.count, mean: s.mean,
                    std: s.std.isNaN ? nil : s.std, min: s.min.value, max: s.max.value,
                    values: s.folds.map { FoldValue(value: $0.value, errors: $0.errors, total: $0.total) })
            }
            let encoder = JSONCoding.encoder()
            print(String(decoding: try encoder.encode(rows), as: UTF8.self))
        } else {
            // Rates as percent for people (folds.csv keeps fractions): std in percentage points,
            // min and max with the counts of the fold they come from.
            print(TextTable(header: FoldSummary.header, rows: summary.statistics.map(\.terminalRow)).render())
        }
        if let out {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            try Data(CSVWriter.encode(header: FoldSummary.header, rows: summary.rows)).write(
                to: URL(fileURLWithPath: out + "/folds.csv"), options: .atomic)
            try CommandSupport.atRunTime {
                try summary.html(runPaths: runs).write(toFile: out + "/folds.html", atomically: true, encoding: .utf8)
            }
            print("wrote \(out)/folds.csv and \(out)/folds.html")
        }
    }
}

import ArgumentParser
import Foundation
import PadArchive
import PadReport
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
    }

    func run() throws {
        // Each run is verified (exit 2 when it disagrees with itself) before its rates are summed.
        let summary = try CommandSupport.checkingStoredRuns("folds") {
            try FoldSummary(runs: runs.map { try StoredRun(path: $0) })
        }
        if json {
            let rows = summary.rows.map { r in
                Row(
                    profile: r[0], metric: r[1], folds: Int(r[2]) ?? 0, mean: Double(r[3]), std: Double(r[4]),
                    min: Double(r[5]), max: Double(r[6]))
            }
            let encoder = JSONCoding.encoder()
            print(String(decoding: try encoder.encode(rows), as: UTF8.self))
        } else {
            // Rates as percent for people (folds.csv keeps fractions): std in percentage points.
            let rows = summary.rows.map { r in
                Array(r[0..<3]) + r[3...].map { Double($0).map { RateText.percent($0) } ?? $0 }
            }
            print(TextTable(header: FoldSummary.header, rows: rows).render())
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

import ArgumentParser
import Foundation
import PadReport
import PadRuns

/// `padbench folds`: mean and standard deviation of rates over fold runs (OULU-NPU protocols 3, 4).
struct FoldsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "folds",
        abstract: "Mean and standard deviation of each profile's rates over several runs (e.g. OULU-NPU folds 1-6).")

    @Argument(help: "Run archives or folders, one per fold.") var runs: [String]
    @Option(help: "Write folds.csv and folds.html here.") var out: String?
    @Flag(help: "Print JSON (numbers as numbers) instead of a table.") var json = false

    func run() throws {
        // Each run is verified (exit 2 when it disagrees with itself) before its rates are summed.
        let summary = try CommandSupport.checkingStoredRuns("folds") {
            try FoldSummary(runs: runs.map { try StoredRun(path: $0) })
        }
        if json {
            print(try summary.json())
        } else {
            print(summary.terminalTable.render())
        }
        if let out {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            try Data(summary.csv).write(to: URL(fileURLWithPath: out + "/folds.csv"), options: .atomic)
            try CommandSupport.atRunTime {
                try summary.html(runPaths: runs).write(toFile: out + "/folds.html", atomically: true, encoding: .utf8)
            }
            print("wrote \(out)/folds.csv and \(out)/folds.html")
        }
    }
}

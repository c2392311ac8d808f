import ArgumentParser
import Foundation
import PadArchive
import PadReport
import PadRuns
import PadVocabulary

/// `padbench table RUN... --out DIR`: several systems ranked on one page (`table.html`,
/// `table.csv`, `pairs.csv`) and on the terminal, with pairwise tests.
struct TableCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "table",
        abstract: "Rank several runs (or profiles) on one table, one DET and one ROC, with pairwise tests.",
        discussion: """
            One row per run and profile with a swept score (or per profile --profiles names), ranked by EER \
            (ties by BPCER at the first APCER target): EER and BPCER@APCER with the run's subject-bootstrap \
            interval, APCER per species, APCER_max and BPCER at the operating point with 95% Clopper-Pearson \
            intervals, AUC, and the p50 per-sample latency; for runs with vulnerability.csv (--comparisons), \
            the comparator's pooled IAPMR, the profile's IAPAR and system FNMR with their intervals and the \
            comparator threshold, as the run stored them ("-" for a run without comparisons). Each pair of \
            rows on the same samples (equal dataset fingerprints) is tested as compare tests it: exact McNemar \
            on the paired decisions for BPCER and each species' APCER, paired bootstrap of the EER \
            difference; pairs on different samples compare their 95% intervals. Every run is verified first \
            (exit 2 when one disagrees with itself). Writes DIR/table.html (the table, a DET and a ROC of every row, the tests), DIR/table.csv (one row per \
            system) and DIR/pairs.csv (one row per pair and metric).
            """
    )

    @Argument(help: "Run archives or folders.") var runs: [String]
    @Option(help: "Folder to write table.html, table.csv and pairs.csv into (created when missing).")
    var out: String
    @Option(help: "A run's label, once per run in order (default: the run folder's name).") var label: [String] = []
    @Option(help: "Profiles to rank, comma-separated (default: every profile with a swept score).")
    var profiles: String?

    static let files = ["table.html", "table.csv", "pairs.csv"]

    func validate() throws {
        guard label.isEmpty || label.count == runs.count else {
            throw ValidationError("--label given \(label.count) times for \(runs.count) runs: give one per run or none")
        }
        if let profiles, CompareCommand.names(profiles).isEmpty {
            throw ValidationError("--profiles names no profile: '\(profiles)'")
        }
    }

    /// One line and exit 64 before anything is read: padbench never writes onto an input (a run's
    /// archive, its folder, or a file of --out that is one of them).
    func refuseOutputsOntoInputs() throws {
        let inputs = runs.flatMap { path -> [String] in
            var paths = [path, path + "/" + RunFile.archive.name]
            if path.hasSuffix(RunFile.archive.name) {
                paths.append(URL(fileURLWithPath: path).deletingLastPathComponent().path)
            }
            return paths
        }
        let outputs = [out] + Self.files.map { out + "/" + $0 }
        for output in outputs {
            if let input = inputs.first(where: { CommandSupport.sameFile(output, $0) }) {
                FileHandle.standardError.write(
                    Data("padbench table: --out \(out) would write onto the input \(input); refusing\n".utf8))
                throw ExitCode(64)
            }
        }
    }

    func run() throws {
        try refuseOutputsOntoInputs()
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: out, isDirectory: &isFolder), !isFolder.boolValue {
            throw RuntimeFailure("--out \(out) is a file, not a folder")
        }
        let wanted = profiles.map(CompareCommand.names)
        let table = try CommandSupport.checkingStoredRuns("table") {
            let stored = try runs.enumerated().map { k, path in
                (label: label.isEmpty ? OverlayPlots.label(of: path) : label[k], run: try StoredRun(path: path))
            }
            do { return try SystemTable(runs: stored, profiles: wanted) } catch let error as SystemTable.UsageError {
                FileHandle.standardError.write(Data("padbench table: \(error)\n".utf8))
                throw ExitCode(64)
            }
        }
        try CommandSupport.atRunTime {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            try table.html().write(toFile: out + "/table.html", atomically: true, encoding: .utf8)
            for (name, csv) in [("table.csv", table.csv), ("pairs.csv", table.pairsCSV)] {
                try Data(CSVWriter.encode(header: csv.header, rows: csv.rows)).write(
                    to: URL(fileURLWithPath: out + "/" + name), options: .atomic)
            }
        }
        print(table.terminalText)
        print("\nwrote \(out)/table.html, \(out)/table.csv and \(out)/pairs.csv (\(table.rows.count) rows)")
    }
}

import ArgumentParser
import Foundation
import PadReport
import PadRuns

/// `padbench show ARCHIVE`: a run's results (from its typed `results.json`) on the terminal.
struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Print a run's results: rates per profile, per species, and timing.")

    @Argument(help: "results.tar.zst or its run folder.") var archive: String
    @Flag(help: "Print JSON: the manifest and the typed results (numbers as numbers).") var json = false

    func run() throws {
        // Verified first: an archive whose results.json disagrees with its decisions exits 2.
        let run = try CommandSupport.checkingStoredRuns("show") {
            let run = try StoredRun(path: archive)
            try run.verify()
            return run
        }
        if json {
            print(try RunText.json(manifest: run.manifest, summary: run.summary))
            return
        }
        for block in RunText.blocks(manifest: run.manifest, summary: run.summary, timing: run.timing) { print(block) }
    }
}

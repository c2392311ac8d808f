import ArgumentParser
import Foundation
import PadArchive
import PadReport
import PadRuns
import PadText

/// `padbench show ARCHIVE`: a run's results (from its typed `results.json`) on the terminal.
struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Print a run's results: rates per profile, per species, and timing.")

    @Argument(help: "results.tar.zst or its run folder.") var archive: String
    @Flag(help: "Print JSON: the manifest and the typed results (numbers as numbers).") var json = false

    struct Output: Encodable {
        var manifest: RunManifest
        var results: RunSummary
    }

    func run() throws {
        // Verified first: an archive whose results.json disagrees with its decisions exits 2.
        let run = try CommandSupport.checkingStoredRuns("show") {
            let run = try StoredRun(path: archive)
            try run.verify()
            return run
        }
        if json {
            let encoder = JSONCoding.encoder()
            print(
                String(
                    decoding: try encoder.encode(Output(manifest: run.manifest, results: run.summary)), as: UTF8.self))
            return
        }
        print(Self.heading(run.manifest))
        let (rows, species) = Self.rateRows(run.summary)
        print(
            TextTable(
                header: [
                    "profile", "split", "bf+att+failed", "APCER_max (n) [95% CI]", "species", "BPCER (n) [95% CI]",
                    "EER", "AUC", "",
                ], rows: rows
            ).render())
        if !species.isEmpty {
            print(
                "\nper species:\n"
                    + TextTable(header: ["profile", "split", "species", "APCER (n) [95% CI]"], rows: species).render())
        }
        if let timing = run.timing, !timing.records.isEmpty {
            print(
                "\ntiming:\n"
                    + TextTable(header: timing.header, rows: timing.records.map { $0.fields.map(Self.short) }).render())
        }
        for p in run.summary.profiles { for note in p.notes { print("note: \(p.name): \(note)") } }
    }

    /// What ran on what: kind, tool, dataset and its fingerprint, start time, and the counts.
    static func heading(_ m: RunManifest) -> String {
        "\(m.kind) run of \(m.tool.name) \(m.tool.version) on \(m.dataset.name) "
            + "(\(m.dataset.samples) samples, fingerprint \(m.dataset.fingerprint)), \(m.times.started)\n"
            + "counts: " + m.counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            + "\n"
    }

    /// One row per profile and set (reported, calibration) and one per species of each.
    static func rateRows(_ summary: RunSummary) -> (rows: [[String]], species: [[String]]) {
        func rate(_ r: RunSummary.Rate?) -> String {
            r.map {
                "\(RateText.percentWithCount(errors: $0.errors, total: $0.total)) "
                    + "\(RateText.percentInterval($0.ciLow, $0.ciHigh))"
            } ?? "n/a"
        }
        var rows: [[String]] = [], species: [[String]] = []
        for p in summary.profiles {
            for set in [p.reported] + (p.calibrationSet.map { [$0] } ?? []) {
                rows.append([
                    // Processed bona fide + processed attacks + failed: a partition of the split.
                    p.name, set.split,
                    "\(set.bonaFide - (set.bpnrr?.errors ?? 0))+\(set.attacks - (set.apnrr?.errors ?? 0))+\(set.failed)",
                    rate(set.apcerMax),
                    set.apcerMaxSpecies, rate(set.bpcer),
                    set.eer.map { RateText.percent($0) } ?? "-", set.auc.map { RateText.fixed($0, 4) } ?? "-",
                    p.isCaptureOnly
                        ? "capture check: reject rates, not a liveness decision"
                        : (p.isLivenessDecision ? "" : "not a liveness decision"),
                ])
                species += set.apcer.map { [p.name, set.split, $0.species, rate($0.apcer)] }
            }
        }
        return (rows, species)
    }

    /// Numbers to 4 decimals for reading; the CSVs keep full precision.
    static func short(_ text: String) -> String {
        guard let value = Double(text), text.contains(".") else { return text }
        return RateText.fixed(value, 4)
    }
}

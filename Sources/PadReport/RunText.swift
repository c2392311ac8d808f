import PadArchive
import PadText

/// What `padbench show` prints for a run (read and verified by PadRuns): what ran on what, one row
/// per profile and set with its rates and their intervals, APCER per species, the timing table
/// and the notes; or, with `--json`, the manifest and the typed results.
///
/// Example: `CaptureCheckCLITests.basicIsACaptureCheckEverywhere`
/// in `Tests/CLITests/CaptureCheckCLITests.swift` (compiled and run by `swift test`).
package enum RunText {
    /// `show --json`: the manifest and the typed results.
    struct Output: Encodable {
        var manifest: RunManifest
        var results: RunSummary
    }

    /// The manifest and the typed results as one JSON document (numbers as numbers, ``JSONCoding``).
    package static func json(manifest: RunManifest, summary: RunSummary) throws -> String {
        let encoder = JSONCoding.encoder()
        return String(decoding: try encoder.encode(Output(manifest: manifest, results: summary)), as: UTF8.self)
    }

    /// The terminal view, one block per line printed: the heading, the rates table, APCER per
    /// species (when a set has attacks), the timing table (when the run was timed), the notes.
    package static func blocks(manifest: RunManifest, summary: RunSummary, timing: CSVTable?) -> [String] {
        var blocks = [heading(manifest)]
        let (rows, species) = rateRows(summary)
        blocks.append(
            TextTable(
                header: [
                    "profile", "split", "bf+att+failed", "APCER_max (n) [95% CI]", "species", "BPCER (n) [95% CI]",
                    "EER", "AUC", "",
                ], rows: rows
            ).render())
        if !species.isEmpty {
            blocks.append(
                "\nper species:\n"
                    + TextTable(header: ["profile", "split", "species", "APCER (n) [95% CI]"], rows: species).render())
        }
        if let timing, !timing.records.isEmpty {
            blocks.append(
                "\ntiming:\n"
                    + TextTable(header: timing.header, rows: timing.records.map { $0.fields.map(Self.short) }).render())
        }
        for p in summary.profiles { for note in p.notes { blocks.append("note: \(p.name): \(note)") } }
        return blocks
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

import ArgumentParser
import Foundation
import PadArchive
import PadReport

/// `padbench show ARCHIVE`: a run's summary, per-species and timing tables on the terminal.
struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Print a run's summary, per-species and timing tables.")

    @Argument(help: "results.tar.zst or its run folder.") var archive: String
    @Flag(help: "Print JSON (manifest and tables).") var json = false

    func run() throws {
        let run: StoredRun
        do { run = try StoredRun(path: archive) } catch { throw ValidationError("\(error)") }
        let tables: [(String, CSVTable?)] = [("summary", run.summary), ("per_species", run.perSpecies), ("timing", run.timing)]
        if json {
            var object: [String: Any] = [:]
            let manifest = try JSONSerialization.jsonObject(with: Data(try run.manifest.encoded()))
            object["manifest"] = manifest
            for (name, table) in tables {
                guard let table else { continue }
                object[name] = table.records.map { Dictionary(uniqueKeysWithValues: zip(table.header, $0.fields)) }
            }
            print(String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]), as: UTF8.self))
            return
        }
        let m = run.manifest
        print("\(m.kind) run of \(m.tool.name) \(m.tool.version) on \(m.dataset.name) (\(m.dataset.samples) samples, fingerprint \(m.dataset.fingerprint)), \(m.times.started)")
        let counts = m.counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        print("counts: \(counts)\n")
        let wanted = ["profile", "set", "split", "n_bonafide", "n_attack", "n_failed", "apcer_max", "apcer_max_species", "apcer_max_ci_low",
                      "apcer_max_ci_high", "bpcer", "bpcer_ci_low", "bpcer_ci_high", "eer", "bpcer@apcer=0.01", "auc"]
        let columns = wanted.compactMap { run.summary.column($0).map { ($0, run.summary.header[$0]) } }
        print(TextTable(header: columns.map(\.1), rows: run.summary.records.map { r in columns.map { Self.short(r.fields[$0.0]) } }).render())
        for (name, table) in tables.dropFirst() {
            guard let table, !table.records.isEmpty else { continue }
            print("\n\(name):")
            print(TextTable(header: table.header, rows: table.records.map { $0.fields.map(Self.short) }).render())
        }
    }

    /// Numbers to 4 decimals for reading; the CSVs keep full precision.
    static func short(_ text: String) -> String {
        guard let value = Double(text), text.contains(".") else { return text }
        return RateText.fixed(value, 4)
    }
}

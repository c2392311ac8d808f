import Foundation
import PadArchive
import PadBench
import PadReport
import Testing

/// `metrics.csv` holds every number of `summary.csv` and `per_species.csv` (and of `frames/`), in
/// long form: the test reads the wide files and finds each of their cells in the long one.
@Suite struct MetricsTableTests {
    /// (profile, split, level, group_kind, group, metric, ci_method) -> the row.
    static func longRows(_ path: String) throws -> [String: [String: String]] {
        let table = try CSVTable(path: path)
        #expect(table.header == MetricsTable.header)
        var rows: [String: [String: String]] = [:]
        for record in table.records {
            let row = Dictionary(uniqueKeysWithValues: zip(table.header, record.fields))
            let key = ["profile", "split", "level", "group_kind", "group", "metric", "ci_method"].map { row[$0]! }
            #expect(rows[key.joined(separator: "|")] == nil, "duplicate key \(key)")
            rows[key.joined(separator: "|")] = row
        }
        return rows
    }

    static func wideRows(_ path: String) throws -> [[String: String]] {
        let table = try CSVTable(path: path)
        return table.records.map { Dictionary(uniqueKeysWithValues: zip(table.header, $0.fields)) }
    }

    /// summary.csv columns: metric -> (errors column, n column, interval prefix); rates without
    /// counts have none.
    static let summaryColumns: [(String, String?, String?, String?)] = [
        ("apcer_max", "apcer_max_errors", "apcer_max_n", "apcer_max_ci"),
        ("bpcer", "bpcer_errors", "bpcer_n", "bpcer_ci"), ("apcer_pooled", nil, nil, nil),
        ("acer_nonconformant", nil, nil, nil), ("bpnrr", nil, nil, nil), ("apnrr", nil, nil, nil),
        ("bpcer_system", nil, nil, nil), ("apcer_max_system", nil, nil, nil), ("eer", nil, nil, nil),
        ("eer_apcer_max", nil, nil, nil), ("eer_bpcer", nil, nil, nil), ("auc", nil, nil, nil),
        ("bpcer@apcer=0.05", nil, nil, nil), ("bpcer20", nil, nil, nil), ("apcer@bpcer=0.1", nil, nil, nil),
        ("eer_pooled", nil, nil, nil), ("hter_pooled", nil, nil, nil), ("d_prime", nil, nil, nil),
        ("bpcer@apcer=0", nil, nil, nil), ("bpcer@apcer=0_apcer_pooled", nil, nil, nil),
        ("apcer@bpcer=0", nil, nil, nil), ("apcer@bpcer=0_bpcer", nil, nil, nil),
    ]

    static func check(folder: String, level: String, long: [String: [String: String]]) throws -> Int {
        var checked = 0
        for wide in try wideRows(folder + "/summary.csv") {
            for (metric, errors, n, ci) in summaryColumns where !(wide[metric] ?? "").isEmpty {
                // apcer_max names its species in `group`; summary.csv does not name apcer_max_system's.
                let kind = metric.hasPrefix("apcer_max") ? "species" : ""
                let key = [wide["profile"]!, wide["split"]!, level, kind, metric]
                let rows = long.values.filter {
                    [$0["profile"], $0["split"], $0["level"], $0["group_kind"], $0["metric"]] == key
                        && $0["ci_method"] != MetricsTable.subjectBootstrap
                        && (metric != "apcer_max" || $0["group"] == wide["apcer_max_species"])
                }
                #expect(rows.count == 1, "\(key)")
                let row = try #require(rows.first, "\(key)")
                #expect(row["value"] == wide[metric], "\(key)")
                if let errors, let n, let ci {
                    #expect(row["errors"] == wide[errors] && row["n"] == wide[n], "\(key)")
                    #expect(row["ci_low"] == wide[ci + "_low"] && row["ci_high"] == wide[ci + "_high"], "\(key)")
                    #expect(row["ci_method"] == MetricsTable.clopperPearson)
                }
                checked += 1
            }
        }
        for wide in try wideRows(folder + "/per_species.csv") {
            let prefix = [wide["profile"]!, wide["split"]!, level, "species", wide["species"]!]
            let apcer = try #require(long[(prefix + ["apcer", MetricsTable.clopperPearson]).joined(separator: "|")])
            #expect(apcer["value"] == wide["apcer"] && apcer["n"] == wide["n"] && apcer["errors"] == wide["accepted"])
            #expect(apcer["ci_low"] == wide["apcer_ci_low"] && apcer["ci_high"] == wide["apcer_ci_high"])
            if let eer = wide["eer"], !eer.isEmpty {
                #expect(long[(prefix + ["eer", ""]).joined(separator: "|")]?["value"] == eer)
            }
            checked += 1
        }
        return checked
    }

    /// Per-frame score file of two species: headline rows per presentation, frames/ per frame.
    @Test func valuesEqualSummaryAndPerSpecies() throws {
        let outcome = try PresentationBobTests.run("frames_two_species.txt", threshold: 0.25)
        let long = try Self.longRows(outcome.folder + "/metrics.csv")
        let presentations = try Self.check(folder: outcome.folder, level: "presentation", long: long)
        let frames = try Self.check(folder: outcome.folder + "/frames", level: "frame", long: long)
        #expect(presentations >= 15 && frames >= 15, "\(presentations) \(frames)")
        #expect(long.values.contains { $0["level"] == "frame" && $0["metric"] == "apcer" })
        let archive = try ResultArchiveReader(path: outcome.folder + "/results.tar.zst")
        let written = Array(try Data(contentsOf: URL(fileURLWithPath: outcome.folder + "/metrics.csv")))
        #expect(try archive.entry(named: "metrics.csv") == written)
    }
}

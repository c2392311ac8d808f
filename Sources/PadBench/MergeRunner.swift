import Foundation
import PadArchive
import PadDataset
import PadEvaluation
import PadMetrics
import PadProfiles
import PadReport

/// `padbench merge`: shard archives (`bench --shard k/n`) combined into the report one run over
/// the whole dataset would give. Decisions are per sample, so concatenating the shards' stored
/// measurements and deciding again gives exactly the single-run rates, curves and calibrations;
/// timing statistics are recomputed from every sample's stored nanoseconds.
///
/// ```swift
/// let merged = try MergeRunner().merge(["s1/results.tar.zst", "s2/results.tar.zst"], outputFolder: "reports/all")
/// ```
/// Refused with a clear error: archives that are not bench runs, a missing or repeated shard, or
/// shards that differ in profiles, estimators (name, version, parameters) or conventions.
public struct MergeRunner: Sendable {
    public init() {}

    /// The shards as read from their archives: manifests, `samples.csv` bytes, profile texts.
    struct Shards {
        var paths: [String]
        var manifests: [RunManifest] = []
        var samplesFiles: [[UInt8]] = []
        var profileTexts: [String: String] = [:]
    }

    public func merge(
        _ paths: [String], outputFolder: String, force: Bool = false, commandLine: [String] = []
    ) throws -> RunOutcome {
        guard paths.count >= 1 else { throw EvaluationError("give the shard archives to merge") }
        let shards = try Self.read(paths)
        try Self.checkComplete(shards)
        let merged = try Self.mergedTable(shards)
        let csvs = try zip(paths, shards.samplesFiles).map { try CSVTable(bytes: $1, path: $0 + ":samples.csv") }
        let timing = Self.timing(shards, csvs: csvs)

        // Decide again, exactly as one run would.
        // The stored profiles, checked against the stored outputs (an external program's or an
        // import's names are valid here because the shards measured them).
        let first = shards.manifests[0]
        let parsed = try first.profiles.map { name in
            try ProfileLoader().load(yaml: shards.profileTexts[name]!, file: "profiles/\(name).yaml")
        }
        let profiles = try ProfileCheck.check(
            parsed, runOutputs: ProfileCheck.descriptors(forColumns: merged.columns), strict: false)
        // Written into the run's work folder, renamed into place when complete, removed on an error.
        let runFolder = try RunFolder(final: outputFolder, force: force, resume: false, resumable: false)
        let outputFolder = runFolder.work
        try Self.writeSamples(csvs, order: merged.ids, to: outputFolder + "/samples.csv")
        let decisions = try CSVWriter(path: outputFolder + "/decisions.csv")
        let results = try ProfileEvaluator(table: merged).evaluate(profiles, decisions: decisions)
        try decisions.close()
        let manifest = Self.manifest(shards, merged: merged, commandLine: commandLine)
        try RunFolderWriter(folder: outputFolder).write(
            manifest: manifest, table: merged, results: results, timing: timing,
            profiles: profiles, streamedFiles: ["samples.csv", "decisions.csv"])
        try runFolder.commit()
        return RunOutcome(
            folder: runFolder.final, archivePath: runFolder.archivePath, results: results, table: merged)
    }

    /// Reads each archive: a verified bench run, with profiles equal to other shards' of the same name.
    static func read(_ paths: [String]) throws -> Shards {
        var shards = Shards(paths: paths)
        for path in paths {
            let archive = try ResultArchiveReader(path: path)
            guard archive.contains("manifest.json"), archive.contains("samples.csv") else {
                throw EvaluationError("\(path): not a padbench bench archive")
            }
            _ = try StoredRun(path: path).verifiedSamples()
            let manifest = try RunManifest.decode(from: archive.entry(named: "manifest.json"))
            guard manifest.kind == "bench" else {
                throw EvaluationError("\(path): a \(manifest.kind) archive; merge takes bench shards")
            }
            shards.manifests.append(manifest)
            shards.samplesFiles.append(try archive.entry(named: "samples.csv"))
            for name in manifest.profiles {
                let text = String(decoding: try archive.entry(named: "profiles/\(name).yaml"), as: UTF8.self)
                if let seen = shards.profileTexts[name], seen != text {
                    throw EvaluationError("\(path): profile \(name) differs from another shard's")
                }
                shards.profileTexts[name] = text
            }
        }
        return shards
    }

    /// Shards must be complete (1/n ... n/n exactly once) and compatible with the first.
    static func checkComplete(_ shards: Shards) throws {
        let manifests = shards.manifests, first = manifests[0]
        let names = manifests.map(\.dataset.shard)
        let counts = Set(names.compactMap { $0.split(separator: "/").last.flatMap { Int($0) } })
        if names.contains("") {
            if shards.paths.count > 1 {
                throw EvaluationError("an archive without --shard cannot be merged with others")
            }
        } else {
            guard counts.count == 1, let n = counts.first, Set(names).count == names.count, names.count == n else {
                throw EvaluationError(
                    "shards \(names.sorted().joined(separator: ", ")) do not form a complete set 1/n ... n/n exactly once"
                )
            }
        }
        func estimators(_ m: RunManifest) -> [[String]] {
            m.estimators.map { [$0.name, $0.version, $0.parameters.sorted { $0.key < $1.key }.description] }
        }
        for (path, m) in zip(shards.paths, manifests).dropFirst() {
            guard m.profiles == first.profiles else {
                throw EvaluationError("\(path): profiles \(m.profiles) differ from \(first.profiles)")
            }
            guard estimators(m) == estimators(first) else {
                throw EvaluationError(
                    "\(path): estimators (names, versions or parameters) differ from the first shard's")
            }
            guard m.conventions == first.conventions else {
                throw EvaluationError("\(path): conventions differ from the first shard's")
            }
            guard m.dataset.wholeDatasetFingerprint == first.dataset.wholeDatasetFingerprint else {
                throw EvaluationError(
                    "\(path): a shard of another dataset (whole-dataset fingerprint \(m.dataset.wholeDatasetFingerprint ?? "none") vs \(first.dataset.wholeDatasetFingerprint ?? "none"))"
                )
            }
        }
    }

    /// The shards' measurements concatenated in id order; a sample in two shards is an error.
    static func mergedTable(_ shards: Shards) throws -> MeasurementTable {
        let tables = try zip(shards.paths, shards.samplesFiles).map {
            try MeasurementTable(samplesCSV: $1, path: $0 + ":samples.csv")
        }
        let columns = tables[0].columns
        for (path, table) in zip(shards.paths, tables) where table.columns != columns {
            throw EvaluationError("\(path): output columns differ from the first shard's")
        }
        var rows: [(table: Int, row: Int)] = []
        for (t, table) in tables.enumerated() { for i in 0..<table.count { rows.append((t, i)) } }
        rows.sort { tables[$0.table].ids[$0.row] < tables[$1.table].ids[$1.row] }
        var merged = MeasurementTable(columns: columns)
        merged.reserveCapacity(rows.count)
        for (t, i) in rows {
            let table = tables[t]
            merged.append(
                id: table.ids[i], label: table.labels[i], split: table.splits[i], status: table.statuses[i],
                values: table.values.map { $0[i] }, subject: table.subject(i))
        }
        for k in 1..<max(1, merged.count) where merged.ids[k] == merged.ids[k - 1] {
            throw EvaluationError("sample \(merged.ids[k]) appears in two shards")
        }
        return merged
    }

    /// Timing from every sample's stored nanoseconds; throughput over the slowest shard's wall time.
    static func timing(_ shards: Shards, csvs: [CSVTable]) -> [TimingStep] {
        let manifests = shards.manifests
        let wall = manifests.map(\.times.wallSeconds).max() ?? 0
        let steps = ["decode"] + manifests[0].estimators.map(\.name)
        var timing: [TimingStep] = []
        var total = TimingHistogram()
        var perSample: [String: UInt64] = [:]
        for step in steps {
            var histogram = TimingHistogram()
            for csv in csvs {
                guard let column = csv.column(step + "_ns") else { continue }
                let idColumn = csv.column("id") ?? 0
                for record in csv.records {
                    guard let ns = UInt64(record.fields[column]), ns > 0 || step == "decode" else { continue }
                    histogram.record(nanoseconds: ns)
                    perSample[record.fields[idColumn], default: 0] += ns
                }
            }
            let cold =
                manifests.map { m in m.estimators.first { $0.name == step }?.coldStartNanoseconds ?? 0 }.max() ?? 0
            timing.append((step, histogram.summary(wallSeconds: wall), cold))
        }
        for ns in perSample.values { total.record(nanoseconds: ns) }
        timing.append(("sample_total", total.summary(wallSeconds: wall), 0))
        return timing
    }

    /// The shards' `samples.csv` rows, unchanged, in the merged order.
    static func writeSamples(_ csvs: [CSVTable], order ids: [String], to path: String) throws {
        let samplesCSV = try CSVWriter(path: path)
        try samplesCSV.writeRow(csvs[0].header)
        var byID: [String: [String]] = [:]
        for csv in csvs {
            let id = csv.column("id") ?? 0; for record in csv.records { byID[record.fields[id]] = record.fields }
        }
        for id in ids { try samplesCSV.writeRow(byID[id]!) }
        try samplesCSV.close()
    }

    /// The first shard's manifest as one run over the whole dataset.
    static func manifest(_ shards: Shards, merged: MeasurementTable, commandLine: [String]) -> RunManifest {
        let manifests = shards.manifests
        var manifest = manifests[0]
        manifest.kind = "bench"
        manifest.tool = .init(version: ToolInfo.version, commandLine: commandLine)
        manifest.dataset.shard = ""
        manifest.dataset.samples = merged.count
        manifest.dataset.fingerprint = DatasetFingerprint.combine(manifests.map(\.dataset.fingerprint)) ?? "unknown"
        manifest.times = .init(
            started: manifests.map(\.times.started).min() ?? "", finished: manifests.map(\.times.finished).max() ?? "",
            wallSeconds: manifests.map(\.times.wallSeconds).max() ?? 0)
        manifest.counts = [
            "samples": merged.count, "ok": merged.count - merged.failedCount, "failed": merged.failedCount,
            "shards": shards.paths.count,
        ]
        return manifest
    }
}

import Foundation
import PadArchive
import PadEvaluation
import PadMetrics
import PadProfiles
import PadRuns
import PadText
import PadVocabulary

/// `padbench merge`: shard archives (`bench --shard k/n`) combined into the report one run over
/// the whole dataset would give. Decisions are per sample, so concatenating the shards' stored
/// measurements and deciding again gives exactly the single-run rates, curves and calibrations;
/// timing statistics are recomputed from every sample's stored nanoseconds.
///
/// ```swift
/// let merged = try MergeRunner().merge(["s1/results.tar.zst", "s2/results.tar.zst"], outputFolder: "reports/all")
/// ```
/// Refused with a clear error: archives that are not bench runs, a missing or repeated shard, or
/// shards that differ in profiles, estimators (name, version, parameters), conventions, attack
/// potential levels or face comparator (``checkComparators(_:)``; shards benched with one
/// `--comparisons` file give the merged run `comparisons.csv`, `vulnerability.csv` and
/// `epsc.csv`). `attackPotential` (`--attack-potential`) goes over the shards' levels.
package struct MergeRunner: Sendable {
    package init() {}

    /// The shards as read from their archives: manifests and profile texts (samples are read
    /// later, streaming).
    struct Shards {
        var paths: [String]
        var archives: [ResultArchiveReader] = []
        var manifests: [RunManifest] = []
        var profileTexts: [String: String] = [:]
    }

    package func merge(
        _ paths: [String], outputFolder: String, force: Bool = false, commandLine: [String] = [],
        attackPotential: [String: String]? = nil
    ) throws -> RunOutcome {
        guard paths.count >= 1 else { throw EvaluationError("give the shard archives to merge") }
        // Written into the run's work folder (the scratch copies too), renamed into place when
        // complete, removed on an error.
        let pipeline = try RunPipeline(final: outputFolder, force: force, inputs: paths)
        let shards = try Self.read(paths)
        try Self.checkComplete(shards)

        // Decide again, exactly as one run would.
        // The stored profiles, checked against the stored outputs (an external program's or an
        // import's names are valid here because the shards measured them).
        let first = shards.manifests[0]
        let parsed = try first.profiles.map { name in
            try ProfileLoader().load(yaml: shards.profileTexts[name]!, file: RunFile.profile(name))
        }
        let scratch = pipeline.folder.scratch
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        var rows = try Self.mergedRows(shards, profiles: parsed, scratch: scratch)
        let merged = rows.table
        let profiles = try ProfileCheck.check(
            parsed, runOutputs: ProfileCheck.descriptors(for: merged.keys), strict: false)
        try rows.writeSamples(header: rows.header, to: pipeline.folder.work + "/" + RunFile.samples.name)
        try RunLabels.write(try Self.mergedLabels(shards, table: merged), table: merged, folder: pipeline.folder.work)
        // The comparator scores with the shards' rule (the manifest's conventions): the analyses
        // compute vulnerability.csv and epsc.csv on the merged decisions.
        if let comparisons = try Self.sharedComparisons(shards) {
            try Data(comparisons).write(to: URL(fileURLWithPath: pipeline.folder.work + "/" + RunFile.comparisons.name))
        }
        let timing = Self.timing(shards, rows.timing)
        rows = MergedRows(table: merged) // the row locations are not needed any more
        let decided = try pipeline.decide(profiles, with: ProfileEvaluator(table: merged), samples: .written)
        var manifest = try Self.manifest(shards, merged: merged, commandLine: commandLine)
        // The shards' levels (alike, checkComplete) with `--attack-potential`'s over them.
        if let attackPotential {
            manifest.attackPotential = (manifest.attackPotential ?? [:]).merging(attackPotential) { _, given in given }
        }
        // The shards' times, not the merge's: the run is theirs.
        return try pipeline.finish(decided, table: merged, profiles: profiles, timing: timing, ownTimes: false) { _ in
            manifest
        }
    }

    /// Reads each archive: a bench run, with profiles equal to other shards' of the same name.
    /// Its samples are checked against its manifest when they are read (``mergedRows``).
    static func read(_ paths: [String]) throws -> Shards {
        var shards = Shards(paths: paths)
        for path in paths {
            let archive = try ResultArchiveReader(path: path)
            guard archive.contains(RunFile.manifest.name), archive.contains(RunFile.samples.name) else {
                throw EvaluationError("\(path): not a padbench bench archive")
            }
            _ = try StoredRun(path: path)
            let manifest = try RunManifest.decode(from: archive.jsonEntry(named: RunFile.manifest.name))
            guard manifest.kind == "bench" else {
                throw EvaluationError("\(path): a \(manifest.kind) archive; merge takes bench shards")
            }
            shards.archives.append(archive)
            shards.manifests.append(manifest)
            for name in manifest.profiles {
                let text = String(decoding: try archive.entry(named: RunFile.profile(name)), as: UTF8.self)
                if let seen = shards.profileTexts[name], seen != text {
                    throw EvaluationError("\(path): profile \(name) differs from another shard's")
                }
                shards.profileTexts[name] = text
            }
        }
        return shards
    }

    /// The conventions a shard's command chose. `counted_unit` and `frame_aggregate` are written
    /// only by a shard whose samples include presentations of several frames: shards split by
    /// presentation, so a shard of still images (or single frames) has neither, and that is no
    /// difference between the shards. Their aggregates are compared by ``frameAggregate(_:)``.
    static func chosenConventions(_ manifest: RunManifest) -> [String: String] {
        manifest.shardIndependentConventions
    }

    /// The frame aggregate of the shards that recorded one (nil when none did: still images
    /// throughout); refused when two shards aggregated differently.
    static func frameAggregate(_ shards: Shards) throws -> String? {
        let recorded = zip(shards.paths, shards.manifests).compactMap { path, m in
            m.frameAggregate.map { (path, $0.rawValue) }
        }
        if let other = recorded.first(where: { $0.1 != recorded[0].1 }) {
            throw EvaluationError(
                "\(other.0): frames aggregated by \(other.1), \(recorded[0].0) by \(recorded[0].1) (--aggregate)")
        }
        return recorded.first?.1
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
                    "shards \(names.sorted().joined(separator: ", ")) do "
                        + "not form a complete set 1/n ... n/n exactly once"
                )
            }
        }
        try checkComparators(shards)
        for (path, m) in zip(shards.paths, manifests).dropFirst() {
            guard m.profiles == first.profiles else {
                throw EvaluationError("\(path): profiles \(m.profiles) differ from \(first.profiles)")
            }
            if let difference = measuredDifferently(m, first) {
                throw EvaluationError(
                    "\(path): measured with other options than \(shards.paths[0]): \(difference)")
            }
            guard chosenConventions(m) == chosenConventions(first) else {
                throw EvaluationError("\(path): conventions differ from the first shard's")
            }
            if let difference = Self.levelDifference(m.attackPotential, first.attackPotential) {
                throw EvaluationError(
                    "\(path): attack potential levels differ from \(shards.paths[0])'s: \(difference)")
            }
            guard m.dataset.wholeDatasetFingerprint == first.dataset.wholeDatasetFingerprint else {
                throw EvaluationError(
                    "\(path): a shard of another dataset (whole-dataset fingerprint "
                        + "\(m.dataset.wholeDatasetFingerprint ?? "none") vs "
                        + "\(first.dataset.wholeDatasetFingerprint ?? "none"))"
                )
            }
        }
        _ = try frameAggregate(shards)
    }

    /// How two shards' attack potential levels (species -> level) differ: the first species, by
    /// name, with another level or with a level in one only (`none`); nil when alike.
    static func levelDifference(_ a: [String: String]?, _ b: [String: String]?) -> String? {
        let a = a ?? [:], b = b ?? [:]
        guard a != b else { return nil }
        let species = Set(a.keys).union(b.keys).sorted().first { a[$0] != b[$0] }!
        return "species '\(species)' is \(a[species].map { "'\($0)'" } ?? "none") here, "
            + "\(b[species].map { "'\($0)'" } ?? "none") there"
    }

    /// How two shards' measurements were made differently, by what their manifests record: the
    /// estimators (names, versions, every parameter: cascade files, external commands and
    /// timeouts, models) and the run's measurement options (`max_pixels`); nil when alike.
    static func measuredDifferently(_ m: RunManifest, _ first: RunManifest) -> String? {
        func text(_ value: String?) -> String { value.map { "'\(TextBytes.quote($0))'" } ?? "none" }
        let names = m.estimators.map(\.name), firstNames = first.estimators.map(\.name)
        guard names == firstNames else { return "estimators \(names) vs \(firstNames)" }
        for (e, f) in zip(m.estimators, first.estimators) {
            if e.version != f.version { return "\(e.name) version \(text(e.version)) vs \(text(f.version))" }
            if let difference = parameterDifference(e.parameters, f.parameters) { return "\(e.name) \(difference)" }
        }
        let options = m.measurementOptions ?? [:], firstOptions = first.measurementOptions ?? [:]
        for key in Set(options.keys).union(firstOptions.keys).sorted() where options[key] != firstOptions[key] {
            return "\(key) \(text(options[key])) vs \(text(firstOptions[key]))"
        }
        return nil
    }

    /// Suffixes of a parameter holding the content hash of the file its stem names (`cascade` and
    /// `cascade_fnv1a64`, `model` and `model_fnv1a64`; an ONNX `model` and `model_sha256`).
    static let contentHashSuffixes = ["_fnv1a64", "_sha256"]

    /// The first parameter two estimators of the same name differ in, or nil. A file is compared by
    /// content where both manifests record its hash (`<key>_fnv1a64`): the same cascade copied to
    /// another folder merges, another cascade written over the same path does not. Manifests
    /// without the hash (written before it was recorded) compare the path.
    static func parameterDifference(_ e: [String: String], _ f: [String: String]) -> String? {
        func text(_ value: String?) -> String { value.map { "'\(TextBytes.quote($0))'" } ?? "none" }
        let hashed = { (key: String) in
            contentHashSuffixes.contains { e[key + $0] != nil && f[key + $0] != nil }
        }
        for key in Set(e.keys).union(f.keys).sorted() where e[key] != f[key] {
            if let suffix = contentHashSuffixes.first(where: { key.hasSuffix($0) }) {
                let file = String(key.dropLast(suffix.count))
                guard e[key] != nil && f[key] != nil else { continue } // one manifest predates the hash
                let named = e[file] == f[file] ? text(e[file]) : "\(text(e[file])) vs \(text(f[file]))"
                let hash = suffix == "_sha256" ? "SHA-256" : "FNV-1a 64"
                return "\(file) \(named) has other content (\(hash) \(text(e[key])) vs \(text(f[key])))"
            }
            if hashed(key) { continue } // the file's path: compared by its content instead
            return "\(key) \(text(e[key])) vs \(text(f[key]))"
        }
        return nil
    }

    /// The shards' measurements concatenated in id order; a sample in two shards is an error.
    /// Each shard's `samples.csv` is read once as it decompresses, checked against its manifest,
    /// copied to `scratch` (its rows are written again in id order from there) and appended to
    /// one table that keeps in memory only what the profiles read; the timing is summed on the way.
    static func mergedRows(_ shards: Shards, profiles: [Profile], scratch: String) throws -> MergedRows {
        var rows = MergedRows()
        var steps: [String] = []
        var outputs: [Int] = []
        for (k, path) in shards.paths.enumerated() {
            let member = path + ":samples.csv"
            let copy = scratch + "/shard-\(k).csv"
            let sink = try FileSink(path: copy)
            var columns: SamplesSchema?
            var stepColumns: [Int?] = [], cpuColumns: [Int?] = []
            try StoredSamplesReader(archive: shards.archives[k], path: path, manifest: shards.manifests[k]).read(
                header: { found in
                    columns = found
                    outputs = try found.outputColumns(path: member)
                    let keys = try MeasurementTable.layout(
                        shards.manifests[k].columns, headers: found.outputNames, path: path)
                    if k == 0 {
                        rows.header = found.header
                        rows.table = try BenchRunner.table(keys: keys, profiles: profiles, scratch: scratch)
                        // Every shard's row count is in its manifest (checked at the end; bounded by the
                        // file's size meanwhile): no growth slack.
                        let total = zip(shards.manifests, shards.archives).reduce(0) {
                            $0 + min(max(0, $1.0.dataset.samples), ($1.1.size(of: RunFile.samples.name) ?? 0) / 8)
                        }
                        rows.table.reserveCapacity(total)
                        rows.offsets.reserveCapacity(total)
                        steps = ["decode"] + shards.manifests[0].estimators.map(\.name)
                        rows.timing = MergedTiming(steps: steps.count)
                    } else if keys != rows.table.keys {
                        throw EvaluationError("\(path): output columns differ from the first shard's")
                    }
                    stepColumns = steps.map { $0 == "decode" ? found.decode : found.column(.step($0)) }
                    cpuColumns = steps.map { found.column(.cpu($0)) }
                },
                row: { record in
                    try rows.table.appendStored(
                        record.fields, line: record.line, columns: columns!, outputs: outputs, path: member)
                    rows.offsets.append(record.offset)
                    rows.timing.record(record.fields, columns: stepColumns, cpuColumns: cpuColumns)
                },
                raw: { try sink.write($0) })
            try sink.close()
            rows.files.append(copy)
            rows.ends.append(rows.offsets.count)
        }
        try rows.sortByID()
        return rows
    }

    /// Timing from every sample's stored nanoseconds; throughput over the slowest shard's wall time.
    static func timing(_ shards: Shards, _ merged: MergedTiming) -> [TimingStep] {
        let manifests = shards.manifests
        let wall = manifests.map(\.times.wallSeconds).max() ?? 0
        let steps = ["decode"] + manifests[0].estimators.map(\.name)
        func cpu(_ histogram: TimingHistogram) -> TimingSummary? {
            histogram.count > 0 ? histogram.summary(wallSeconds: wall) : nil
        }
        var timing: [TimingStep] = []
        for (k, step) in steps.enumerated() {
            let cold =
                manifests.map { m in m.estimators.first { $0.name == step }?.coldStartNanoseconds ?? 0 }.max() ?? 0
            timing.append(
                TimingStep(
                    name: step, summary: merged.steps[k].summary(wallSeconds: wall), coldStartNanoseconds: cold,
                    cpu: cpu(merged.cpuSteps[k])))
        }
        timing.append(
            TimingStep(
                name: "sample_total", summary: merged.total.summary(wallSeconds: wall), cpu: cpu(merged.cpuTotal)))
        return timing
    }

    /// The first shard's manifest as one run over the whole dataset.
    static func manifest(_ shards: Shards, merged: MeasurementTable, commandLine: [String]) throws -> RunManifest {
        let manifests = shards.manifests
        var manifest = manifests[0]
        manifest.frameAggregate = try frameAggregate(shards).flatMap(FrameAggregate.init(rawValue:))
        manifest.kind = "bench"
        manifest.tool = .init(version: ToolInfo.version, commandLine: commandLine)
        manifest.dataset.shard = ""
        manifest.dataset.samples = merged.count
        manifest.dataset.fingerprint = DatasetFingerprint.combine(manifests.map(\.dataset.fingerprint)) ?? "unknown"
        let parts = manifests.compactMap(\.dataset.presentationsFingerprint)
        manifest.dataset.presentationsFingerprint = parts.isEmpty ? nil : DatasetFingerprint.combine(parts)
        manifest.times = .init(
            started: manifests.map(\.times.started).min() ?? "", finished: manifests.map(\.times.finished).max() ?? "",
            wallSeconds: manifests.map(\.times.wallSeconds).max() ?? 0)
        manifest.counts = RunPipeline.counts(merged).merging(["shards": shards.paths.count]) { a, _ in a }
        return manifest
    }
}

/// Timing histograms of merged shards, fed one stored row at a time: a step's nanoseconds count
/// when the column is there and the value is a number, above zero except for decode (a step
/// that did not run wrote 0); a sample's total is the sum of the counted steps. CPU times
/// (`cpu.<step>_ns`) likewise, for the steps whose wall time counted; their total only when
/// every step has a CPU column.
struct MergedTiming {
    var steps: [TimingHistogram]
    var total = TimingHistogram()
    var cpuSteps: [TimingHistogram]
    var cpuTotal = TimingHistogram()

    init(steps: Int = 0) {
        self.steps = Array(repeating: TimingHistogram(), count: steps)
        self.cpuSteps = Array(repeating: TimingHistogram(), count: steps)
    }

    mutating func record(_ fields: [String], columns: [Int?], cpuColumns: [Int?] = []) {
        var sum: UInt64 = 0, cpuSum: UInt64 = 0
        var counted = false
        let everyCPU = !cpuColumns.isEmpty && cpuColumns.allSatisfy { $0 != nil }
        for (k, column) in columns.enumerated() {
            guard let column, let ns = UInt64(fields[column]), ns > 0 || k == 0 else { continue }
            steps[k].record(nanoseconds: ns)
            sum += ns
            counted = true
            if k < cpuColumns.count, let c = cpuColumns[k], let cpu = UInt64(fields[c]) {
                cpuSteps[k].record(nanoseconds: cpu)
                cpuSum += cpu
            }
        }
        if counted { total.record(nanoseconds: sum) }
        if counted && everyCPU { cpuTotal.record(nanoseconds: cpuSum) }
    }
}

/// The merged table and where each of its rows is in the shards' `samples.csv` copies, so the
/// rows can be written again in id order without holding them.
struct MergedRows {
    var table = MeasurementTable(columns: [])
    var header: [String] = []
    var timing = MergedTiming()
    /// Copies of the shards' `samples.csv`, and the row count after each shard.
    var files: [String] = []
    var ends: [Int] = []
    /// Byte offset of each row in its shard's copy, in the order read; after ``sortByID()``, the
    /// read position of each merged row is `order[k]`.
    var offsets: [Int] = []
    var order: [Int] = []

    init() {}
    init(table: MeasurementTable) { self.table = table }

    /// Sorts the table by id (`String` order) and refuses a sample that is in two shards.
    mutating func sortByID() throws {
        let ids = table.ids
        order = Array(0..<table.count)
        order.sort { ids[$0] < ids[$1] }
        for k in 1..<max(1, order.count) where ids.equals(order[k], ids, order[k - 1]) {
            throw EvaluationError("sample \(ids[order[k]]) appears in two shards")
        }
        try table.reorder(order)
    }

    /// The shards' `samples.csv` rows, unchanged, in the merged order.
    func writeSamples(header: [String], to path: String) throws {
        let samplesCSV = try CSVWriter(path: path)
        try samplesCSV.writeRow(header)
        var readers: [RowFileReader] = []
        for file in files { readers.append(try RowFileReader(path: file)) }
        for g in order {
            let shard = ends.firstIndex { g < $0 }!
            let last = g + 1 == ends[shard]
            let bytes = try readers[shard].bytes(from: offsets[g], to: last ? nil : offsets[g + 1])
            let records: [CSVReader.Record]
            do { records = try CSVReader.parse(bytes) } catch {
                throw EvaluationError("\(files[shard]): a row read back is not CSV: \(error.message)")
            }
            try samplesCSV.writeRow(records[0].fields)
        }
        try samplesCSV.close()
    }
}

/// Reads byte ranges of a file through a 1 MiB window (rows asked for in file order are read
/// once, in large blocks).
final class RowFileReader {
    private let handle: FileHandle
    private let size: Int
    private var window: [UInt8] = []
    private var windowStart = 0

    init(path: String) throws {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw EvaluationError("\(path): cannot read back the copied rows")
        }
        self.handle = handle
        size = Int(try handle.seekToEnd())
    }

    deinit { try? handle.close() }

    /// Bytes `start..<end` (to the end of the file when `end` is nil).
    func bytes(from start: Int, to end: Int?) throws -> [UInt8] {
        let end = end ?? size
        if start < windowStart || end > windowStart + window.count {
            try handle.seek(toOffset: UInt64(start))
            window = [UInt8](try handle.read(upToCount: max(1 << 20, end - start)) ?? Data())
            windowStart = start
        }
        return Array(window[(start - windowStart)..<(end - windowStart)])
    }
}

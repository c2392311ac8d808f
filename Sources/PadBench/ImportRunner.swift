import Foundation
import PadArchive
import PadDataset
import PadEvaluation
import PadImport
import PadMetrics
import PadProfiles
import PadText
import PadVocabulary

/// `padbench import`: joins a vendor's exported results onto a dataset's samples and writes a run
/// folder and archive whose outputs are the vendor's numbers, so vendor-shaped profiles apply
/// exactly (and `eval --archive` can re-decide them later).
///
/// ```swift
/// let outcome = try ImportRunner().run(
///     format: .lunaOSL, dataset: loaded, inputs: ["osl.json"],
///     profiles: [lunaOSL], outputFolder: "reports/luna")
/// ```
/// Records join by sample id, file name, or file name without extension. A record that matches no
/// sample, or a file name that matches two samples, is an error before anything is written. A
/// sample without a record stays in every file as a failure (`missing_vendor_result`).
/// `attackPotential` (species -> level, `--attack-potential` over the dataset manifest's column)
/// adds APCER_AP per level to the reports, as in `bench`. `comparator` (a face comparator's scores,
/// `--comparisons`, and its threshold rule) adds the whole system's rates (`vulnerability.csv`,
/// `epsc.csv`), as `eval` and `bench` write them (``RunVulnerability``).
package struct ImportRunner: Sendable {
    package init() {}

    /// A face comparator's scores beside the import (`--comparisons`) and how its threshold is set.
    package struct Comparator: Sendable {
        package var path: String
        package var threshold: ComparatorThreshold
        package init(path: String, threshold: ComparatorThreshold = .fmr(EvalRunner.defaultComparatorFMR)) {
            self.path = path
            self.threshold = threshold
        }
    }

    /// A run's outcome and how many vendor results joined a sample.
    package struct Outcome: Sendable {
        package var run: RunOutcome
        package var matched: Int
        package var folder: String { run.folder }
        package var archivePath: String { run.archivePath }
        package var results: [ProfileResult] { run.results }
        package var table: MeasurementTable { run.table }
    }

    package func run(
        format: VendorFormat, noDecision: NoDecisionPolicy = .fta, dataset: LoadedDataset, inputs: [String],
        profiles: [Profile], outputFolder: String, force: Bool = false, commandLine: [String] = [],
        strict: Bool = false, attackPotential: [String: String]? = nil, comparator: Comparator? = nil
    ) throws -> Outcome {
        // Written into the run's work folder, renamed into place when complete, removed on an error.
        // The comparison file is an input: a --force onto the folder holding it is refused.
        let pipeline = try RunPipeline(
            final: outputFolder, force: force,
            inputs: inputs + Profile.files(profiles) + (comparator.map { [$0.path] } ?? []),
            datasetRoot: dataset.root)
        let records = try VendorImporter(format: format, noDecision: noDecision).read(inputs)
        if let comparator {
            try RunVulnerability.write(ComparisonScores.read(path: comparator.path), folder: pipeline.folder.work)
        }
        let byIndex = try Self.match(records, to: dataset)
        var columns = format.outputs
        if columns.isEmpty { columns = Array(Set(records.flatMap(\.values.keys))).sorted() }
        // Every output of the import (a long CSV's names are the user's) is what profiles may use.
        let profiles = try ProfileCheck.check(
            profiles, runOutputs: ProfileCheck.descriptors(for: columns.map(ColumnKey.init(header:))), strict: strict)
        let table = Self.table(dataset, columns: columns, byIndex: byIndex, format: format)
        try Self.writeSamplesCSV(dataset, table, to: pipeline.folder.work + "/" + RunFile.samples.name)
        try RunLabels.write(dataset.labels, table: table, folder: pipeline.folder.work)
        let decided = try pipeline.decide(profiles, with: ProfileEvaluator(table: table), samples: .written)
        let run = try pipeline.finish(decided, table: table, profiles: profiles) { times in
            var manifest = Self.manifest(
                format: format, noDecision: noDecision, dataset: dataset, inputs: inputs, columns: columns,
                profiles: profiles, commandLine: commandLine, times: times)
            manifest.counts = RunPipeline.counts(table).merging(["records": records.count]) { a, _ in a }
            // APCER_AP per level in summary.csv, per_species.csv and the report, as bench gives it.
            manifest.attackPotential = attackPotential
            manifest.comparatorThreshold = comparator?.threshold
            return manifest
        }
        return Outcome(run: run, matched: byIndex.count)
    }

    /// The manifest of an import: the vendor's files as one estimator whose outputs are the columns.
    static func manifest(
        format: VendorFormat, noDecision: NoDecisionPolicy, dataset: LoadedDataset, inputs: [String],
        columns: [String], profiles: [Profile], commandLine: [String], times: RunManifest.Times
    ) -> RunManifest {
        var conventions = Conventions.current
        conventions["import_format"] = format.rawValue
        if format == .idemiaStatus { conventions["idemia_no_decision"] = noDecision.rawValue }
        return RunManifest(
            kind: "import",
            tool: .init(version: ToolInfo.version, commandLine: commandLine),
            conventions: conventions,
            dataset: .init(
                name: dataset.name, path: dataset.root, layout: dataset.layout.rawValue,
                fingerprint: DatasetFingerprint.of(dataset.samples), samples: dataset.samples.count,
                presentationsFingerprint: DatasetFingerprint.presentations(dataset.samples)),
            estimators: [
                .init(
                    name: format.rawValue, version: "import", parameters: ["inputs": inputs.joined(separator: ",")],
                    outputs: columns.map {
                        OutputDescriptor(
                            name: $0, unit: "", minimum: -.infinity, maximum: .infinity, direction: .none, summary: "")
                    },
                    coldStartNanoseconds: 0)
            ],
            profiles: profiles.map(\.name), machine: .current(concurrency: 1), times: times, counts: [:])
    }

    /// Each record joined to its samples (by sample index): a record's key is a sample id, file
    /// name or file stem; or a presentation (a video's path as the dataset lists it, its file name
    /// or stem), whose result then applies to every frame of it, so the presentation is decided on
    /// the vendor's result as vendors decide (per capture attempt). A key naming several samples
    /// or presentations, nothing, or a sample already matched is an error naming the record.
    static func match(_ records: [VendorRecord], to dataset: LoadedDataset) throws -> [Int: VendorRecord] {
        // Index samples by id, file name and stem; video frames by id only (their file is their
        // video's), and their videos by presentation, file name and stem. Remember collisions.
        var index: [String: Int] = [:], ambiguous: [String: [Int]] = [:]
        var framesOf: [String: [Int]] = [:], presentationsNamed: [String: Set<String>] = [:]
        for (i, sample) in dataset.samples.enumerated() {
            let isFrame = sample.frameIndex != nil
            let name = ((isFrame ? sample.presentation : sample.path) as NSString).lastPathComponent
            let stem = (name as NSString).deletingPathExtension
            if isFrame {
                framesOf[sample.presentation, default: []].append(i)
                for key in Set([sample.presentation, name, stem]) {
                    presentationsNamed[key, default: []].insert(sample.presentation)
                }
            }
            for key in isFrame ? [sample.id] : Array(Set([sample.id, name, stem])) {
                if let other = index[key], other != i {
                    ambiguous[key, default: [other]].append(i)
                } else {
                    index[key] = i
                }
            }
        }
        var byIndex: [Int: VendorRecord] = [:]
        for record in records {
            if let clash = ambiguous[record.key] {
                throw VendorImportError(
                    "\(record.origin): '\(TextBytes.quote(record.key))' matches several samples "
                        + "(\(clash.map { dataset.samples[$0].id }.joined(separator: ", "))); use sample ids"
                )
            }
            let matched: [Int]
            if let i = index[record.key] {
                matched = [i]
            } else if let named = presentationsNamed[record.key] {
                guard named.count == 1, let presentation = named.first else {
                    throw VendorImportError(
                        "\(record.origin): '\(TextBytes.quote(record.key))' matches several presentations "
                            + "(\(named.sorted().joined(separator: ", "))); use their paths")
                }
                matched = framesOf[presentation] ?? []
            } else {
                throw VendorImportError(
                    "\(record.origin): '\(TextBytes.quote(record.key))' matches no sample or presentation of "
                        + "\(dataset.root)")
            }
            for i in matched {
                if let previous = byIndex[i] {
                    throw VendorImportError(
                        "\(record.origin): second result for \(dataset.samples[i].id) (first at \(previous.origin))")
                }
                byIndex[i] = record
            }
        }
        return byIndex
    }

    /// One row per dataset sample: its record's values, the record's failure, or
    /// `missing_vendor_result` when no record matched it.
    static func table(_ dataset: LoadedDataset, columns: [String], byIndex: [Int: VendorRecord], format: VendorFormat)
        -> MeasurementTable
    {
        var table = MeasurementTable(columns: columns)
        let presentations = dataset.samples.hasPresentations
        for (i, sample) in dataset.samples.enumerated() {
            let status: SampleStatus
            var row = [Double](repeating: .nan, count: columns.count)
            if let record = byIndex[i] {
                if let failure = record.failure {
                    status = .failed(code: failure.code, message: "\(failure.message) (\(record.origin))")
                } else {
                    status = .ok
                    for (c, name) in columns.enumerated() { row[c] = record.values[name] ?? .nan }
                }
            } else {
                status = .failed(code: .missingVendorResult, message: "no \(format.rawValue) result for this sample")
            }
            table.append(
                id: sample.id, label: sample.label, split: sample.split, status: status, values: row,
                subject: sample.subject)
            // Frames of a video are decided per presentation, as bench decides them.
            if presentations { table.setLastPresentation(sample.presentation, frameIndex: sample.frameIndex) }
        }
        return table
    }

    /// `samples.csv` as `bench` writes it (decode time 0, no estimator steps; the presentation
    /// columns when the dataset has videos or frame groups), so the run can be re-decided and merged.
    static func writeSamplesCSV(_ dataset: LoadedDataset, _ table: MeasurementTable, to path: String) throws {
        let samplesCSV = try CSVWriter(path: path)
        let schema = SamplesSchema.measured(
            outputs: table.columns, steps: [], presentations: dataset.samples.hasPresentations)
        try samplesCSV.writeRow(schema.header)
        var values = [Double](repeating: .nan, count: table.columns.count)
        for (i, sample) in dataset.samples.enumerated() {
            for c in values.indices { values[c] = table.values[c][i] }
            try samplesCSV.writeRow(schema.row(sample, status: table.statuses[i], values: values, decode: 0))
        }
        try samplesCSV.close()
    }
}

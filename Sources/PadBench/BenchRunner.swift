import Foundation
import PadArchive
import PadDataset
import PadEstimators
import PadImage
import PadMetrics
import PadProfiles
import PadReport

/// Runs `padbench bench`: measure every sample once (concurrently, streaming rows to
/// `samples.csv`), then decide and score every profile, write the CSV reports and pack
/// `results.tar.zst`.
///
/// ```swift
/// let outcome = try await BenchRunner().run(job)
/// print(outcome.folder, outcome.results.map(\.profile.name))
/// ```
public struct BenchRunner: Sendable {
    public var registry: EstimatorRegistry

    public init(registry: EstimatorRegistry = EstimatorCatalog.registry) { self.registry = registry }

    public struct Outcome: Sendable {
        public var folder: String
        public var archivePath: String
        public var results: [ProfileResult]
        public var table: MeasurementTable
        public var timing: [(name: String, summary: TimingSummary, coldStartNanoseconds: UInt64)]
        public var wallSeconds: Double
    }

    public func run(_ job: BenchJob) async throws -> Outcome {
        let started = Date()
        let startNanoseconds = MonotonicClock.nanoseconds()
        let samples = job.shard.map { shard in job.dataset.samples.filter(shard.contains) } ?? job.dataset.samples

        var options = job.estimatorOptions
        if job.profiles.contains(where: \.useDatasetFaceBox) { options.useDatasetFaceBox = true }
        let registry = options.externalCommands.isEmpty && options.padModelPath == nil ? self.registry : EstimatorCatalog.registry(with: options)
        let built = try registry.build(job.estimatorNames(registry: registry), options: options)
        let estimators = built.map(\.estimator)
        let measurer = SampleMeasurer(estimators: estimators, decoder: ImageDecoder(maxPixels: job.maxPixels))

        try FileManager.default.createDirectory(atPath: job.outputFolder, withIntermediateDirectories: true)
        let folder = job.outputFolder
        let samplesCSV = try CSVWriter(path: folder + "/samples.csv")
        let columns = measurer.columns
        try samplesCSV.writeRow(["id", "path", "label", "species", "split", "subject", "status", "error"] + columns
                                + ["decode_ns"] + estimators.map { "\($0.name)_ns" })

        var table = MeasurementTable(columns: columns)
        table.reserveCapacity(samples.count)
        var decodeTiming = TimingHistogram(), totalTiming = TimingHistogram()
        var estimatorTiming = Array(repeating: TimingHistogram(), count: estimators.count)
        var progress = ProgressReporter(total: samples.count, label: "measure", enabled: job.showProgress)
        let measureStart = MonotonicClock.nanoseconds()
        try await OrderedMeasurement(measurer: measurer, concurrency: job.concurrency).run(samples) { outcome in
            let sample = samples[outcome.index]
            var row = [sample.id, sample.path, sample.label.csvLabel, sample.label.species ?? "", sample.split.rawValue, sample.subject,
                       outcome.status.code, outcome.status.message]
            row.reserveCapacity(row.count + outcome.values.count + 1 + estimators.count)
            for value in outcome.values { row.append(CSVFormat.number(value)) }
            row.append(String(outcome.decodeNanoseconds))
            for ns in outcome.estimatorNanoseconds { row.append(String(ns)) }
            try samplesCSV.writeRow(row)
            table.append(id: sample.id, label: sample.label, split: sample.split, status: outcome.status, values: outcome.values,
                         subject: sample.subject)
            // Timing counts only steps that ran: a sample that failed to decode has no estimator time.
            decodeTiming.record(nanoseconds: outcome.decodeNanoseconds)
            var total = outcome.decodeNanoseconds
            for k in estimators.indices where outcome.estimatorNanoseconds[k] > 0 {
                estimatorTiming[k].record(nanoseconds: outcome.estimatorNanoseconds[k])
                total += outcome.estimatorNanoseconds[k]
            }
            totalTiming.record(nanoseconds: total)
            progress.advance(failed: !outcome.status.isOK)
        }
        progress.finish()
        try samplesCSV.close()
        let measureSeconds = Double(MonotonicClock.nanoseconds() - measureStart) / 1e9

        // Decide and score.
        let decisions = try CSVWriter(path: folder + "/decisions.csv")
        let results = try ProfileEvaluator(table: table).evaluate(job.profiles, decisions: decisions)
        try decisions.close()

        var timing: [(name: String, summary: TimingSummary, coldStartNanoseconds: UInt64)] = [
            ("decode", decodeTiming.summary(wallSeconds: measureSeconds), 0)
        ]
        for (k, estimator) in estimators.enumerated() {
            let cold = built[k].coldStart.components
            let coldNanoseconds = UInt64(cold.seconds) * 1_000_000_000 + UInt64(cold.attoseconds / 1_000_000_000)
            timing.append((estimator.name, estimatorTiming[k].summary(wallSeconds: measureSeconds), coldNanoseconds))
        }
        timing.append(("sample_total", totalTiming.summary(wallSeconds: measureSeconds), 0))

        let wallSeconds = Double(MonotonicClock.nanoseconds() - startNanoseconds) / 1e9
        let manifest = RunManifest(
            kind: "bench",
            tool: .init(version: ToolInfo.version, commandLine: job.commandLine),
            conventions: Conventions.current,
            dataset: .init(name: job.dataset.name, path: job.dataset.root, layout: job.dataset.layout.rawValue,
                           fingerprint: DatasetFingerprint.of(samples), samples: samples.count,
                           shard: job.shard?.description ?? "",
                           wholeDatasetFingerprint: job.shard == nil ? nil : DatasetFingerprint.of(job.dataset.samples)),
            estimators: built.map { b in
                let cold = b.coldStart.components
                return RunManifest.Estimator(
                    name: b.estimator.name, version: b.estimator.version, parameters: b.estimator.parameters,
                    outputs: b.estimator.outputs.map {
                        .init(name: "\(b.estimator.name).\($0.name)", unit: $0.unit, minimum: $0.minimum.isFinite ? $0.minimum : nil,
                              maximum: $0.maximum.isFinite ? $0.maximum : nil, direction: $0.direction.rawValue)
                    },
                    coldStartNanoseconds: UInt64(cold.seconds) * 1_000_000_000 + UInt64(cold.attoseconds / 1_000_000_000))
            },
            profiles: job.profiles.map(\.name),
            machine: .current(concurrency: job.concurrency),
            times: .init(started: ISO8601DateFormatter().string(from: started), finished: ISO8601DateFormatter().string(from: Date()),
                         wallSeconds: wallSeconds),
            counts: ["samples": table.count, "ok": table.count - table.failedCount, "failed": table.failedCount])
        let archivePath = try RunFolderWriter(folder: folder).write(manifest: manifest, table: table, results: results, timing: timing,
                                                                    profiles: job.profiles,
                                                                    streamedFiles: ["samples.csv", "decisions.csv"])
        return Outcome(folder: folder, archivePath: archivePath, results: results, table: table, timing: timing, wallSeconds: wallSeconds)
    }
}


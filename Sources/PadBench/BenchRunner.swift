import Foundation
import PadArchive
import PadSamples
import PadEstimators
import PadEvaluation
import PadImage
import PadMetrics
import PadProfiles
import PadText
import PadVideo
import PadVocabulary

/// Runs `padbench bench`: measure every sample once (concurrently, streaming rows to
/// `samples.csv`), then decide and score every profile, write the CSV reports and pack
/// `results.tar.zst`.
///
/// ```swift
/// let outcome = try await BenchRunner().run(job)
/// print(outcome.folder, outcome.results.map(\.profile.name))
/// ```
package struct BenchRunner: Sendable {
    package var registry: EstimatorRegistry

    package init(registry: EstimatorRegistry = EstimatorCatalog.registry) { self.registry = registry }

    package struct Outcome: Sendable {
        package var folder: String
        package var archivePath: String
        package var results: [ProfileResult]
        package var table: MeasurementTable
        package var timing: [TimingStep]
        package var wallSeconds: Double
        /// True when the run was interrupted: `folder` is then the partial folder, nothing was
        /// decided, and `bench --resume` continues it.
        package var interrupted = false
        /// Samples taken over from an interrupted run (resume), not measured again.
        package var resumedSamples = 0
        /// Seconds this session spent measuring (decode and estimators of the samples it measured,
        /// not taking over the journal, deciding or writing): the rate of a resumed run is over these.
        package var measureSeconds = 0.0
    }

    /// Timing histograms of a run's steps, fed one sample's nanoseconds at a time: wall clock for
    /// every step, the measuring thread's CPU clock for decode and each estimator in `cpuTimed`.
    struct StepTiming {
        var decode = TimingHistogram(), total = TimingHistogram()
        var steps: [TimingHistogram]
        var cpuDecode = TimingHistogram(), cpuTotal = TimingHistogram()
        /// Per estimator; only those in `cpuTimed` are fed.
        var cpuSteps: [TimingHistogram]
        let cpuTimed: [Int]
        /// Per presentation code: decode plus estimators summed over its frames (datasets with
        /// presentations; a capture attempt's latency, as the seed SDKs report it).
        var presentations: [Int32: UInt64] = [:]
        init(steps: Int, cpuTimed: [Int]) {
            self.steps = Array(repeating: TimingHistogram(), count: steps)
            self.cpuSteps = Array(repeating: TimingHistogram(), count: steps)
            self.cpuTimed = cpuTimed
        }

        /// Only steps that ran count: a sample that failed to decode has no estimator time. `cpu`
        /// is decode's then each of `cpuTimed`'s (empty: a journal without CPU columns).
        mutating func record(decode: UInt64, steps nanoseconds: [UInt64], cpu: [UInt64], presentation: Int32? = nil) {
            self.decode.record(nanoseconds: decode)
            var sum = decode
            for k in steps.indices where nanoseconds[k] > 0 {
                steps[k].record(nanoseconds: nanoseconds[k])
                sum += nanoseconds[k]
            }
            total.record(nanoseconds: sum)
            if let presentation { presentations[presentation, default: 0] += sum }
            guard cpu.count == cpuTimed.count + 1 else { return }
            cpuDecode.record(nanoseconds: cpu[0])
            var cpuSum = cpu[0]
            for (j, k) in cpuTimed.enumerated() where nanoseconds[k] > 0 {
                cpuSteps[k].record(nanoseconds: cpu[j + 1])
                cpuSum += cpu[j + 1]
            }
            // The total's CPU is a sample's only when every step's is.
            if cpuTimed.count == steps.count { cpuTotal.record(nanoseconds: cpuSum) }
        }
    }

    /// What a run measures, built and checked before anything is written: the samples (the
    /// shard's), the estimators, the measurer and the journal's schema.
    struct Prepared {
        var samples: SampleList
        var built: [EstimatorRegistry.Built]
        var measurer: SampleMeasurer
        var schema: SamplesSchema
    }

    func prepare(_ job: BenchJob) throws -> Prepared {
        let samples =
            job.shard.map { shard in job.dataset.samples.subset(where: shard.contains) } ?? job.dataset.samples
        let (chains, built) = try measurementChains(job)
        // The run's outputs are known now (external programs have answered `describe`): check the
        // profiles against them before anything is measured or written.
        var declared: [String: OutputDescriptor] = [:]
        for b in built { for output in b.estimator.outputs { declared["\(b.estimator.name).\(output.name)"] = output } }
        _ = try ProfileCheck.check(job.profiles, runOutputs: declared, strict: job.strict)
        let measurer = Self.measurer(job, chains: chains)
        // The whole dataset's, not the shard's: every shard of a dataset writes the same columns,
        // so shards of still images and shards of video frames merge into one samples.csv.
        let schema = Self.samplesSchema(measurer, presentations: job.dataset.samples.hasPresentations)
        return Prepared(samples: samples, built: built, measurer: measurer, schema: schema)
    }

    package func run(_ job: BenchJob) async throws -> Outcome {
        let started = Date()
        let startNanoseconds = MonotonicClock.nanoseconds()
        let prepared = try prepare(job)
        let (samples, built, measurer, schema) = (prepared.samples, prepared.built, prepared.measurer, prepared.schema)
        let pipeline = try RunPipeline(
            final: job.outputFolder, force: job.force, resume: job.resume, resumable: true, inputs: job.inputs,
            datasetRoot: job.dataset.root, started: started, startNanoseconds: startNanoseconds)
        let folder = pipeline.folder.work, final = pipeline.folder.final, resuming = pipeline.folder.resuming
        let archivePath = pipeline.folder.archivePath, scratch = pipeline.folder.scratch
        do {
            // What a resume continues from; a resume keeps the file it read (job.json or an older
            // partial's command.json).
            if !resuming {
                try job.resumeState.encoded().write(to: URL(fileURLWithPath: folder + "/" + RunFolder.resumableMarker))
            }
            var table = try Self.table(
                keys: measurer.keys, profiles: job.profiles, samples: samples, scratch: scratch)
            table.reserveCapacity(samples.count)
            var timing = StepTiming(steps: measurer.estimators.count, cpuTimed: measurer.cpuTimed)
            let resumed =
                resuming
                ? try JournalTakeover.takeOver(
                    folder + "/" + RunFile.samples.name, schema: schema, samples: samples,
                    into: &table, timing: &timing) : 0
            let measureStart = MonotonicClock.nanoseconds()
            let probe = SpeedProbe()
            try await Self.measure(
                samples, from: resumed, measurer: measurer, job: job, schema: schema,
                journal: folder + "/" + RunFile.samples.name,
                into: &table, timing: &timing, probe: probe)
            let measureSeconds = Double(MonotonicClock.nanoseconds() - measureStart) / 1e9
            FreeMemory.releaseAfterPhase()
            if table.count < samples.count {
                pipeline.suspend()
                return Outcome(
                    folder: folder, archivePath: "", results: [], table: table, timing: [],
                    wallSeconds: Double(MonotonicClock.nanoseconds() - startNanoseconds) / 1e9, interrupted: true,
                    resumedSamples: resumed)
            }

            let steps =
                Self.timingSteps(timing, measurer: measurer, built: built, seconds: measureSeconds)
                + (probe.step(wallSeconds: measureSeconds).map { [$0] } ?? [])
            let (results, wallSeconds) = try Self.decideAndWrite(job, table: table, in: pipeline, steps: steps) {
                Self.manifest(
                    job, samples: samples, measurer: measurer, built: built, table: table, times: $0, resumed: resumed)
            }
            return Outcome(
                folder: final, archivePath: archivePath, results: results, table: table,
                timing: steps, wallSeconds: wallSeconds, resumedSamples: resumed, measureSeconds: measureSeconds)
        } catch {
            // The pipeline, dropped unfinished, keeps the work folder and releases the lock.
            throw Self.keepingJournal(work: folder, final: final, resuming: resuming, after: error)
        }
    }

    /// The run's measurer: images and video frames under the job's pixel limit, videos under the
    /// frame and duration limits the dataset was listed with.
    static func measurer(_ job: BenchJob, chains: [SampleMeasurer.Chain]) -> SampleMeasurer {
        var videoLimits = job.dataset.videoOptions.limits
        videoLimits.maxPixels = job.maxPixels
        return SampleMeasurer(
            chains: chains, decoder: ImageDecoder(maxPixels: job.maxPixels, maxFileBytes: job.maxImageBytes),
            video: VideoDecoder(limits: videoLimits))
    }

    /// The columns of `samples.csv`, the journal: every output and every step's time.
    static func samplesSchema(_ measurer: SampleMeasurer, presentations: Bool) -> SamplesSchema {
        .measured(
            outputs: measurer.columns, steps: measurer.stepNames, presentations: presentations,
            cpuSteps: measurer.cpuStepNames)
    }

    /// A bench's work folder is its journal: on every failure (a full disk, a dataset edited
    /// since, a torn journal, Ctrl-C) it stays for `bench --resume`, and the error says so.
    static func keepingJournal(work: String, final: String, resuming: Bool, after error: Error) -> Error {
        let journal = work + "/" + RunFile.samples.name
        guard FileManager.default.fileExists(atPath: journal) else { return error }
        let continued = resuming ? "" : "; continue with `padbench bench --resume \(final)`"
        // RunFolder.describe: a Foundation file error is `path: reason`, never its raw dump.
        return EvaluationError("\(RunFolder.describe(error)); the measured samples are kept in \(journal)\(continued)")
    }

    /// The measured run decided and written: `decisions.csv`, the reports, the manifest (made by
    /// `manifest` from the run's times) and the archive, then the work folder renamed into place.
    static func decideAndWrite(
        _ job: BenchJob, table: MeasurementTable, in pipeline: consuming RunPipeline, steps: [TimingStep],
        manifest: (RunManifest.Times) -> RunManifest
    ) throws -> (results: [ProfileResult], wallSeconds: Double) {
        try RunLabels.write(job.dataset.labels, table: table, folder: pipeline.folder.work)
        if let path = job.comparisons {
            try RunVulnerability.write(ComparisonScores.read(path: path), folder: pipeline.folder.work)
        }
        var decided = try pipeline.decide(job.profiles, with: ProfileEvaluator(table: table), samples: .written)
        decided.results = Self.flagCalibrationOnTrainingData(
            decided.results, samples: job.dataset.samples, estimators: manifest(pipeline.times()).estimators)
        let run = try pipeline.finish(decided, table: table, profiles: job.profiles, timing: steps, manifest: manifest)
        return (run.results, run.wallSeconds)
    }

    /// A sanity warning on each calibration made on the very samples a model of the run was trained
    /// on (`padbench train` records their fingerprint, ``DatasetFingerprint/of(_:)-(Sequence)``, in
    /// the model and the manifest's `training_fingerprint`): that threshold is optimistic.
    static func flagCalibrationOnTrainingData(
        _ results: [ProfileResult], samples: SampleList, estimators: [RunManifest.Estimator]
    ) -> [ProfileResult] {
        let trained = estimators.compactMap { e in e.parameters["training_fingerprint"].map { (e.name, $0) } }
        guard !trained.isEmpty else { return results }
        var fingerprints: [String: String] = [:]
        return results.map { result in
            var result = result
            for c in result.calibrations {
                if fingerprints[c.split] == nil {
                    fingerprints[c.split] = DatasetFingerprint.of(
                        samples.subset(where: { $0.split.rawValue == c.split }))
                }
                for (model, fingerprint) in trained where fingerprint == fingerprints[c.split] {
                    result.notes.append(
                        .check(.calibratedOnTrainingData(output: c.output, split: c.split, model: model)))
                }
            }
            return result
        }
    }

    /// The run's measurement table: in memory only the outputs the profiles decide on or sweep
    /// (`face.count@dataset_box` counts as `face.count`: ``ColumnKey/name``); every other output is
    /// in `samples.csv` and, for `outputs.csv`, in a spill file under `scratch` (the run's work
    /// folder: removed with it, also when the run is killed). Given `samples` (bench), the table's
    /// ids, labels, splits and subjects are the list's own columns, not a copy, and rows are
    /// appended in sample order.
    static func table(keys: [ColumnKey], profiles: [Profile], samples: SampleList? = nil, scratch: String) throws
        -> MeasurementTable
    {
        let read = Set(profiles.flatMap(\.requiredOutputs))
        let spill = scratch + "/columns-\(UUID().uuidString)"
        let kept = Set(keys.filter { read.contains($0.name) }.map(\.header))
        let keep = { (column: String) in kept.contains(column) }
        let columns = keys.map(\.header)
        var table =
            try samples.map { try MeasurementTable(samples: $0, columns: columns, spillFolder: spill, keep: keep) }
            ?? MeasurementTable(columns: columns, spillFolder: spill, keep: keep)
        try table.adopt(layout: keys, path: scratch)
        return table
    }

    /// Measures the samples from index `first` on, in dataset order: each row goes to the journal
    /// (`samples.csv`, flushed by a timer at least twice a second: ``Journal``) and into the table
    /// and the timing histograms.
    static func measure(
        _ samples: SampleList, from first: Int, measurer: SampleMeasurer, job: BenchJob, schema: SamplesSchema,
        journal: String, into table: inout MeasurementTable, timing: inout StepTiming, probe: SpeedProbe
    ) async throws {
        let samplesCSV = try Journal(path: journal, append: first > 0)
        if first == 0 { try samplesCSV.writeRow(schema.header) }
        var progress = ProgressReporter(total: samples.count - first, label: "measure", enabled: job.showProgress)
        let interrupt = job.interrupt
        let cpuTimed = measurer.cpuTimed
        var ordered = OrderedMeasurement(measurer: measurer, concurrency: job.concurrency)
        ordered.probe = probe
        try await ordered.run(samples[first...], firstIndex: first, shouldStop: { interrupt?.isRaised ?? false }) {
            outcome in
            let sample = samples[outcome.index]
            // Rows have the schema's columns (the dataset's choice, not this shard's samples').
            let cpu = [outcome.decodeCPUNanoseconds] + cpuTimed.map { outcome.estimatorCPUNanoseconds[$0] }
            try samplesCSV.writeRow(
                schema.row(
                    sample, status: outcome.status, values: outcome.values, decode: outcome.decodeNanoseconds,
                    steps: outcome.estimatorNanoseconds, cpu: cpu))
            table.append(status: outcome.status, values: outcome.values)
            timing.record(
                decode: outcome.decodeNanoseconds, steps: outcome.estimatorNanoseconds, cpu: cpu,
                presentation: samples.presentationColumn?.codes[outcome.index])
            progress.advance(failed: !outcome.status.isOK)
        }
        progress.finish()
        try samplesCSV.close()
    }

    static func timingSteps(
        _ timing: StepTiming, measurer: SampleMeasurer, built: [EstimatorRegistry.Built],
        seconds: Double
    ) -> [TimingStep] {
        func cpu(_ histogram: TimingHistogram) -> TimingSummary? {
            histogram.count > 0 ? histogram.summary(wallSeconds: seconds) : nil
        }
        var steps = [
            TimingStep(name: "decode", summary: timing.decode.summary(wallSeconds: seconds), cpu: cpu(timing.cpuDecode))
        ]
        for k in measurer.estimators.indices {
            steps.append(
                TimingStep(
                    name: measurer.stepNames[k], summary: timing.steps[k].summary(wallSeconds: seconds),
                    coldStartNanoseconds: nanoseconds(built[k].coldStart), cpu: cpu(timing.cpuSteps[k])))
        }
        steps.append(
            TimingStep(
                name: "sample_total", summary: timing.total.summary(wallSeconds: seconds), cpu: cpu(timing.cpuTotal)))
        if !timing.presentations.isEmpty {
            var histogram = TimingHistogram()
            for ns in timing.presentations.values { histogram.record(nanoseconds: ns) }
            steps.append(TimingStep(name: "presentation_total", summary: histogram.summary(wallSeconds: seconds)))
        }
        return steps
    }

    static func nanoseconds(_ duration: Duration) -> UInt64 {
        let parts = duration.components
        return UInt64(parts.seconds) * 1_000_000_000 + UInt64(parts.attoseconds / 1_000_000_000)
    }

    static func manifest(
        _ job: BenchJob, samples: SampleList, measurer: SampleMeasurer, built: [EstimatorRegistry.Built],
        table: MeasurementTable, times: RunManifest.Times, resumed: Int
    ) -> RunManifest {
        var counts = RunPipeline.counts(table)
        if resumed > 0 { counts["resumed_samples"] = resumed }
        var conventions = Conventions.current
        if !measurer.decodesStills {
            conventions["still_images"] =
                "header only: no estimator reads pixels; the programs read the files (decode = reading the header)"
        }
        var manifest = RunManifest(
            kind: "bench",
            tool: .init(version: ToolInfo.version, commandLine: job.commandLine),
            conventions: conventions,
            dataset: .init(
                name: job.dataset.name, path: job.dataset.root, layout: job.dataset.layout.rawValue,
                fingerprint: DatasetFingerprint.of(samples), samples: samples.count,
                shard: job.shard?.description ?? "",
                wholeDatasetFingerprint: job.shard == nil ? nil : DatasetFingerprint.of(job.dataset.samples),
                presentationsFingerprint: DatasetFingerprint.presentations(samples)),
            estimators: built.indices.map { k in
                let estimator = built[k].estimator
                return RunManifest.Estimator(
                    name: measurer.stepNames[k], version: estimator.version, parameters: estimator.parameters,
                    outputs: zip(estimator.outputs, SampleMeasurer.keys(of: estimator, variant: measurer.variants[k]))
                        .map { output, key in
                            var output = output
                            output.name = key.header
                            return output
                        },
                    coldStartNanoseconds: nanoseconds(built[k].coldStart))
            },
            profiles: job.profiles.map(\.name),
            machine: .current(concurrency: job.concurrency),
            times: times, counts: counts)
        manifest.attackPotential = job.attackPotential
        manifest.frameAggregate = job.aggregate
        if job.comparisons != nil { manifest.comparatorThreshold = job.comparatorThreshold }
        let imageBytes = job.maxImageBytes ?? ImageDecoder.defaultFileLimit(maxPixels: job.maxPixels)
        manifest.measurementOptions = ["max_pixels": String(job.maxPixels), "max_image_bytes": String(imageBytes)]
        if !job.dataset.videos.isEmpty {
            // Frames over these limits fail; which frames are sampled is in the samples' ids.
            let limits = job.dataset.videoOptions.limits
            manifest.measurementOptions?["max_video_frames"] = String(limits.maxFrames)
            manifest.measurementOptions?["max_video_seconds"] = String(limits.maxSeconds)
            manifest.measurementOptions?["max_decoded_pixels"] = String(limits.maxDecodedPixels)
            manifest.measurementOptions?["video_frames"] = job.dataset.videoOptions.sampling.description
        }
        return manifest
    }

    /// The default chain (what profiles without options read, plus `--estimators`, plus what
    /// reads no option a profile sets) and one chain per other option set, of the estimators that
    /// read one of its options (``PadEstimators/EstimatorRegistry/Entry/readsOptions``), each
    /// measured once.
    func measurementChains(_ job: BenchJob) throws -> ([SampleMeasurer.Chain], [EstimatorRegistry.Built]) {
        let options = job.estimatorOptions
        let registry =
            options.externalCommands.isEmpty && options.onnxModels.isEmpty && options.padModelPath == nil
            ? self.registry : EstimatorCatalog.registry(with: options)
        let variants = Set(job.profiles.map(\.variant)).filter { !$0.isDefault }.sorted { $0.key < $1.key }
        var defaultNames = job.estimatorNames(
            registry: registry, profiles: job.profiles.filter { $0.variant.isDefault })
        var chainNames: [(variant: MeasurementVariant, names: [String])] = []
        for variant in variants {
            let names = job.estimatorNames(
                registry: registry, profiles: job.profiles.filter { $0.variant == variant }, extras: false)
            let reads = { (name: String) in
                registry.entries.contains { $0.name == name && !$0.readsOptions.isDisjoint(with: variant.options) }
            }
            for name in names where !reads(name) && !defaultNames.contains(name) { defaultNames.append(name) }
            chainNames.append((variant, names.filter(reads)))
        }
        var built = try registry.build(defaultNames, options: options)
        var chains = [SampleMeasurer.Chain(estimators: built.map(\.estimator))]
        for (variant, names) in chainNames where !names.isEmpty {
            let chain = try registry.build(names, options: options.applying(variant))
            built += chain
            chains.append(.init(variant: variant, estimators: chain.map(\.estimator)))
        }
        return (chains, built)
    }
}

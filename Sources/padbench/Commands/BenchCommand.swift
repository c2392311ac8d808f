import ArgumentParser
import Foundation
import PadBench
import PadDataset
import PadEstimators
import PadEvaluation
import PadMetrics
import PadProfiles
import PadText
import PadVocabulary

/// `padbench bench`: measure a dataset once and score every profile on it.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure a labelled dataset and score threshold profiles on it.",
        discussion: """
            Decodes every image once, runs the estimators the profiles need (plus --estimators), decides \
            every profile and writes samples.csv, decisions.csv, summary.csv, per_species.csv, \
            reject_reasons.csv, curves.csv, timing.csv, manifest.json and results.tar.zst into the run folder.
            """
    )

    @Option(name: .long, help: "Dataset folder (directory tree or manifest.csv).")
    var dataset: String?

    @OptionGroup var datasetLayout: DatasetLayoutOptions

    @Option(help: "Comma-separated profiles: built-in names or YAML files (default: basic).")
    var profiles: String?

    @Option(help: "Comma-separated estimators to run beyond those the profiles need.")
    var estimators: String?

    @Option(help: "Run folder (default: reports/<dataset>-<timestamp>).")
    var out: String?

    @Option(
        help: """
            Samples measured at once (default: the CPUs this process may use, as taskset, Slurm \
            or a cpuset allow). Fewer samples in flight than CPUs: each sample's face and eye \
            detection scans its scales on the spare CPUs.
            """)
    var concurrency: Int = Processors.available

    @Option(help: "Refuse images and video frames with more pixels than this.")
    var maxPixels: Int = 100_000_000

    @Option(
        help: """
            Refuse image files larger than this many bytes, unread (default: 6 bytes per pixel of \
            --max-pixels plus 16 MiB, 616777216 for 100 megapixels).
            """)
    var maxImageBytes: Int?

    @Option(help: "Measure only shard k of n (k/n, 1 <= k <= n), deterministic by sample id.")
    var shard: Shard?

    @Option(help: "Folder holding OpenCV's cascade XML files.")
    var cascades: String = EstimatorOptions.defaultCascadeDirectory

    @Option(
        help: """
            dlib shape-predictor file of the landmarks estimator (68- or 5-point model; default \
            $PADBENCH_LANDMARK_MODEL or Debian libdlib-data's shape_predictor_68_face_landmarks.dat).
            """)
    var landmarkModel: String = EstimatorOptions.defaultLandmarkModel

    @OptionGroup var networks: NetworkOptions

    @Option(
        name: .customLong("external"), help: "External estimator NAME=COMMAND (repeatable); outputs are NAME.<output>.")
    var externals: [String] = []

    @Option(
        name: .customLong("onnx"),
        help: "Your ONNX model NAME=SPEC.yaml (repeatable; the spec names the model file); outputs NAME.score.")
    var onnxModels: [String] = []

    @Option(help: "Model of the colour-texture PAD baseline (from padbench train); adds the pad estimator.")
    var model: String?

    @Option(help: "Per-sample timeout of external estimators, seconds.")
    var externalTimeout: Double = 30

    @Option(
        help: """
            Copies of each external program (default: one per worker for a program that takes one request \
            at a time, one for a program that declares max_in_flight or batch).
            """)
    var externalProcesses: Int?

    @Option(
        help: "How the frames of one presentation (a video) combine into its outputs: mean (default), median, min, max."
    )
    var aggregate: FrameAggregate?
    @Option(
        name: .customLong("attack-potential"),
        help: "CSV species,attack_potential: report APCER_AP per level (the highest APCER among its species).")
    var attackPotential: String?
    @Flag(help: "No progress display.")
    var quiet = false

    @Flag(help: "Replace a complete run (or discard an interrupted one) under --out.")
    var force = false

    @Option(help: "Continue the interrupted run RUN (its folder RUN.partial) with the options it was started with.")
    var resume: String?

    @Flag(help: "Refuse to run (exit 1, before measuring) when a profile gate's output is not measured by this run.")
    var strict = false

    @OptionGroup var comparator: ComparatorOptions

    func validate() throws {
        if resume == nil && dataset == nil { throw ValidationError("give --dataset DIR (or --resume RUN)") }
        if let problem = comparator.problem() { throw ValidationError(problem) }
        if resume != nil {
            // Everything but --quiet would be silently replaced by the original command's options.
            let given: [(String, Bool)] = [
                ("--dataset", dataset != nil), ("--out", out != nil), ("--force", force),
                ("--profiles", profiles != nil), ("--estimators", estimators != nil), ("--shard", shard != nil),
                ("--model", model != nil), ("--external", !externals.isEmpty), ("--strict", strict),
                ("--onnx", !onnxModels.isEmpty), ("--external-processes", externalProcesses != nil),
                ("--onnxruntime", networks.onnxruntime != nil), ("--comparisons", comparator.comparisons != nil),
            ]
            if let option = given.first(where: \.1)?.0 {
                throw ValidationError(
                    "--resume RUN takes no \(option): it continues with the options the run was started with")
            }
        }
        let problems = [
            BenchOptionRules.concurrency(concurrency), BenchOptionRules.maxPixels(maxPixels),
            BenchOptionRules.maxImageBytes(maxImageBytes), BenchOptionRules.externalProcesses(externalProcesses),
            BenchOptionRules.externalTimeout(externalTimeout),
        ]
        if let problem = problems.compactMap({ $0 }).first { throw ValidationError(problem) }
        _ = try Self.parseOnnx(
            onnxModels, externals: try Self.parseExternals(externals, withPadModel: model != nil),
            withPadModel: model != nil)
    }

    func run() async throws {
        if let resume {
            let marker = RunFolder.normalized(resume) + ".partial/" + RunFolder.resumableMarker
            if FileManager.default.fileExists(atPath: marker) {
                try await Self.perform(try Self.resumed(resume, quiet: quiet), folder: resume)
                return
            }
            // A partial of an older padbench: its command line, replayed.
            var original = try Self.startedWith(resume)
            original.out = resume
            try await original.execute(resuming: true)
        } else {
            try await execute(resuming: false)
        }
    }

    /// The interrupted run `run` rebuilt from its `job.json` (``ResumeJob``): the dataset and
    /// profiles loaded again from their absolute paths, the profiles checked unchanged.
    static func resumed(_ run: String, quiet: Bool) throws -> BenchJob {
        let path = RunFolder.normalized(run) + ".partial/" + RunFolder.resumableMarker
        let stored = try CommandSupport.atRunTime { try ResumeJob.read(run: run) }
        let dataset = try CommandSupport.loadDataset(stored.dataset.path, layout: stored.layout, loader: stored.loader)
        let profiles = try CommandSupport.atRunTime { try ProfileLoader().resolveAll(stored.profileReferences) }
        return try CommandSupport.atRunTime {
            try stored.check(profiles, path: path)
            return try stored.benchJob(
                dataset: dataset, profiles: profiles, outputFolder: run, commandLine: CommandLine.arguments,
                showProgress: !quiet)
        }
    }

    /// The command an interrupted run of an older padbench was started with (`RUN.partial/command.json`).
    static func startedWith(_ run: String) throws -> BenchCommand {
        let run = RunFolder.normalized(run)
        let path = run + ".partial/" + RunFolder.commandMarker
        // One line, not a Foundation error dump, when there is nothing to resume.
        if !FileManager.default.fileExists(atPath: path) {
            if FileManager.default.fileExists(atPath: run + "/" + RunFile.results.name) {
                throw RuntimeFailure("\(run): the run is complete; nothing to resume")
            }
            throw RuntimeFailure(
                "\(run): no interrupted bench run to resume (\(run).partial/\(RunFolder.resumableMarker) not found)")
        }
        let arguments = try CommandSupport.atRunTime {
            // A command line is a few KB: a regular file of at most 16 MiB.
            try JSONDecoder().decode([String].self, from: Data(try RegularFile.read(path, limit: 16 << 20)))
        }
        guard let bench = arguments.firstIndex(of: "bench") else {
            throw RuntimeFailure("\(path): not a bench command line")
        }
        let command: BenchCommand
        do { command = try BenchCommand.parse(arguments[(bench + 1)...].filter { $0 != "--force" }) } catch {
            throw RuntimeFailure("\(path): cannot read the original command line: \(error)")
        }
        // Runs started before the paths were stored absolute hold the --dataset as typed.
        if let dataset = command.dataset, !dataset.hasPrefix("/"), !FileManager.default.fileExists(atPath: dataset) {
            throw RuntimeFailure(
                "\(path): the run was started with --dataset \(dataset), a relative path not found from "
                    + "\(FileManager.default.currentDirectoryPath); resume it from the directory it was started in")
        }
        return command
    }

    func execute(resuming: Bool) async throws {
        guard let dataset else { throw ValidationError("give --dataset DIR") }
        let loader = datasetLayout.loader(maxPixels: maxPixels)
        let loaded = try CommandSupport.loadDataset(dataset, layout: datasetLayout.layout, loader: loader)
        let profileList = try CommandSupport.loadProfiles(profiles ?? "basic")
        let folder = out ?? CommandSupport.defaultRunFolder(name: loaded.name)
        var options = EstimatorOptions(
            cascadeDirectory: cascades,
            externalCommands: try Self.parseExternals(externals, withPadModel: model != nil),
            externalTimeout: externalTimeout
        ).with(padModel: model)
        options.landmarkModelPath = landmarkModel
        networks.apply(to: &options)
        options.externalProcesses = externalProcesses
        options.onnxModels = try Self.parseOnnx(
            onnxModels, externals: options.externalCommands, withPadModel: model != nil
        ).mapValues { URL(fileURLWithPath: $0).standardizedFileURL.path }
        let requested = EstimatorCatalog.resolveAliases(
            (estimators ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }, options: &options)
        var job = BenchJob(
            dataset: loaded, profiles: profileList, extraEstimators: requested, estimatorOptions: options,
            outputFolder: folder, concurrency: concurrency, maxPixels: maxPixels, shard: shard,
            showProgress: !quiet, commandLine: CommandLine.arguments)
        for name in (Array(options.externalCommands.keys) + Array(options.onnxModels.keys)).sorted()
        where !job.extraEstimators.contains(name) {
            job.extraEstimators.append(name)
        }
        if model != nil && !job.extraEstimators.contains("pad") { job.extraEstimators.append("pad") }
        job.force = force
        job.resume = resuming
        job.strict = strict
        job.maxImageBytes = maxImageBytes
        job.aggregate = aggregate
        job.attackPotential = try CommandSupport.attackPotential(attackPotential, dataset: loaded)
        if let path = comparator.comparisons {
            // Read now: a wrong file is refused before anything is measured.
            _ = try CommandSupport.atRunTime { try ComparisonScores.read(path: path) }
            job.comparisons = URL(fileURLWithPath: path).standardized.path
            job.comparatorThreshold = comparator.threshold
        }
        // What `bench --resume` continues from: this job, every path absolute.
        job.resumeJob = ResumeJob(job: job, loader: loader, directory: FileManager.default.currentDirectoryPath)
        try await Self.perform(job, folder: folder)
    }

    /// Runs the job (Ctrl-C stops it resumable) and prints its summary, or how to resume it.
    static func perform(_ job: BenchJob, folder: String) async throws {
        var job = job
        let interrupt = InterruptFlag()
        job.interrupt = interrupt
        interrupt.watchSignals()
        let outcome = try await CommandSupport.atRunTime {
            try await CommandSupport.exitingOnMissingLibrary { try await BenchRunner().run(job) }
        }
        interrupt.stopWatching()
        if outcome.interrupted {
            FileHandle.standardError.write(
                Data(
                    """
                    padbench: interrupted after \(outcome.table.count) of \(job.dataset.samples.count) samples; \
                    the measured rows are in \(outcome.folder)
                    resume with: padbench bench --resume \(folder)

                    """.utf8))
            throw ExitCode(130)
        }
        if outcome.resumedSamples > 0 {
            print(
                "resumed: \(outcome.resumedSamples) samples taken over from the interrupted run, "
                    + "\(outcome.table.count - outcome.resumedSamples) measured now"
            )
        }
        print(TerminalTables.benchSummary(outcome))
        CommandSupport.printWarnings(outcome.results)
    }

    /// `--onnx NAME=SPEC` items by name: names follow the external rules and may not repeat an external's.
    static func parseOnnx(_ list: [String], externals: [String: String], withPadModel: Bool) throws -> [String: String]
    {
        let models = try parseExternals(list, withPadModel: withPadModel, option: "--onnx", value: "SPEC.yaml")
        if let problem = BenchOptionRules.estimatorNames(
            externals: externals.keys.sorted(), onnx: models.keys.sorted(), withPadModel: withPadModel)
        {
            throw ValidationError(problem)
        }
        return models
    }

    static func parseExternals(
        _ list: [String], withPadModel: Bool, option: String = "--external", value: String = "COMMAND"
    ) throws -> [String: String] {
        var result: [String: String] = [:]
        for item in list {
            guard let eq = item.firstIndex(of: "="), !item[..<eq].isEmpty, !item[item.index(after: eq)...].isEmpty
            else {
                throw ValidationError("\(option) takes NAME=\(value), got '\(TextBytes.quote(item))'")
            }
            let name = String(item[..<eq])
            if let problem = EstimatorCatalog.externalNameProblem(name, withPadModel: withPadModel) {
                throw ValidationError(problem)
            }
            guard result[name] == nil else { throw ValidationError("\(option) names '\(name)' twice") }
            result[name] = String(item[item.index(after: eq)...])
        }
        return result
    }
}

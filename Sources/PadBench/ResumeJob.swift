import Foundation
import PadDataset
import PadEstimators
import PadEvaluation
import PadMetrics
import PadProfiles
import PadText
import PadVideo
import PadVocabulary

/// What `bench --resume` needs to continue an interrupted run, written as
/// `<out>.partial/job.json` when the run starts: the dataset (absolute path, layout, loader
/// options), the profiles (preset names or absolute file paths, each with its definition hash),
/// the estimators and their options, shard, limits, concurrency, frame aggregate and attack
/// potential levels. Every path is absolute, so a run resumes from any working directory.
///
/// Resuming rebuilds the ``BenchJob`` from it (``loader``, ``profileReferences``,
/// ``benchJob(dataset:profiles:outputFolder:commandLine:showProgress:)``) and refuses, in one
/// line, a job file of another ``schema`` or profiles whose definition changed since
/// (``check(_:path:)``). Older partials hold the replayed command line (`command.json`,
/// ``RunFolder/commandMarker``), which `bench --resume` still reads for one release.
package struct ResumeJob: Codable, Sendable, Equatable {
    /// Bumped when a field changes meaning; a job file of another schema is refused.
    package static let currentSchema = 1

    package struct Dataset: Codable, Sendable, Equatable {
        /// Absolute path of the dataset folder.
        package var path: String
        /// The layout the dataset was read with (`tree`, `manifest`, ...).
        package var layout: String
        package var ouluProtocol: Int?
        package var ouluFold: Int?
        /// `--frames N` or `--frame-step K` (exactly one is set).
        package var frames: Int?
        package var frameStep: Int?
        package var maxVideoFrames: Int
        package var maxVideoSeconds: Double
        /// `--max-decoded-pixels` (absent in jobs written before the decode budget: its default).
        package var maxDecodedPixels: Int?
    }

    package struct ProfileSource: Codable, Sendable, Equatable {
        package var name: String
        /// A preset's name, or the profile file's absolute path.
        package var reference: String
        /// ``PadProfiles/Profile/definitionHash`` when the run started.
        package var definitionHash: String
    }

    package struct Estimators: Codable, Sendable, Equatable {
        /// Estimators run beyond those the profiles need (`--estimators`, external names, `pad`).
        package var extra: [String]
        package var cascadeDirectory: String
        package var landmarkModel: String
        package var landmarkPoints: Bool
        package var padModel: String?
        package var externalCommands: [String: String]
        package var externalTimeout: Double
        /// `--face-detector` (absent in jobs written before the CNN detector: the cascade).
        package var faceDetector: FaceDetectorChoice?
        /// `--onnxruntime`, absolute, when given.
        package var onnxRuntime: String?
        /// `--models`, absolute.
        package var modelDirectory: String?
        /// `--onnx NAME=SPEC`, the specs absolute.
        package var onnxModels: [String: String]?
        /// `--external-processes`.
        package var externalProcesses: Int?
    }

    package var schema = ResumeJob.currentSchema
    /// The padbench that started the run (for the reader; only ``schema`` decides).
    package var toolVersion: String
    /// The command line the run was started with (the resumed run's manifest records its own).
    package var commandLine: [String]
    package var dataset: Dataset
    package var profiles: [ProfileSource]
    package var estimators: Estimators
    /// `k/n`, or nil for the whole dataset.
    package var shard: String?
    package var maxPixels: Int
    package var maxImageBytes: Int?
    package var concurrency: Int
    package var strict: Bool
    package var aggregate: String?
    /// Species -> level, as resolved when the run started (the dataset's column and the file).
    package var attackPotential: [String: String]?
    /// `--comparisons` (absolute) and the comparator threshold rule (`fmr=<x>` or `fixed=<t>`).
    package var comparisons: String?
    package var comparatorThreshold: String?
    /// SHA-256 of this job as encoded without this field, its concurrency and its command line
    /// (``measuredFingerprint()``), set by ``encoded()``. The journal's rows were measured with
    /// these options: a job edited afterwards (`maxPixels`, a timeout, a model) would tear the run,
    /// half its rows measured one way and half another, under a manifest naming only the second.
    /// `concurrency` changes no measurement and may be edited. Absent in older jobs: not checked.
    package var optionsFingerprint: String?

    /// The resume state of `job`, read with `loader`, its relative paths made absolute against
    /// `directory` (the working directory the run was started in).
    package init(job: BenchJob, loader: DatasetLoader, directory: String) {
        func absolute(_ path: String) -> String {
            path.isEmpty || path.hasPrefix("/") ? path : URL(fileURLWithPath: directory + "/" + path).standardized.path
        }
        var frames: Int?, frameStep: Int?
        switch loader.video.sampling {
        case .count(let n): frames = n
        case .step(let k): frameStep = k
        }
        dataset = Dataset(
            path: absolute(job.dataset.root), layout: job.dataset.layout.rawValue, ouluProtocol: loader.ouluProtocol,
            ouluFold: loader.ouluFold, frames: frames, frameStep: frameStep,
            maxVideoFrames: loader.video.limits.maxFrames, maxVideoSeconds: loader.video.limits.maxSeconds,
            maxDecodedPixels: loader.video.limits.maxDecodedPixels)
        profiles = job.profiles.map { profile in
            let preset = profile.origin.isEmpty || profile.origin.hasPrefix("builtin:")
            return ProfileSource(
                name: profile.name, reference: preset ? profile.name : absolute(profile.origin),
                definitionHash: profile.definitionHash)
        }
        let options = job.estimatorOptions
        estimators = Estimators(
            extra: job.extraEstimators, cascadeDirectory: absolute(options.cascadeDirectory),
            landmarkModel: absolute(options.landmarkModelPath), landmarkPoints: options.landmarkPoints,
            padModel: options.padModelPath.map(absolute), externalCommands: options.externalCommands,
            externalTimeout: options.externalTimeout, faceDetector: options.faceDetector,
            onnxRuntime: options.onnxRuntimePath.map(absolute), modelDirectory: absolute(options.modelDirectory),
            onnxModels: options.onnxModels.isEmpty ? nil : options.onnxModels.mapValues(absolute),
            externalProcesses: options.externalProcesses)
        toolVersion = ToolInfo.version
        commandLine = job.commandLine
        shard = job.shard?.description
        maxPixels = job.maxPixels
        maxImageBytes = job.maxImageBytes
        concurrency = job.concurrency
        strict = job.strict
        aggregate = job.aggregate?.rawValue
        attackPotential = job.attackPotential
        comparisons = job.comparisons
        if job.comparisons != nil { comparatorThreshold = Self.text(job.comparatorThreshold) }
    }

    /// A comparator threshold rule as job.json writes it.
    static func text(_ rule: ComparatorThreshold) -> String {
        switch rule {
        case .fmr(let x): "fmr=\(x)"
        case .fixed(let t): "fixed=\(t)"
        }
    }

    /// A rule from its text; nil when it is neither `fmr=<x>` nor `fixed=<t>` with a finite number.
    static func rule(_ text: String) -> ComparatorThreshold? {
        guard let equals = text.firstIndex(of: "="), let value = Double(text[text.index(after: equals)...]),
            value.isFinite
        else { return nil }
        switch text[..<equals] {
        case "fmr": return (0...1).contains(value) ? .fmr(value) : nil
        case "fixed": return .fixed(value)
        default: return nil
        }
    }
}

extension ResumeJob {
    /// The job file of the interrupted run `run` (`run.partial/job.json`), checked: one line
    /// naming the file when it cannot be read or is of another schema.
    package static func read(run: String) throws -> ResumeJob {
        let path = RunFolder.normalized(run) + ".partial/" + RunFolder.resumableMarker
        let bytes: Data
        // A regular file of at most 16 MiB (a job is a few KB): a FIFO or an endless file is refused.
        do { bytes = Data(try RegularFile.read(path, limit: 16 << 20)) } catch {
            throw EvaluationError("\(path): cannot read the resume job: \(error.message)")
        }
        return try decode(bytes, path: path)
    }

    /// A job file's bytes (read from `path`, named in every error) as a job: of this schema,
    /// every field as the command line would accept it (``problem()``), and not edited since it
    /// was written (``optionsFingerprint``).
    package static func decode(_ bytes: Data, path: String) throws -> ResumeJob {
        struct Version: Decodable {
            var schema: Int
            var toolVersion: String?
        }
        guard let version = try? JSONCoding.decoder().decode(Version.self, from: bytes) else {
            throw EvaluationError("\(path): not a padbench resume job (no schema); start over with --force")
        }
        guard version.schema == currentSchema else {
            throw EvaluationError(
                "\(path): a resume job of schema \(version.schema), written by padbench "
                    + "\(version.toolVersion ?? "unknown"); this padbench \(ToolInfo.version) resumes schema "
                    + "\(currentSchema): resume with that padbench, or start over with --force")
        }
        let job: ResumeJob
        do { job = try JSONCoding.decoder().decode(ResumeJob.self, from: bytes) } catch {
            throw EvaluationError("\(path): cannot read the resume job: \(JSONCoding.problem(error))")
        }
        if let problem = job.problem() {
            throw EvaluationError(
                "\(path): the resume job holds what the command line refuses: \(problem); start over with --force")
        }
        if let stated = job.optionsFingerprint, stated != (try job.measuredFingerprint()) {
            throw EvaluationError(
                "\(path): the resume job was edited after the run started (its options fingerprint does "
                    + "not match): the journal's rows were measured with the options it was written with, "
                    + "and only 'concurrency' may change; start over with --force")
        }
        return job
    }

    /// SHA-256 (hex) of the job's key-sorted JSON without ``optionsFingerprint``, with
    /// `concurrency` 0 and no command line: what the measurements depend on.
    package func measuredFingerprint() throws -> String {
        var bare = self
        bare.optionsFingerprint = nil
        bare.concurrency = 0
        bare.commandLine = []
        return SHA256.hex(Array(try JSONCoding.encoder().encode(bare)))
    }

    /// The longest text a job field may hold (a path, a command line): far beyond any real one.
    static let maximumFieldBytes = 65_536

    /// The first thing in this job that `bench`'s command line would refuse
    /// (``BenchOptionRules``), or nil: a job file edited by hand cannot start a run the command line
    /// could not, nor quote a huge field in its error.
    package func problem() -> String? {
        var texts: [(String, String)] = [
            ("dataset.path", dataset.path), ("dataset.layout", dataset.layout),
            ("estimators.cascadeDirectory", estimators.cascadeDirectory),
            ("estimators.landmarkModel", estimators.landmarkModel), ("shard", shard ?? ""),
            ("estimators.padModel", estimators.padModel ?? ""),
            ("estimators.onnxRuntime", estimators.onnxRuntime ?? ""),
            ("estimators.modelDirectory", estimators.modelDirectory ?? ""), ("aggregate", aggregate ?? ""),
        ]
        texts += profiles.map { ("profiles", $0.reference) } + profiles.map { ("profiles", $0.name) }
        texts += estimators.extra.map { ("estimators.extra", $0) }
        for (name, command) in estimators.externalCommands {
            texts += [("estimators.externalCommands", name + command)]
        }
        for (name, spec) in estimators.onnxModels ?? [:] { texts += [("estimators.onnxModels", name + spec)] }
        for (level, species) in attackPotential ?? [:] { texts += [("attackPotential", level + species)] }
        if let (field, text) = texts.first(where: { $0.1.utf8.count > Self.maximumFieldBytes }) {
            return "\(field) holds \(text.utf8.count) bytes (at most \(Self.maximumFieldBytes))"
        }
        let rules: [String?] = [
            BenchOptionRules.layout(dataset.layout),
            BenchOptionRules.oulu(protocol: dataset.ouluProtocol, fold: dataset.ouluFold),
            BenchOptionRules.frames(
                count: dataset.frames, step: dataset.frameStep, maxVideoFrames: dataset.maxVideoFrames,
                maxVideoSeconds: dataset.maxVideoSeconds,
                maxDecodedPixels: dataset.maxDecodedPixels ?? VideoLimits().maxDecodedPixels),
            BenchOptionRules.concurrency(concurrency), BenchOptionRules.maxPixels(maxPixels),
            BenchOptionRules.maxImageBytes(maxImageBytes),
            BenchOptionRules.externalProcesses(estimators.externalProcesses),
            BenchOptionRules.externalTimeout(estimators.externalTimeout),
            BenchOptionRules.aggregate(aggregate),
            BenchOptionRules.estimatorNames(
                externals: estimators.externalCommands.keys.sorted(),
                onnx: (estimators.onnxModels ?? [:]).keys.sorted(),
                withPadModel: estimators.padModel != nil),
            shard.flatMap { Shard(parsing: $0) == nil ? "shard '\($0)' is not k/n" : nil },
            comparatorThreshold.flatMap {
                Self.rule($0) == nil
                    ? "comparatorThreshold '\(TextBytes.quote($0, limit: 80))' is not fmr=X or fixed=T" : nil
            },
        ]
        return rules.compactMap { $0 }.first
    }

    /// The JSON written to `job.json` (pretty, key-sorted), with its ``optionsFingerprint``.
    package func encoded() throws -> Data {
        var stamped = self
        stamped.optionsFingerprint = try measuredFingerprint()
        return try JSONCoding.encoder().encode(stamped) + Data([0x0A])
    }

    /// The dataset loader the run was started with.
    package var loader: DatasetLoader {
        let sampling: FrameSampling =
            dataset.frameStep.map { .step($0) } ?? dataset.frames.map { .count($0) } ?? .standard
        return DatasetLoader(
            ouluProtocol: dataset.ouluProtocol, ouluFold: dataset.ouluFold,
            video: VideoOptions(
                sampling: sampling,
                limits: VideoLimits(
                    maxPixels: maxPixels, maxFrames: dataset.maxVideoFrames, maxSeconds: dataset.maxVideoSeconds,
                    maxDecodedPixels: dataset.maxDecodedPixels ?? VideoLimits().maxDecodedPixels)))
    }

    package var layout: DatasetLayout? { DatasetLayout(rawValue: dataset.layout) }

    /// What to load the profiles from: preset names and absolute file paths.
    package var profileReferences: [String] { profiles.map(\.reference) }

    /// The profiles loaded again must decide as they did when the run started: same names, same
    /// definition hashes. An edited profile file is refused in one line naming it (the journal
    /// stays for a resume once it is restored). `path` names the job file in the message.
    package func check(_ loaded: [Profile], path: String) throws {
        for (stored, profile) in zip(profiles, loaded) {
            guard profile.name == stored.name, profile.definitionHash == stored.definitionHash else {
                throw EvaluationError(
                    "\(path): profile \(stored.name) (\(stored.reference)) changed since the run started "
                        + "(definition hash \(stored.definitionHash), now \(profile.definitionHash)"
                        + (profile.name == stored.name ? "" : ", name \(profile.name)")
                        + "); restore it to resume, or start over with --force")
            }
        }
        guard loaded.count == profiles.count else {
            throw EvaluationError("\(path): the run started with \(profiles.count) profiles, \(loaded.count) loaded")
        }
    }

    /// The job rebuilt on the reloaded dataset and profiles (already ``check(_:path:)``ed).
    package func benchJob(
        dataset loaded: LoadedDataset, profiles: [Profile], outputFolder: String, commandLine: [String],
        showProgress: Bool
    ) throws -> BenchJob {
        var options = EstimatorOptions(
            cascadeDirectory: estimators.cascadeDirectory, externalCommands: estimators.externalCommands,
            externalTimeout: estimators.externalTimeout
        ).with(padModel: estimators.padModel)
        options.landmarkModelPath = estimators.landmarkModel
        options.landmarkPoints = estimators.landmarkPoints
        options.faceDetector = estimators.faceDetector ?? .cascade
        options.onnxRuntimePath = estimators.onnxRuntime
        if let models = estimators.modelDirectory { options.modelDirectory = models }
        options.onnxModels = estimators.onnxModels ?? [:]
        // The rules ``read(run:)`` applied, once more for a job built any other way.
        if let problem = problem() { throw EvaluationError(problem) }
        options.externalProcesses = estimators.externalProcesses
        let parsedShard = shard.flatMap(Shard.init(parsing:))
        var job = BenchJob(
            dataset: loaded, profiles: profiles, extraEstimators: estimators.extra, estimatorOptions: options,
            outputFolder: outputFolder, concurrency: concurrency, maxPixels: maxPixels, shard: parsedShard,
            showProgress: showProgress, commandLine: commandLine, strict: strict)
        job.maxImageBytes = maxImageBytes
        job.aggregate = aggregate.flatMap(FrameAggregate.init(rawValue:))
        job.attackPotential = attackPotential
        job.comparisons = comparisons
        if let text = comparatorThreshold, let rule = Self.rule(text) { job.comparatorThreshold = rule }
        job.resume = true
        job.resumeJob = self
        return job
    }
}

import Foundation
import PadMetrics
import PadDataset
import PadEstimators
import PadEvaluation
import PadProfiles

/// Everything `padbench bench` needs: what to measure, how to decide, where to write.
package struct BenchJob: Sendable {
    package var dataset: LoadedDataset
    package var profiles: [Profile]
    /// Estimators to run beyond those the profiles need.
    package var extraEstimators: [String]
    package var estimatorOptions: EstimatorOptions
    package var outputFolder: String
    package var concurrency: Int
    package var maxPixels: Int
    /// Image files larger than this are refused unread (`too_large`); default from `maxPixels`
    /// (``PadImage/ImageDecoder/defaultFileLimit(maxPixels:)``).
    package var maxImageBytes: Int?
    /// `k/n` shard of the dataset, or nil for all of it.
    package var shard: Shard?
    package var showProgress: Bool
    package var commandLine: [String]
    /// What `bench --resume` continues from (`RUN.partial/job.json`): the CLI's, with the dataset
    /// loader it used and every path absolute; nil: made from this job (``resumeState``).
    package var resumeJob: ResumeJob?
    /// Replace a complete run already under `outputFolder`.
    package var force = false
    /// Continue the interrupted run in `<outputFolder>.partial`.
    package var resume = false
    /// Raised by Ctrl-C: measuring stops after the samples in flight.
    package var interrupt: InterruptFlag?
    /// A gate whose output no estimator of the run measures is an error before measuring
    /// (otherwise it is left out of the decisions and reported).
    package var strict = false
    /// How frame values combine into a presentation's (`--aggregate`); recorded in the manifest
    /// (`frame_aggregate`) when the dataset has presentations of several frames. nil is `mean`.
    package var aggregate: FrameAggregate?
    /// PAI species -> attack potential level (`--attack-potential`, merged over the manifest's
    /// `attack_potential` column); nil when neither gives one.
    package var attackPotential: [String: String]?
    /// A face comparator's scores of the dataset's presentations (`--comparisons`, absolute):
    /// whole-system rates in `vulnerability.csv`.
    package var comparisons: String?
    /// How the comparator's threshold is set (`--comparator-fmr`, `--comparator-threshold`).
    package var comparatorThreshold: ComparatorThreshold = .fmr(EvalRunner.defaultComparatorFMR)

    /// Most samples measured at once: each holds a decoded image and, with external estimators,
    /// one process per worker (`--concurrency` above this is a usage error).
    package static let maximumConcurrency = 1024

    package init(
        dataset: LoadedDataset, profiles: [Profile], extraEstimators: [String] = [],
        estimatorOptions: EstimatorOptions = EstimatorOptions(), outputFolder: String,
        concurrency: Int, maxPixels: Int = 100_000_000, shard: Shard? = nil, showProgress: Bool = false,
        commandLine: [String] = [], strict: Bool = false
    ) {
        self.dataset = dataset
        self.profiles = profiles
        self.extraEstimators = extraEstimators
        self.estimatorOptions = estimatorOptions
        self.outputFolder = outputFolder
        self.concurrency = concurrency
        self.maxPixels = maxPixels
        self.shard = shard
        self.showProgress = showProgress
        self.commandLine = commandLine
        self.strict = strict
    }

    /// The resume state written when the run starts: ``resumeJob``, or one made from this job with
    /// the default loader options against the working directory.
    package var resumeState: ResumeJob {
        resumeJob
            ?? ResumeJob(
                job: self, loader: DatasetLoader(video: dataset.videoOptions),
                directory: FileManager.default.currentDirectoryPath)
    }

    /// What the run reads besides the dataset and so may never be its run folder, inside it or
    /// around it: the cascade folder, the PAD model and the profile files.
    package var inputs: [String] {
        var inputs = [estimatorOptions.cascadeDirectory]
        if let model = estimatorOptions.padModelPath { inputs.append(model) }
        // The comparator scores are read again when the run is decided: `--force` must not replace them.
        if let comparisons { inputs.append(comparisons) }
        return inputs + Profile.files(profiles)
    }

    /// Estimator names to build: what the profiles read and the registry can measure (vendor
    /// outputs such as `luna.*` come from `import`, not from an estimator), plus every extra named
    /// (an unknown extra name is an error when building, so a typo never passes silently).
    package func estimatorNames(registry: EstimatorRegistry) -> [String] {
        estimatorNames(registry: registry, profiles: profiles)
    }

    /// The same for some of the profiles (those sharing an option set); `extras` adds `--estimators`.
    package func estimatorNames(registry: EstimatorRegistry, profiles: [Profile], extras: Bool = true) -> [String] {
        var names: [String] = []
        for name in profiles.flatMap(\.requiredEstimators) where registry.names.contains(name) && !names.contains(name)
        { names.append(name) }
        if extras { for name in extraEstimators where !name.isEmpty && !names.contains(name) { names.append(name) } }
        return names
    }
}

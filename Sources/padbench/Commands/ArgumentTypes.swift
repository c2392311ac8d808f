import PadProfiles
import ArgumentParser
import PadBench
import PadDataset
import PadEstimators
import PadEvaluation
import PadMetrics
import PadReport
import PadRuns
import PadVideo

// Typed command-line values: ArgumentParser rejects a bad value as a usage error (exit 64) with
// the accepted values listed, before any work starts.

extension ScorePolarity: ExpressibleByArgument {
    package static var allValueStrings: [String] { ["bonafide-high", "attack-high"] }
}

extension ScoreFormat: ExpressibleByArgument {}

extension FrameAggregate: ExpressibleByArgument {}

extension ScoreDirection: ExpressibleByArgument {}

extension EERRule: ExpressibleByArgument {}

extension RunComparison.GateKind: ExpressibleByArgument {}

extension DatasetLayout: ExpressibleByArgument {}

extension ThresholdCriterion: ExpressibleByArgument {
    package init?(argument: String) {
        guard let parsed = try? ThresholdCriterion(parsing: argument) else { return nil }
        self = parsed
    }
    package static var defaultCompletionKind: CompletionKind {
        .list(["eer", "min-hter", "bpcer@apcer=0.01", "apcer@bpcer=0.05"])
    }
}

extension Shard: ExpressibleByArgument {
    package init?(argument: String) { self.init(parsing: argument) }
}

/// A value that must be a finite number (NaN and infinities are usage errors).
struct FiniteDouble: ExpressibleByArgument, Sendable {
    var value: Double
    init?(argument: String) {
        guard let parsed = Double(argument), parsed.isFinite else { return nil }
        value = parsed
    }
    init(_ value: Double) { self.value = value }
    var defaultValueDescription: String { "\(value)" }
}

/// How a dataset folder is read, the same options wherever a dataset is loaded with its layout
/// chosen by the user (`bench`, `dataset check`): the layout, OULU-NPU's protocol and fold, and
/// which frames of each video are measured within which limits.
struct DatasetLayoutOptions: ParsableArguments {
    @Option(
        help: "Dataset layout: tree, manifest, celeba-spoof, oulu-npu or replay-attack (auto-detected when omitted).")
    var layout: DatasetLayout?

    @Option(help: "OULU-NPU protocol (1-4) whose lists give the splits.")
    var ouluProtocol: Int?

    @Option(help: "OULU-NPU fold (1-6) for protocols 3 and 4.")
    var ouluFold: Int?

    @Option(help: "Frames measured per video, spread evenly over it (default 10; or --frame-step).")
    var frames: Int?

    @Option(help: "Measure every K-th frame of each video from the first (instead of --frames).")
    var frameStep: Int?

    @Option(help: "Refuse videos with more frames than this.")
    var maxVideoFrames: Int = VideoLimits().maxFrames

    @Option(help: "Refuse videos longer than this many seconds.")
    var maxVideoSeconds: Double = VideoLimits().maxSeconds

    @Option(
        help: """
            Refuse videos whose frames, decoded up to the last one measured, hold more pixels than \
            this in all (width x height x frames; default: an hour of 1080p at 30 frames/s fits).
            """)
    var maxDecodedPixels: Int = VideoLimits().maxDecodedPixels

    func validate() throws {
        // A wrong OULU-NPU protocol or fold is a wrong command line (exit 64), not a missing folder
        // found later; the rules are shared with resume jobs (BenchOptionRules).
        if let problem = BenchOptionRules.oulu(protocol: ouluProtocol, fold: ouluFold)
            ?? BenchOptionRules.frames(
                count: frames, step: frameStep, maxVideoFrames: maxVideoFrames, maxVideoSeconds: maxVideoSeconds,
                maxDecodedPixels: maxDecodedPixels)
        {
            throw ValidationError(problem)
        }
    }

    /// The video options these flags give, with the still-image pixel limit for frames too.
    func video(maxPixels: Int = VideoLimits().maxPixels) -> VideoOptions {
        let sampling: FrameSampling = frameStep.map { .step($0) } ?? frames.map { .count($0) } ?? .standard
        return VideoOptions(
            sampling: sampling,
            limits: VideoLimits(
                maxPixels: maxPixels, maxFrames: maxVideoFrames, maxSeconds: maxVideoSeconds,
                maxDecodedPixels: maxDecodedPixels))
    }

    /// The loader these options describe.
    func loader(maxPixels: Int = VideoLimits().maxPixels) -> DatasetLoader {
        DatasetLoader(ouluProtocol: ouluProtocol, ouluFold: ouluFold, video: video(maxPixels: maxPixels))
    }
}

extension FaceDetectorChoice: ExpressibleByArgument {}

/// The options of the estimators that run networks (`face` with a CNN, `minifasnet`), shared by
/// `bench`, `train` and `estimators list`.
struct NetworkOptions: ParsableArguments {
    @Option(
        help: """
            Detector behind face.*: ultraface (CNN, 320x240; default), ultraface-640 (640x480), cascade \
            (OpenCV's Haar cascade, needs no ONNX Runtime).
            """)
    var faceDetector: FaceDetectorChoice = .ultraface

    @Option(
        help: """
            ONNX Runtime library (libonnxruntime.so, or its folder); default $PADBENCH_ONNXRUNTIME, else the \
            checkout's .venv that make setup fills, else the dynamic linker's path.
            """)
    var onnxruntime: String?

    @Option(
        help:
            "Folder of padbench's models (ultraface/, minifasnet/); default $PADBENCH_MODELS or the checkout's models/."
    )
    var models: String = EstimatorOptions.defaultModelDirectory

    func apply(to options: inout EstimatorOptions) {
        options.faceDetector = faceDetector
        options.onnxRuntimePath = onnxruntime
        options.modelDirectory = models
    }
}
extension RunComparison.LatencyClock: ExpressibleByArgument {}

/// A face comparator's scores beside the PAD run (`eval --scores`, `bench`): whole-system rates
/// in vulnerability.csv (docs/vulnerability.md).
struct ComparatorOptions: ParsableArguments {
    @Option(
        help: """
            A face comparator's scores of these presentations (generic: id,type,score[,species][,split] with \
            type genuine, zero_effort or attack; or bob's vulnerability CSV): whole-system rates (IAPMR, \
            IAPAR) in vulnerability.csv.
            """)
    var comparisons: String?
    @Option(
        help: "With --comparisons: set the comparator threshold at this FMR on zero-effort impostors (default 0.001).")
    var comparatorFmr: Double?
    @Option(help: "With --comparisons: a fixed comparator threshold (not with --comparator-fmr).")
    var comparatorThreshold: FiniteDouble?

    /// `--comparator-fmr` and `--comparator-threshold` belong to `--comparisons`, one at a time.
    func problem() -> String? {
        if comparisons == nil && (comparatorFmr != nil || comparatorThreshold != nil) {
            return "--comparator-fmr and --comparator-threshold need --comparisons FILE"
        }
        if comparatorFmr != nil && comparatorThreshold != nil {
            return "give --comparator-fmr or --comparator-threshold, not both"
        }
        if let x = comparatorFmr, !(0...1).contains(x) {
            return "--comparator-fmr must be a fraction in [0, 1], got \(x)"
        }
        return nil
    }

    /// The threshold rule these options give.
    var threshold: ComparatorThreshold {
        comparatorThreshold.map { .fixed($0.value) } ?? .fmr(comparatorFmr ?? EvalRunner.defaultComparatorFMR)
    }
}

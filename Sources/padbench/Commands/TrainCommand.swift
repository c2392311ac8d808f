import ArgumentParser
import Foundation
import PadBench
import PadEstimators
import PadVocabulary

/// `padbench train`: the colour-texture PAD baseline.
struct TrainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train",
        abstract: "Train the PAD baseline (logistic regression) on one split; writes a JSON model for --model.",
        discussion:
            "lbp-color: uniform LBP(8,1) histograms of Y, Cb, Cr, H, S, V on the 64x64 face crop (354 features); "
            + "ida: image distortion analysis (121: specular, blur, chromatic moments, colour diversity); "
            + "ida+lbp-color: both. Standardised; L2-regularised "
            + "logistic regression by deterministic gradient descent. A video's frames are sampled and decoded "
            + "as bench samples them (--frames, --frame-step); each frame is one training sample."
    )

    @Option(help: "Dataset folder.") var dataset: String
    /// `--layout`, OULU-NPU's protocol and fold, and which frames of each video are trained on
    /// (`--frames N`, default 10, or `--frame-step K`): the same options and defaults as `bench`.
    @OptionGroup var datasetLayout: DatasetLayoutOptions
    @Option(help: "Feature set: lbp-color, ida or ida+lbp-color.") var features: String = "lbp-color"
    @Option(help: "Split to train on.") var split: String = "train"
    @Option(help: "Model file to write.") var out: String
    @Option(help: "Folder holding OpenCV's cascade XML files.") var cascades: String = EstimatorOptions
        .defaultCascadeDirectory
    @OptionGroup var networks: NetworkOptions

    func run() throws {
        guard let featureSet = PADEstimator.FeatureSet(rawValue: features) else {
            throw ValidationError("unknown feature set '\(features)' (lbp-color, ida, ida+lbp-color)")
        }
        guard let splitValue = Split(parsing: split), splitValue != .none else {
            throw ValidationError("--split must be train, dev or eval")
        }
        if splitValue == .eval { print("warning: training on eval means eval numbers are no longer a held-out result") }
        let loaded = try CommandSupport.loadDataset(
            dataset, layout: datasetLayout.layout, loader: datasetLayout.loader())
        let outcome: TrainRunner.Outcome
        var options = EstimatorOptions(cascadeDirectory: cascades)
        networks.apply(to: &options)
        do {
            outcome = try TrainRunner().train(
                dataset: loaded, split: splitValue, modelPath: out, features: featureSet, options: options)
        } catch let error as EstimatorSetupError where error.missingLibrary {
            FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
            throw ExitCode(64)
        } catch {
            throw RuntimeFailure("\(error)")
        }
        print("trained on \(outcome.used) samples of split \(split) (\(outcome.failed.count) failed to process)")
        for (id, reason) in outcome.failed.prefix(10) { print("  failed: \(MessageText.quote(id)): \(reason)") }
        print("training accuracy at 0.5: \(outcome.model.trainingMetrics["accuracy"] ?? .nan); model: \(out)")
    }
}

import Foundation
import PadImage
import PadVocabulary

/// A trainable single-image PAD baseline: colour-texture (``ColorTextureFeatures``) and/or image
/// distortion (``IDAFeatures``) features on the face crop, scored by a ``LogisticModel`` trained
/// with `padbench train`.
///
/// Example: `TrainTests.trainingIsDeterministicSeparatesAndTheModelScores`
/// in `Tests/PadBenchTests/TrainTests.swift` (compiled and run by `swift test`).
/// Output `pad.score` in [0, 1]: the model's probability of bona fide (higher = more bona fide).
/// What it can and cannot detect: it sees texture and colour statistics of one image (print
/// halftones, screen moire, colour gamut), so it catches re-captures whose texture differs from the
/// training bona fide; it has no depth, motion or challenge-response, and does not transfer across
/// cameras, attacks or datasets it was not trained on.
package struct PADEstimator: Estimator {
    package let name = "pad"
    package let version: String
    package let model: LogisticModel
    package let modelPath: String
    package var dependencies: [String] { ["face"] }
    package var outputs: [OutputDescriptor] { Self.declaredOutputs }
    /// Crops the face region, which `use_dataset_box` chooses.
    package static let readsOptions: Set<EstimatorOptionName> = [.useDatasetFaceBox]

    /// Declared by type, so profiles are validated without reading any model or cascade file.
    package static let declaredOutputs: [OutputDescriptor] = [
        .init(
            name: "score", unit: "", minimum: 0, maximum: 1, direction: .higherIsBetter,
            summary: "P(bona fide), colour-texture logistic baseline")
    ]
    package var parameters: [String: String] {
        ["model": modelPath, "feature_set": model.featureSet, "training_fingerprint": model.trainingFingerprint]
    }

    package static let featureVersion = "1"

    /// The feature sets `padbench train --features` offers.
    package enum FeatureSet: String, Sendable, CaseIterable {
        case lbpColor = "lbp-color"
        case ida
        case idaLbpColor = "ida+lbp-color"

        package var names: [String] {
            switch self {
            case .lbpColor: return ColorTextureFeatures.names
            case .ida: return IDAFeatures.names
            case .idaLbpColor: return IDAFeatures.names + ColorTextureFeatures.names
            }
        }

        package func extract(_ image: Image, face: Box?) -> [Double] {
            switch self {
            case .lbpColor: return ColorTextureFeatures.extract(image, face: face)
            case .ida: return IDAFeatures.extract(image, face: face)
            case .idaLbpColor:
                return IDAFeatures.extract(image, face: face) + ColorTextureFeatures.extract(image, face: face)
            }
        }
    }

    package let features: FeatureSet

    package init(modelPath: String) throws {
        let model = try LogisticModel.read(from: modelPath)
        guard let features = FeatureSet(rawValue: model.featureSet), model.featureVersion == Self.featureVersion,
            model.featureNames == features.names
        else {
            throw EstimatorSetupError(
                estimator: "pad",
                message:
                    "\(modelPath) was trained on features '\(model.featureSet)' v\(model.featureVersion) "
                    + "(\(model.featureNames.count) names); this padbench computes "
                    + "\(FeatureSet.allCases.map { "'\($0.rawValue)' (\($0.names.count))" }.joined(separator: ", ")) "
                    + "v\(Self.featureVersion)"
            )
        }
        self.features = features
        self.model = model
        self.modelPath = modelPath
        self.version = "1.0.0+model:\(model.trainingFingerprint.prefix(8))"
    }

    package func measure(_ input: inout EstimatorInput) throws(EstimatorFailure) -> [Double] {
        [model.score(features.extract(input.image, face: input.face))]
    }
}

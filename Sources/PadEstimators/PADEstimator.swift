import Foundation
import PadImage

/// A trainable single-image PAD baseline: colour-texture features (``ColorTextureFeatures``) on the
/// face crop scored by a ``LogisticModel`` trained with `padbench train`.
///
/// ```swift
/// let pad = try PADEstimator(modelPath: "model.json")    // runs after `face`
/// ```
/// Output `pad.score` in [0, 1]: the model's probability of bona fide (higher = more bona fide).
/// What it can and cannot detect: it sees texture and colour statistics of one image (print
/// halftones, screen moire, colour gamut), so it catches re-captures whose texture differs from the
/// training bona fide; it has no depth, motion or challenge-response, and does not transfer across
/// cameras, attacks or datasets it was not trained on.
public struct PADEstimator: Estimator {
    public let name = "pad"
    public let version: String
    public let model: LogisticModel
    public let modelPath: String
    public var dependencies: [String] { ["face"] }
    public let outputs: [OutputDescriptor] = [
        .init(name: "score", unit: "", minimum: 0, maximum: 1, direction: .higherIsBetter, summary: "P(bona fide), colour-texture logistic baseline"),
    ]
    public var parameters: [String: String] {
        ["model": modelPath, "feature_set": model.featureSet, "training_fingerprint": model.trainingFingerprint]
    }

    public static let featureSet = "lbp-color"
    public static let featureVersion = "1"

    public init(modelPath: String) throws {
        let model = try LogisticModel.read(from: modelPath)
        guard model.featureSet == Self.featureSet, model.featureVersion == Self.featureVersion, model.featureNames.count == ColorTextureFeatures.count else {
            throw EstimatorSetupError(estimator: "pad", message: "\(modelPath) was trained on features '\(model.featureSet)' v\(model.featureVersion) (\(model.featureNames.count)); this padbench computes '\(Self.featureSet)' v\(Self.featureVersion) (\(ColorTextureFeatures.count))")
        }
        self.model = model
        self.modelPath = modelPath
        self.version = "1.0.0+model:\(model.trainingFingerprint.prefix(8))"
    }

    public func measure(_ input: inout EstimatorInput) throws(EstimatorFailure) -> [Double] {
        [model.score(ColorTextureFeatures.extract(input.image, face: input.face))]
    }
}

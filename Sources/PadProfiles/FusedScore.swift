import PadVocabulary

/// A profile's swept score made from several outputs (`score: {name:, fusion:, outputs:, on:}`):
/// the outputs are z-normalised and combined by ``FusionMethod`` with weights trained on one split
/// (dev by default), as bob.fusion.base fuses the score files of several systems into one.
///
/// The fused score is no measurement: it is derived per profile when the profile is decided (its
/// column never enters `samples.csv`), so re-deciding a stored run trains the same weights from
/// the same measurements. Its name is under the reserved `fused.` prefix, so it can never be
/// confused with a measured output; the profile's gates may gate on it like on any output.
package struct FusedScore: Sendable, Equatable {
    /// The reserved prefix of a fused score's name: no estimator, import or score file may
    /// declare an output under it.
    package static let prefix = "fused."

    /// `fused.<name>`: what the gates and reports call the fused score.
    package var name: String
    package var method: FusionMethod
    /// The fused outputs, in the order of the trained weights (at least two, all different).
    package var outputs: [String]
    /// The split the normalisation and weights are trained on (`on:`, dev by default).
    package var trainingSplit: Split

    package init(name: String, method: FusionMethod, outputs: [String], trainingSplit: Split = .dev) {
        self.name = name
        self.method = method
        self.outputs = outputs
        self.trainingSplit = trainingSplit
    }

    /// "logistic fusion of a, b trained on dev": the profile description's and the report's words.
    package var text: String {
        "\(method.rawValue) fusion of \(outputs.joined(separator: ", ")) trained on \(trainingSplit.rawValue)"
    }
}

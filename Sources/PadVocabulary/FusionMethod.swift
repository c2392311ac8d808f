/// How a fusion combines the normalised outputs of a presentation into one score: the vocabulary
/// a profile's `score: {fusion: ...}` names (PadProfiles) and a trained fusion carries (PadMetrics).
package enum FusionMethod: String, Sendable, Codable, CaseIterable {
    /// The mean of the z-normalised outputs: bob.fusion.base's `mean` algorithm (its
    /// `config/algorithm/mean.py`: `Weighted_Sum(preprocessors=[StandardScaler()])`, whose
    /// `decision_function` is `numpy.mean(scores, axis=1)`).
    case mean
    /// L2-regularised logistic regression on the z-normalised outputs, trained on dev with bona
    /// fide = 1 and attack = 0: the fused score is the linear predictor (the log-odds of bona fide).
    case logistic
}

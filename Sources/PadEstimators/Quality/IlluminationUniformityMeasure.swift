import PadImage
import PadVocabulary

/// `illumination_uniformity`: histogram intersection sum_k min(p_left(k), p_right(k)) of the
/// normalised L histograms of the region's left and right halves (OFIQ's idea); 1 = evenly lit.
package struct IlluminationUniformityMeasure: SingleOutputQualityMeasure {
    package let output = OutputDescriptor(
        name: "illumination_uniformity", unit: "", range: 0...1, direction: .higherIsBetter,
        summary: "left/right L histogram intersection")
    package func assessment(_ context: QualityContext) -> QualityAssessment {
        context.assessLuminance(QualityMeasures.illuminationUniformity, otherwise: "region narrower than 2 pixels")
    }
}

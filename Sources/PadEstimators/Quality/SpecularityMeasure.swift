import PadImage
import PadVocabulary

/// `specularity`: fraction of region pixels that are near-white and unsaturated in HSV
/// (V = max(R,G,B) >= 230 and S = (max - min) / max <= 0.1): flares and screen glare.
package struct SpecularityMeasure: SingleOutputQualityMeasure {
    package let output = OutputDescriptor.pixelFraction(
        "specularity", summary: "fraction of near-white unsaturated pixels")
    package func assessment(_ context: QualityContext) -> QualityAssessment {
        .value(QualityMeasures.specularity(context.image, region: context.region))
    }
}

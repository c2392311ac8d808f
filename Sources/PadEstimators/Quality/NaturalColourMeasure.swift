import PadImage
import PadVocabulary

/// `natural_colour`: mean CIELAB (D65) a*, b* of the region; Euclidean distance from the skin box
/// a* in [5, 25], b* in [5, 35] (OFIQ natural colour), 0 inside the box.
package struct NaturalColourMeasure: SingleOutputQualityMeasure {
    package let output = OutputDescriptor(
        name: "natural_colour", unit: "CIELAB", range: .nonNegative, direction: .lowerIsBetter,
        summary: "distance of mean a*b* from the skin box")
    package func assessment(_ context: QualityContext) -> QualityAssessment {
        .value(QualityMeasures.naturalColourDistance(context.image, region: context.region))
    }
}

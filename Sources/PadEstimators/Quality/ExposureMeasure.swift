import PadImage
import PadVocabulary

/// OFIQ's under- and over-exposure prevention, the two tails of one L histogram: `underexposure`
/// is the fraction of region pixels with L in [0, 25], `overexposure` with L in [247, 255].
package struct ExposureMeasure: QualityMeasure {
    package let outputs: [OutputDescriptor] = [
        .pixelFraction("underexposure", summary: "fraction with L <= 25"),
        .pixelFraction("overexposure", summary: "fraction with L >= 247"),
    ]
    package func assess(_ context: QualityContext) -> [String: QualityAssessment] {
        [
            "underexposure": .value(context.histogram.underexposure),
            "overexposure": .value(context.histogram.overexposure),
        ]
    }
}

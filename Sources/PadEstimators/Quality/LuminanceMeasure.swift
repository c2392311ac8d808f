import PadImage
import PadVocabulary

/// OFIQ's luminance measure: `luminance_mean` and `luminance_variance` (population variance) of
/// L over the region, both from its 256-bin histogram (OFIQ's `Luminance` class sets the two).
package struct LuminanceMeasure: QualityMeasure {
    package let outputs = [
        OutputDescriptor(
            name: "luminance_mean", unit: "L", range: 0...255, direction: .none, summary: "mean OFIQ luminance"),
        OutputDescriptor(
            name: "luminance_variance", unit: "L^2", range: 0...16256.25, direction: .none,
            summary: "variance of OFIQ luminance"),
    ]
    package func assess(_ context: QualityContext) -> [String: QualityAssessment] {
        ["luminance_mean": .value(context.histogram.mean), "luminance_variance": .value(context.histogram.variance)]
    }
}

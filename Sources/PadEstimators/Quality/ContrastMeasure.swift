import PadImage
import PadVocabulary

/// `contrast`: RMS contrast, the standard deviation of L over the region / 255.
package struct ContrastMeasure: SingleOutputQualityMeasure {
    package let output = OutputDescriptor(
        name: "contrast", unit: "", range: 0...0.5, direction: .higherIsBetter, summary: "RMS contrast, std(L)/255")
    package func assessment(_ context: QualityContext) -> QualityAssessment {
        .value(context.histogram.variance.squareRoot() / 255)
    }
}

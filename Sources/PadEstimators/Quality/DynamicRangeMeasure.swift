import PadImage
import PadVocabulary

/// `dynamic_range`: Shannon entropy of the 256-bin L histogram, -sum p log2 p, in bits (OFIQ).
package struct DynamicRangeMeasure: SingleOutputQualityMeasure {
    package let output = OutputDescriptor(
        name: "dynamic_range", unit: "bits", range: 0...8, direction: .higherIsBetter,
        summary: "entropy of the L histogram")
    package func assessment(_ context: QualityContext) -> QualityAssessment { .value(context.histogram.entropy) }
}

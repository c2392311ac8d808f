import PadImage
import PadVocabulary

/// `background_luminance`: mean L of the pixels outside the face box (Aware's
/// BACKGROUND_TOO_BRIGHT / BACKGROUND_TOO_DARK feedback).
package struct BackgroundLuminanceMeasure: SingleOutputQualityMeasure {
    package let needsFace = true
    package let output = OutputDescriptor(
        name: "background_luminance", unit: "L", range: 0...255, direction: .none,
        summary: "mean OFIQ luminance outside the face")
    package func assessment(_ context: QualityContext) -> QualityAssessment {
        QualityAssessment(
            QualityMeasures.backgroundLuminance(context.luminance, width: context.image.width, face: context.region),
            otherwise: "the face covers the whole image")
    }
}

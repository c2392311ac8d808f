import PadImage
import PadVocabulary

/// `background_uniformity`: mean Sobel gradient magnitude of L outside the face box (Gx, Gy with
/// kernels [-1 0 1; -2 0 2; -1 0 1]); lower = more uniform.
package struct BackgroundUniformityMeasure: SingleOutputQualityMeasure {
    package let needsFace = true
    package let output = OutputDescriptor(
        name: "background_uniformity", unit: "L/px", range: .nonNegative, direction: .lowerIsBetter,
        summary: "mean Sobel magnitude outside the face")
    package func assessment(_ context: QualityContext) -> QualityAssessment {
        let image = context.image
        return QualityAssessment(
            QualityMeasures.backgroundGradient(
                context.luminance, width: image.width, height: image.height, face: context.region),
            otherwise: "no background pixel where the 3x3 kernel fits")
    }
}

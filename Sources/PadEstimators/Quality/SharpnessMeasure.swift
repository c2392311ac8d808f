import PadImage
import PadVocabulary

/// `sharpness`: variance of the 3x3 Laplacian [0 1 0; 1 -4 1; 0 1 0] of L, borders mirrored
/// (BORDER_REFLECT_101), as `cv2.Laplacian(L, CV_64F).var()` (Pech-Pacheco et al. 2000).
package struct SharpnessMeasure: SingleOutputQualityMeasure {
    package let output = OutputDescriptor(
        name: "sharpness", unit: "L^2", range: .nonNegative, direction: .higherIsBetter,
        summary: "variance of the Laplacian of L")
    package func assessment(_ context: QualityContext) -> QualityAssessment {
        context.assessLuminance(QualityMeasures.laplacianVariance, otherwise: "region smaller than 3x3")
    }
}

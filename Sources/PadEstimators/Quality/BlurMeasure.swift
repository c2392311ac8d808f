import PadImage
import PadVocabulary

/// `blur`: Crete, Dolmiere, Ladret, Nicolas (2007), "The blur effect: perception and estimation
/// with a new no-reference perceptual blur metric", Proc. SPIE 6492: re-blur with a 9-tap mean
/// filter per direction (borders replicated), b = (sum D_F - sum max(0, D_F - D_B)) / sum D_F over
/// absolute neighbour differences, blur = max(b_vertical, b_horizontal); 0 sharp .. 1 blurred.
package struct BlurMeasure: SingleOutputQualityMeasure {
    package let output = OutputDescriptor(
        name: "blur", unit: "", range: 0...1, direction: .lowerIsBetter, summary: "Crete 2007 no-reference blur")
    package func assessment(_ context: QualityContext) -> QualityAssessment {
        context.assessLuminance(QualityMeasures.creteBlur, otherwise: "region flat or smaller than 2x2")
    }
}

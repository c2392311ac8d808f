import Foundation
import PadImage
import PadVocabulary

/// Face image quality measures on the face region (or the whole image when no face was found),
/// shaped after the checks capture SDKs run (LUNA: blur, darkness, lightness, illumination,
/// specularity; MiSnap: lighting, sharpness) and after OFIQ, the ISO/IEC 29794-5 reference.
///
/// Example (compiled and checked in `QualityTests.assessmentsByNameExample`):
/// `QualityEstimator().assess(input)["sharpness"]` is `.value(...)` or `.notAssessable(reason:)`;
/// `measure(&input)` gives the same as one Double per declared output (NaN when not assessable).
///
/// One type per measure in OFIQ's sense (one file each in `Quality/`, with its formula and
/// source): one algorithm, which may fill several outputs (``LuminanceMeasure``: mean and
/// variance; ``ExposureMeasure``: both tails of the histogram). All use OFIQ's luminance L
/// (``ColorSpaces/luminanceImage(_:)``) unless stated. The estimator builds the region and the
/// shared histogram once (``QualityContext``), runs every measure and assembles each measure's
/// assessments into the columns by output name; the declared outputs are `region` followed by
/// the measures' outputs, so the two cannot drift apart.
package struct QualityEstimator: Estimator {
    package let name = "quality"
    package let version = "1.1.0"
    package var outputs: [OutputDescriptor] { Self.declaredOutputs }
    /// The measures, in column order.
    package static let measures: [any QualityMeasure] = [
        LuminanceMeasure(), ExposureMeasure(), DynamicRangeMeasure(), IlluminationUniformityMeasure(),
        SpecularityMeasure(), SharpnessMeasure(), BlurMeasure(), ContrastMeasure(), NaturalColourMeasure(),
        BackgroundUniformityMeasure(), BackgroundLuminanceMeasure(),
    ]
    /// Where the measures ran, filled by the estimator itself (it chooses the region).
    package static let regionOutput = OutputDescriptor(
        name: "region", unit: "", range: 0...1, direction: .none, summary: "0 whole image, 1 face region")
    /// Measures the face region, which `use_dataset_box` chooses.
    package static let readsOptions: Set<EstimatorOptionName> = [.useDatasetFaceBox]

    /// Declared by type, so profiles are validated without reading any model or cascade file.
    package static let declaredOutputs: [OutputDescriptor] = [regionOutput] + measures.flatMap(\.outputs)
    package var parameters: [String: String] {
        [
            "underexposure_max_L": "25", "overexposure_min_L": "247", "specular_min_V": "230", "specular_max_S": "0.1",
            "crete_filter_taps": "9", "skin_box_a": "5..25", "skin_box_b": "5..35",
        ]
    }

    /// The face region comes from the `face` estimator, which therefore runs first.
    package var dependencies: [String] { ["face"] }

    package init() {}

    /// Every declared output's assessment, by output short name (`sharpness`).
    package func assess(_ input: EstimatorInput) -> [String: QualityAssessment] {
        Dictionary(uniqueKeysWithValues: zip(Self.declaredOutputs.map(\.name), assessInColumnOrder(input)))
    }

    package func measure(_ input: inout EstimatorInput) throws(EstimatorFailure) -> [Double] {
        assessInColumnOrder(input).map(\.rawValue)
    }

    /// One assessment per declared output, in column order: `region`, then every measure's.
    private func assessInColumnOrder(_ input: EstimatorInput) -> [QualityAssessment] {
        let image = input.image
        let (region, onFace) = Self.measuredRegion(image: image, face: input.face)
        let regionValue = QualityAssessment.value(onFace ? 1 : 0)
        guard region.width > 0, region.height > 0 else {
            let empty = QualityAssessment.notAssessable(reason: "empty region")
            return [regionValue] + Self.measures.flatMap { $0.outputs.map { _ in empty } }
        }
        let context = QualityContext(
            image: image, luminance: ColorSpaces.luminanceImage(image), region: region, onFace: onFace)
        return [regionValue] + Self.assemble(Self.measures, on: context)
    }

    /// The measures' outputs in declaration order, each taken by its name from its measure's
    /// assessments; an output its measure did not assess is not assessable (and says which).
    /// A measure that needs a face is not run without one.
    static func assemble(_ measures: [any QualityMeasure], on context: QualityContext) -> [QualityAssessment] {
        measures.flatMap { measure -> [QualityAssessment] in
            guard context.onFace || !measure.needsFace else {
                return measure.outputs.map { _ in .notAssessable(reason: "no face region") }
            }
            let byName = measure.assess(context)
            return measure.outputs.map {
                byName[$0.name] ?? .notAssessable(reason: "\(type(of: measure)) did not assess \($0.name)")
            }
        }
    }

    /// The face box clipped to the image and rounded outwards to whole pixels, or the whole image
    /// when there is no face or the clipped box is empty.
    static func measuredRegion(image: Image, face: Box?) -> (region: Region, onFace: Bool) {
        if let face {
            let clipped = face.clipped(width: image.width, height: image.height)
            let candidate = Region(
                x0: Int(clipped.x.rounded(.down)), y0: Int(clipped.y.rounded(.down)),
                x1: Int((clipped.x + clipped.width).rounded(.up)), y1: Int((clipped.y + clipped.height).rounded(.up)))
            if candidate.width > 0, candidate.height > 0 { return (candidate, true) }
        }
        return (Region(x0: 0, y0: 0, x1: image.width, y1: image.height), false)
    }
}

/// A half-open pixel rectangle [x0, x1) x [y0, y1).
package struct Region: Sendable, Equatable {
    package var x0, y0, x1, y1: Int
    package init(x0: Int, y0: Int, x1: Int, y1: Int) {
        self.x0 = x0
        self.y0 = y0
        self.x1 = x1
        self.y1 = y1
    }
    package var width: Int { x1 - x0 }
    package var height: Int { y1 - y0 }
    package var count: Int { max(0, width) * max(0, height) }
}

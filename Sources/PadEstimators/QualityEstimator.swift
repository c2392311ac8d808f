import Foundation
import PadDataset
import PadImage

/// Face image quality measures on the face region (or the whole image when no face was found),
/// shaped after the checks capture SDKs run (LUNA: blur, darkness, lightness, illumination,
/// specularity; MiSnap: lighting, sharpness) and after OFIQ, the ISO/IEC 29794-5 reference.
///
/// Example (compiled and checked in `QualityTests.assessmentsByNameExample`):
/// `QualityEstimator().assess(input)["sharpness"]` is `.value(...)` or `.notAssessable(reason:)`;
/// `measure(&input)` gives the same as one Double per declared output (NaN when not assessable).
///
/// One type per measure (`QualityMeasure.swift`, each with its formula and source); all use
/// OFIQ's luminance L (``ColorSpaces/luminanceImage(_:)``) unless stated. The estimator builds
/// the region and the shared histogram once (``QualityContext``), runs every measure, and
/// assembles the results by output name; the declared outputs are the measures' outputs, so the
/// two cannot drift apart.
public struct QualityEstimator: Estimator {
    public let name = "quality"
    public let version = "1.1.0"
    public var outputs: [OutputDescriptor] { Self.declaredOutputs }
    /// The measures, in output (column) order.
    public static let measures: [any QualityMeasure] = [
        RegionMeasure(), LuminanceMeanMeasure(), LuminanceVarianceMeasure(), UnderexposureMeasure(),
        OverexposureMeasure(),
        DynamicRangeMeasure(), IlluminationUniformityMeasure(), SpecularityMeasure(), SharpnessMeasure(), BlurMeasure(),
        ContrastMeasure(), NaturalColourMeasure(), BackgroundUniformityMeasure(), BackgroundLuminanceMeasure(),
    ]
    /// Declared by type, so profiles are validated without reading any model or cascade file.
    public static let declaredOutputs: [OutputDescriptor] = measures.map(\.output)
    public var parameters: [String: String] {
        [
            "underexposure_max_L": "25", "overexposure_min_L": "247", "specular_min_V": "230", "specular_max_S": "0.1",
            "crete_filter_taps": "9", "skin_box_a": "5..25", "skin_box_b": "5..35",
        ]
    }

    /// The face region comes from the `face` estimator, which therefore runs first.
    public var dependencies: [String] { ["face"] }

    public init() {}

    /// Every measure's assessment, by output short name (`sharpness`).
    public func assess(_ input: EstimatorInput) -> [String: QualityAssessment] {
        Dictionary(uniqueKeysWithValues: zip(Self.measures.map(\.output.name), assessInOrder(input)))
    }

    /// The declared outputs are the measures' outputs in the same order, so the per-image path
    /// takes the assessments positionally and builds no dictionary.
    public func measure(_ input: inout EstimatorInput) throws(EstimatorFailure) -> [Double] {
        assessInOrder(input).map(\.rawValue)
    }

    /// One assessment per entry of ``measures``, in that order.
    private func assessInOrder(_ input: EstimatorInput) -> [QualityAssessment] {
        let image = input.image
        let (region, onFace) = Self.measuredRegion(image: image, face: input.face)
        guard region.width > 0, region.height > 0 else {
            return Self.measures.map {
                $0 is RegionMeasure ? .value(onFace ? 1 : 0) : .notAssessable(reason: "empty region")
            }
        }
        let context = QualityContext(
            image: image, luminance: ColorSpaces.luminanceImage(image), region: region, onFace: onFace)
        return Self.measures.map { $0.assess(context) }
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
public struct Region: Sendable, Equatable {
    public var x0, y0, x1, y1: Int
    public init(x0: Int, y0: Int, x1: Int, y1: Int) {
        self.x0 = x0
        self.y0 = y0
        self.x1 = x1
        self.y1 = y1
    }
    public var width: Int { x1 - x0 }
    public var height: Int { y1 - y0 }
    public var count: Int { max(0, width) * max(0, height) }
}

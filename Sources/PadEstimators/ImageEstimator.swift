import PadDataset
import PadImage

/// Image size after EXIF orientation: what resolution gates (LUNA OSL 720x960 to 1080x1920)
/// check.
///
/// Example: `PadEstimatorsDocExamples.imageEstimator`
/// in `Tests/PadEstimatorsTests/DocExamplesTests.swift` (compiled and run by `swift test`).
public struct ImageEstimator: Estimator {
    public let name = "image"
    public let version = "1.0.0"
    public var outputs: [OutputDescriptor] { Self.declaredOutputs }
    /// Declared by type, so profiles are validated without reading any model or cascade file.
    public static let declaredOutputs: [OutputDescriptor] = [
        .init(
            name: "width", unit: "px", minimum: 1, maximum: .infinity, direction: .none, summary: "width as displayed"),
        .init(
            name: "height", unit: "px", minimum: 1, maximum: .infinity, direction: .none, summary: "height as displayed"
        ),
        .init(
            name: "megapixels", unit: "Mpx", minimum: 0, maximum: .infinity, direction: .none,
            summary: "width x height / 1e6"),
        .init(
            name: "short_side", unit: "px", minimum: 1, maximum: .infinity, direction: .none,
            summary: "min(width, height)"),
        .init(
            name: "long_side", unit: "px", minimum: 1, maximum: .infinity, direction: .none,
            summary: "max(width, height), for orientation-free resolution gates"),
    ]
    public var parameters: [String: String] { [:] }
    public init() {}

    public func measure(_ input: inout EstimatorInput) throws(EstimatorFailure) -> [Double] {
        let w = Double(input.image.width), h = Double(input.image.height)
        return [w, h, w * h / 1e6, min(w, h), max(w, h)]
    }
}

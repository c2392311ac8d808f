import PadImage
import PadVocabulary

/// Image size after EXIF orientation: what resolution gates (LUNA OSL 720x960 to 1080x1920)
/// check.
///
/// Example: `PadEstimatorsDocExamples.imageEstimator`
/// in `Tests/PadEstimatorsTests/DocExamplesTests.swift` (compiled and run by `swift test`).
package struct ImageEstimator: Estimator {
    package let name = "image"
    package let version = "1.0.0"
    package var outputs: [OutputDescriptor] { Self.declaredOutputs }
    /// Declared by type, so profiles are validated without reading any model or cascade file.
    package static let declaredOutputs: [OutputDescriptor] = [
        pixels("width", "width as displayed"), pixels("height", "height as displayed"),
        .init(name: "megapixels", unit: "Mpx", range: .nonNegative, direction: .none, summary: "width x height / 1e6"),
        pixels("short_side", "min(width, height)"),
        pixels("long_side", "max(width, height), for orientation-free resolution gates"),
    ]
    /// A length in pixels, at least 1 (a decoded image has a pixel), with no direction.
    private static func pixels(_ name: String, _ summary: String) -> OutputDescriptor {
        .init(name: name, unit: "px", range: 1...Double.infinity, direction: .none, summary: summary)
    }
    package var parameters: [String: String] { [:] }
    package init() {}

    package func measure(_ input: inout EstimatorInput) throws(EstimatorFailure) -> [Double] {
        let w = Double(input.image.width), h = Double(input.image.height)
        return [w, h, w * h / 1e6, min(w, h), max(w, h)]
    }
}

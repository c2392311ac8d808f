import Foundation
import PadImage
import PadVocabulary

/// Eye positions inside the face: inter-eye distance (MiSnap's EyeMinDistance 90 / EyeMaxDistance
/// 160 px; Aware's minimum eye separation) and the roll of the eye line.
///
/// Example: `PadEstimatorsDocExamples.faceAndEyes`
/// in `Tests/PadEstimatorsTests/DocExamplesTests.swift` (compiled and run by `swift test`).
/// Method: OpenCV's `haarcascade_eye.xml` on the upper 60% of the face box (scale factor 1.1,
/// 3 neighbours, minimum size max(12, face width / 10)); detections are split by the face's
/// vertical midline and the best-supported one on each side is taken.
/// - `count`: eye detections in the search region;
/// - `distance_px`: distance between the two eye centres (NaN with fewer than one per side);
/// - `roll_deg`: atan2(right.y - left.y, right.x - left.x) in degrees, positive when the eye line
///   descends to the image right (NaN likewise).
package struct EyesEstimator: Estimator {
    package let name = "eyes"
    // 1.1.0: the detector follows OpenCV's scale list, row stripes and clip-after-grouping rules;
    // eye boxes now equal OpenCV's on crops where 1.0.0 differed (15 of the 80 sample photos).
    package let version = "1.1.0"
    package let detector: CascadeDetector
    package var dependencies: [String] { ["face"] }

    package var outputs: [OutputDescriptor] { Self.declaredOutputs }
    /// Searches the face region, which `use_dataset_box` chooses.
    package static let readsOptions: Set<EstimatorOptionName> = [.useDatasetFaceBox]

    /// Declared by type, so profiles are validated without reading any model or cascade file.
    package static let declaredOutputs: [OutputDescriptor] = [
        .init(
            name: "count", unit: "eyes", range: .nonNegative, direction: .none,
            summary: "eye detections in the upper face"),
        .init(name: "distance_px", unit: "px", range: .nonNegative, direction: .none, summary: "inter-eye distance"),
        .init(name: "roll_deg", unit: "deg", range: -90...90, direction: .none, summary: "eye-line angle"),
    ]
    package var parameters: [String: String] {
        [
            "cascade": detector.cascade.path, "cascade_fnv1a64": detector.cascade.contentHash,
            "scale_factor": "1.1", "min_neighbors": "3",
            "region": "upper 60% of the face box",
        ]
    }

    package init(cascadeDirectory: String, cascadeFile: String = "haarcascades/haarcascade_eye.xml") throws {
        detector = CascadeDetector(cascade: try CascadeClassifier(contentsOfFile: cascadeDirectory + "/" + cascadeFile))
    }

    package func measure(_ input: inout EstimatorInput) throws(EstimatorFailure) -> [Double] {
        guard let face = input.face else { return [0, .nan, .nan] }
        if input.gray == nil { input.gray = GrayPlane(input.image) }
        let x0 = Int(face.x.rounded(.down)), y0 = Int(face.y.rounded(.down))
        let region = input.gray!.cropped(
            x: x0, y: y0, width: Int(face.width.rounded()), height: Int((face.height * 0.6).rounded()))
        guard region.width > 24, region.height > 24 else { return [0, .nan, .nan] }
        let minimum = max(12, Int(face.width / 10))
        let found = detector.detect(
            in: region, scaleFactor: 1.1, minNeighbors: 3, minSize: (minimum, minimum), workers: input.threads)
        let offsetX = Double(max(0, min(x0, input.image.width))), offsetY = Double(max(0, min(y0, input.image.height)))
        let midline = face.centerX
        let centres = found.map { d in (x: offsetX + d.box.centerX, y: offsetY + d.box.centerY, support: d.neighbors) }
        let left = centres.filter { $0.x < midline }.max { $0.support < $1.support }
        let right = centres.filter { $0.x >= midline }.max { $0.support < $1.support }
        guard let left, let right else { return [Double(found.count), .nan, .nan] }
        input.eyeCenters = [(left.x, left.y), (right.x, right.y)]
        let dx = right.x - left.x, dy = right.y - left.y
        return [Double(found.count), (dx * dx + dy * dy).squareRoot(), atan2(dy, dx) * 180 / .pi]
    }
}

import Foundation
import PadImage
import PadVocabulary

/// Face geometry from a detector (or the dataset's face box): the checks capture SDKs make before
/// liveness (LUNA: one face, box >= 200 px, >= 10 px from the edges; DOT: face size 0.10-0.30 of
/// the shorter side).
///
/// The detector (``Detector``, `--face-detector`): UltraFace, a CNN (``UltraFaceDetector``; the
/// default), whose faces are those with probability > 0.7 after non-maximum suppression, the chosen
/// one the largest (``chooseLargest(_:)``), `confidence` its probability and `neighbors` NaN; or the
/// Haar cascade pair described below, equal to OpenCV's.
///
/// Example: `PadEstimatorsDocExamples.faceAndEyes`
/// in `Tests/PadEstimatorsTests/DocExamplesTests.swift` (compiled and run by `swift test`).
/// Cascade detections: OpenCV `detectMultiScale` with `haarcascade_frontalface_default.xml` (scale factor
/// 1.1, 3 neighbours, minimum face size max(24, 8% of the shorter image side)), equal to OpenCV's.
/// Each is then checked by a second cascade (``DetectionAgreement``: `haarcascade_frontalface_alt.xml`
/// around the box; agreement = the best intersection over union, 0-1).
/// Outputs (NaN when no face is found, except `count`):
/// - `count`: detections the second cascade agrees with (agreement >= 0.5): faces a person would
///   count. Background detections (few neighbours, no agreement) are not counted; on the sample
///   the astronaut photos' shuttle was counted as a second face by the grouped detections alone.
/// - `x`, `y`, `width`, `height`: the chosen face's box in pixels: among counted faces (or, when
///   none is counted, among all detections) the one with the most neighbours (ties: larger area,
///   then leftmost).
/// - `confidence`: the chosen face's agreement (0-1; NaN without a face, and for a dataset box,
///   which is given, not detected).
/// - `border_px`: min(x, y, W - x - width, H - y - height), negative when the box leaves the frame.
/// - `size_ratio`: max(width, height) / min(W, H) (Innovatrics DOT's face size ratio).
/// - `center_offset`: distance from the box centre to the image centre over half the image
///   diagonal (0 centred, 1 in a corner).
/// - `neighbors`: raw windows supporting the chosen face (detector confidence).
/// - `source`: 0 detector, 1 dataset box (`useDatasetBox` and the sample has one).
/// - `offset_x`, `offset_y`: signed position of the box centre relative to the image centre, as
///   a fraction of the image width and height: offset_x = (x + width/2 - W/2) / W and
///   offset_y = (y + height/2 - H/2) / H, in image coordinates after EXIF orientation (negative =
///   face left of / above the centre; 0 centred; +-0.5 at an edge). Aware's FACE_ON_LEFT/RIGHT and
///   FACE_TOO_HIGH/LOW auto-capture feedback gate on them (a mirrored selfie preview shows the
///   face on the other side than the stored image).
package struct FaceEstimator: Estimator {
    package let name = "face"
    // 1.4.0: the UltraFace CNN detector (`--face-detector`, recorded as the `detector` parameter);
    // the cascade's values are those of 1.3.0.
    // 1.3.0: `count` counts only detections a second cascade agrees with; `confidence` added.
    // 1.2.0: the detector follows OpenCV's scale list (a window as large as the image is scanned),
    // row stripes and clip-after-grouping rules; boxes can differ from 1.1.0 on such images.
    package let version = "1.4.0"
    /// The detector behind the face box: UltraFace (a CNN, ``UltraFaceDetector``) or the Haar cascade
    /// pair (``CascadeDetector`` with ``DetectionAgreement``).
    package enum Detector: Sendable {
        case network(UltraFaceDetector, name: String)
        case cascade(CascadeDetector, DetectionAgreement)
    }
    package let backend: Detector
    package let scaleFactor: Double
    package let minNeighbors: Int
    package let minSizeFraction: Double
    package let useDatasetBox: Bool
    /// The cascade detector (cascade backend only; tests of the cascade itself).
    package var detector: CascadeDetector {
        guard case .cascade(let detector, _) = backend else { preconditionFailure("not the cascade detector") }
        return detector
    }
    /// The agreement cascade (cascade backend only).
    package var agreement: DetectionAgreement {
        guard case .cascade(_, let agreement) = backend else { preconditionFailure("not the cascade detector") }
        return agreement
    }

    package var outputs: [OutputDescriptor] { Self.declaredOutputs }
    /// `use_dataset_box` replaces the detector's face by the dataset's box.
    package static let readsOptions: Set<EstimatorOptionName> = [.useDatasetFaceBox]

    /// Declared by type, so profiles are validated without reading the cascade files.
    package static let declaredOutputs: [OutputDescriptor] = [
        .init(
            name: "count", unit: "faces", range: .nonNegative, direction: .none,
            summary: "faces found: CNN probability > 0.7 after NMS, or cascade detections a second cascade agrees with"),
        boxEdge("x", .unbounded, "left"), boxEdge("y", .unbounded, "top"),
        boxEdge("width", .nonNegative, "width"), boxEdge("height", .nonNegative, "height"),
        .init(
            name: "border_px", unit: "px", range: .unbounded, direction: .higherIsBetter,
            summary: "smallest distance to a frame edge"),
        .init(
            name: "size_ratio", unit: "", range: .nonNegative, direction: .none,
            summary: "max(w, h) / shorter image side"),
        .init(
            name: "center_offset", unit: "", range: 0...1, direction: .lowerIsBetter,
            summary: "centre distance / half diagonal"),
        .init(
            name: "neighbors", unit: "windows", range: .nonNegative, direction: .higherIsBetter,
            summary: "cascade windows supporting the face (NaN with the CNN)"),
        .init(name: "source", unit: "", range: 0...1, direction: .none, summary: "0 detector, 1 dataset box"),
        centreOffset("x", side: "W", negative: "left"), centreOffset("y", side: "H", negative: "above"),
        .init(
            name: "confidence", unit: "", range: 0...1, direction: .higherIsBetter,
            summary: "chosen face: the CNN's probability, or IoU with the second cascade's box around it"),
    ]
    /// A coordinate of the chosen face's box (the detection with the most neighbours), in pixels.
    private static func boxEdge(_ name: String, _ range: ClosedRange<Double>, _ what: String) -> OutputDescriptor {
        .init(name: name, unit: "px", range: range, direction: .none, summary: "chosen face's box, \(what)")
    }
    /// `offset_x`, `offset_y`: the box centre's signed offset from the image centre along one
    /// axis, as a fraction of that image side.
    private static func centreOffset(_ axis: String, side: String, negative: String) -> OutputDescriptor {
        .init(
            name: "offset_\(axis)", unit: "fraction of \(side)", range: .unbounded, direction: .none,
            summary: "(box centre \(axis) - \(side)/2) / \(side), negative = \(negative)")
    }

    package var parameters: [String: String] {
        switch backend {
        case .network(let network, let name):
            return [
                "detector": name, "model": network.session.path, "model_sha256": network.session.sha256,
                "onnxruntime": network.session.runtime.version,
                "input": "\(network.inputWidth)x\(network.inputHeight) RGB, (v - 127) / 128",
                "score_threshold": "\(network.scoreThreshold)", "nms_iou": "\(network.iouThreshold)",
                "candidates": "\(UltraFaceDetector.candidateLimit)", "use_dataset_box": "\(useDatasetBox)",
                "chosen_face": "largest area among faces over the threshold (ties: higher score, then leftmost)",
            ]
        case .cascade(let detector, let agreement):
            return [
                "detector": "cascade", "cascade": detector.cascade.path,
                "cascade_fnv1a64": detector.cascade.contentHash,
                "scale_factor": "\(scaleFactor)", "min_neighbors": "\(minNeighbors)",
                "min_size": "max(24, \(minSizeFraction) x shorter side)", "use_dataset_box": "\(useDatasetBox)",
                "agreement_cascade": agreement.verifier.cascade.path,
                "agreement_cascade_fnv1a64": agreement.verifier.cascade.contentHash,
                "agreement": "IoU with the agreement cascade's best box in the detection grown by w/2, h/2 "
                    + "(1.1, 3, min size w/2 x h/2); counted as a face at >= \(DetectionAgreement.threshold)",
            ]
        }
    }

    /// The CNN detector: `name` is what `--face-detector` called it (`ultraface`, `ultraface-640`).
    package init(network: UltraFaceDetector, name: String, useDatasetBox: Bool = false) {
        backend = .network(network, name: name)
        scaleFactor = .nan
        minNeighbors = 0
        minSizeFraction = 0
        self.useDatasetBox = useDatasetBox
    }

    package init(
        cascadeDirectory: String, cascadeFile: String = "haarcascades/haarcascade_frontalface_default.xml",
        agreementCascadeFile: String = "haarcascades/haarcascade_frontalface_alt.xml", scaleFactor: Double = 1.1,
        minNeighbors: Int = 3, minSizeFraction: Double = 0.08, useDatasetBox: Bool = false
    ) throws {
        backend = .cascade(
            CascadeDetector(cascade: try CascadeClassifier(contentsOfFile: cascadeDirectory + "/" + cascadeFile)),
            DetectionAgreement(
                verifier: CascadeDetector(
                    cascade: try CascadeClassifier(contentsOfFile: cascadeDirectory + "/" + agreementCascadeFile))))
        self.scaleFactor = scaleFactor
        self.minNeighbors = minNeighbors
        self.minSizeFraction = minSizeFraction
        self.useDatasetBox = useDatasetBox
    }

    package func measure(_ input: inout EstimatorInput) throws(EstimatorFailure) -> [Double] {
        let width = input.image.width, height = input.image.height
        let box: Box, count: Double, neighbors: Double, source: Double, confidence: Double
        if useDatasetBox, let given = input.sample.faceBox {
            // Clipped to the image, so later crops (eyes, quality) index inside it whatever the dataset says.
            guard let clipped = Self.clip(given, width: width, height: height) else {
                throw EstimatorFailure(
                    .estimatorError, "dataset face box \(given) does not overlap the \(width)x\(height) image")
            }
            (box, count, neighbors, source, confidence) = (clipped, 1, .nan, 1, .nan)
        } else {
            guard let found = try detectFaces(&input) else {
                // count 0, source 0 (detector), everything else not assessable.
                return [0, .nan, .nan, .nan, .nan, .nan, .nan, .nan, .nan, 0, .nan, .nan, .nan]
            }
            (box, count, neighbors, source, confidence) = (
                found.box, Double(found.count), found.neighbors, 0, found.confidence
            )
        }
        input.face = box
        let border = min(box.x, box.y, Double(width) - box.x - box.width, Double(height) - box.y - box.height)
        let dx = box.centerX - Double(width) / 2, dy = box.centerY - Double(height) / 2
        let halfDiagonal = (Double(width * width + height * height)).squareRoot() / 2
        return [
            count, box.x, box.y, box.width, box.height, border, max(box.width, box.height) / Double(min(width, height)),
            min(1, (dx * dx + dy * dy).squareRoot() / halfDiagonal), neighbors, source, dx / Double(width),
            dy / Double(height), confidence,
        ]
    }

    /// The detector's faces: how many the agreement cascade confirms, and the chosen one with its
    /// agreement; nil when the detector finds nothing.
    func detectFaces(_ input: inout EstimatorInput) throws(EstimatorFailure) -> (
        count: Int, box: Box, neighbors: Double, confidence: Double
    )? {
        guard case .cascade(let detector, let agreement) = backend else {
            guard case .network(let network, _) = backend else { return nil }
            let faces: [DetectedFace]
            do { faces = try network.detect(input.image) } catch {
                throw EstimatorFailure(.estimatorError, "face detector: \(error.message)")
            }
            input.faces = faces
            guard let chosen = Self.chooseLargest(faces) else { return nil }
            // The CNN has no windows: `neighbors` is not assessable, `confidence` is its probability.
            return (faces.count, faces[chosen].box, .nan, faces[chosen].score)
        }
        if input.gray == nil { input.gray = GrayPlane(input.image) }
        let gray = input.gray!
        let minimum = max(24, Int((minSizeFraction * Double(min(gray.width, gray.height))).rounded()))
        let found = detector.detect(
            in: gray, scaleFactor: scaleFactor, minNeighbors: minNeighbors, minSize: (minimum, minimum),
            workers: input.threads)
        let agreements = found.map { agreement.agreement(of: $0, in: gray, workers: input.threads) }
        guard let chosen = Self.choose(found, agreements: agreements) else { return nil }
        input.faces = found.indices.map { DetectedFace(box: found[$0].box, score: agreements[$0]) }
        let best = found[chosen.best]
        return (chosen.count, best.box, Double(best.neighbors), agreements[chosen.best])
    }

    /// How many detections count as faces (agreement >= ``DetectionAgreement/threshold``) and which
    /// one is measured: counted faces first, then the best-supported, most neighbours (raw windows
    /// that agree), ties by area, then leftmost; nil without detections. Background false positives
    /// are usually small clusters; choosing the largest box picked them over the real face (sample
    /// image 000008: 5 neighbours vs 40).
    static func choose(_ found: [Detection], agreements: [Double]) -> (count: Int, best: Int)? {
        let counted = agreements.map { $0 >= DetectionAgreement.threshold ? 1 : 0 }
        guard
            let best = found.indices.max(by: { i, j in
                let a = found[i], b = found[j]
                return (counted[i], a.neighbors, a.width * a.height, -a.x)
                    < (counted[j], b.neighbors, b.width * b.height, -b.x)
            })
        else { return nil }
        return (counted.reduce(0, +), best)
    }

    /// The CNN's chosen face: the largest box (area), ties by higher score, then leftmost; nil
    /// without faces. A capture SDK measures the person in front of the camera, whose face is the
    /// largest; a face on a poster behind them is smaller.
    static func chooseLargest(_ faces: [DetectedFace]) -> Int? {
        faces.indices.max { i, j in
            let a = faces[i], b = faces[j]
            return (a.box.width * a.box.height, a.score, -a.box.x) < (b.box.width * b.box.height, b.score, -b.box.x)
        }
    }

    /// The part of `box` inside a width x height image; nil when none is (or it is not finite).
    package static func clip(_ box: Box, width: Int, height: Int) -> Box? {
        guard [box.x, box.y, box.width, box.height].allSatisfy(\.isFinite) else { return nil }
        let x0 = max(0, box.x), y0 = max(0, box.y)
        let x1 = min(Double(width), box.x + box.width), y1 = min(Double(height), box.y + box.height)
        guard x1 - x0 >= 1, y1 - y0 >= 1 else { return nil }
        return Box(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

import PadImage
import PadVocabulary

/// How far a second, independently trained cascade agrees with each detection of the first: the
/// face detector's confidence, and what decides whether a detection is counted as a face.
///
/// Viola & Jones (IJCV 2004, section 5.7) removed false detections by voting among separately
/// trained detectors: a window that several detectors find is a face far more often than one only
/// one of them finds. padbench asks OpenCV's `haarcascade_frontalface_alt.xml` (Lienhart's cascade,
/// trained apart from `haarcascade_frontalface_default.xml`) to look again around each detection:
///
/// - region: the detection box grown by half its width and height on every side (integer halves,
///   `w / 2` and `h / 2`), clipped to the image;
/// - the second cascade runs on that crop with scale factor 1.1, 3 neighbours and minimum size
///   (w / 2, h / 2), i.e. OpenCV's `detectMultiScale` on `gray[y0:y1, x0:x1]`;
/// - agreement = the largest intersection over union between the detection and a box it finds
///   there (0 when it finds none): 1 when both cascades put the face in the same place.
///
/// A detection with agreement >= ``threshold`` (0.5, PASCAL VOC's matching criterion) is a face.
/// Measured on the committed sample (80 photos) with OpenCV 4.14: every detection of a real face
/// agreed at 0.79 to 1.00, every background detection (the shuttle behind the astronaut, 23
/// detections) at 0.00. Both cascades equal OpenCV's detections, so the agreement equals what
/// OpenCV computes (Tests/PadEstimatorsTests/Fixtures/cascade/make_agreement.py).
package struct DetectionAgreement: Sendable {
    package let verifier: CascadeDetector
    /// The agreement at which a detection counts as a face.
    package static let threshold = 0.5

    package init(verifier: CascadeDetector) { self.verifier = verifier }

    /// The agreement of `detection` (image pixels of `plane`) in [0, 1].
    package func agreement(of detection: Detection, in plane: GrayPlane, workers: Int = 1) -> Double {
        let halfWidth = detection.width / 2, halfHeight = detection.height / 2
        let x0 = max(0, detection.x - halfWidth), y0 = max(0, detection.y - halfHeight)
        let x1 = min(plane.width, detection.x + detection.width + halfWidth)
        let y1 = min(plane.height, detection.y + detection.height + halfHeight)
        guard x1 > x0, y1 > y0 else { return 0 }
        let region = plane.cropped(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        let found = verifier.detect(
            in: region, scaleFactor: 1.1, minNeighbors: 3, minSize: (halfWidth, halfHeight), workers: workers)
        let box = detection.box
        return found.reduce(0) { best, other in
            max(
                best,
                box.iou(
                    Box(
                        x: Double(x0 + other.x), y: Double(y0 + other.y), width: Double(other.width),
                        height: Double(other.height))))
        }
    }
}

import PadImage
import PadONNX
import PadVocabulary

/// A face found by a detector: its box in image pixels and the detector's confidence (0-1).
package struct DetectedFace: Sendable, Equatable {
    package var box: Box
    package var score: Double
    package init(box: Box, score: Double) {
        self.box = box
        self.score = score
    }
}

/// Ultra-Light-Fast-Generic-Face-Detector-1MB (Linzaer, 2019, MIT licence; `version-RFB-320.onnx`
/// and `version-RFB-640.onnx`), a single-shot CNN detector with receptive-field blocks, run through
/// ONNX Runtime with upstream's pre- and post-processing (`detect_imgs_onnx.py`,
/// `vision/utils/box_utils_numpy.py` at commit dffdddd):
/// - input: the upright RGB image resized to the model's size (320x240 or 640x480) with OpenCV's
///   bilinear rule (``PadImage/Image/resizedLinear(x0:y0:regionWidth:regionHeight:width:height:)``),
///   each value `(v - 127) / 128`, planar (1 x 3 x H x W), float32; a gray image is three equal
///   planes (what `cv2.imread` gives);
/// - outputs: `scores` (N x 2 softmax, class 1 = face) and `boxes` (N x 4, corners relative to the
///   image, x1 y1 x2 y2), N = 4420 (RFB-320) or 17640 (RFB-640);
/// - post-processing: candidates with face probability > ``scoreThreshold`` (0.7), the 200 most
///   probable, greedy hard non-maximum suppression in probability order dropping every box whose
///   IoU with a kept one exceeds ``iouThreshold`` (0.3; IoU = overlap / (area0 + area1 - overlap +
///   1e-5), areas without the +1 pixel), corners times the image width and height (float32).
///
/// Example: `UltraFaceTests.boxesEqualPythonOnnxRuntime` in `Tests/PadEstimatorsTests/OnnxNetworkTests.swift`.
package struct UltraFaceDetector: Sendable {
    package let session: OnnxSession
    package let inputWidth: Int
    package let inputHeight: Int
    package let scoreThreshold: Float
    package let iouThreshold: Float
    /// Candidates kept before suppression (upstream's `candidate_size`).
    package static let candidateLimit = 200
    private let scoresOutput: Int
    private let boxesOutput: Int

    /// Loads the model and checks that it is an UltraFace-shaped network: one 1 x 3 x H x W input
    /// and outputs `scores` (1 x N x 2) and `boxes` (1 x N x 4).
    package init(
        runtime: OnnxRuntime, modelPath: String, scoreThreshold: Float = 0.7, iouThreshold: Float = 0.3
    ) throws(OnnxError) {
        let session = try OnnxSession(runtime: runtime, path: modelPath)
        guard session.inputs.count == 1, session.inputs[0].shape.count == 4, session.inputs[0].shape[1] == 3,
            session.inputs[0].shape[2] > 0, session.inputs[0].shape[3] > 0
        else {
            throw OnnxError(
                .model,
                "\(modelPath): not an UltraFace detector (input \(session.inputs.map(\.description)), "
                    + "expected one 1x3xHxW image)")
        }
        let scores = session.outputs.firstIndex { $0.name == "scores" }
        let boxes = session.outputs.firstIndex { $0.name == "boxes" }
        guard let scores, let boxes, session.outputs[scores].shape.last == 2, session.outputs[boxes].shape.last == 4
        else {
            throw OnnxError(
                .model,
                "\(modelPath): not an UltraFace detector (outputs \(session.outputs.map(\.description)), "
                    + "expected scores [1,N,2] and boxes [1,N,4])")
        }
        self.session = session
        inputHeight = session.inputs[0].shape[2]
        inputWidth = session.inputs[0].shape[3]
        self.scoreThreshold = scoreThreshold
        self.iouThreshold = iouThreshold
        scoresOutput = scores
        boxesOutput = boxes
    }

    /// Every face in `image`, most probable first.
    package func detect(_ image: Image) throws(OnnxError) -> [DetectedFace] {
        let outputs = try session.run(
            Self.tensor(image, width: inputWidth, height: inputHeight), shape: [1, 3, inputHeight, inputWidth])
        return Self.faces(
            scores: outputs[scoresOutput].values, boxes: outputs[boxesOutput].values, width: image.width,
            height: image.height, scoreThreshold: scoreThreshold, iouThreshold: iouThreshold)
    }

    /// The network's input: resized, `(v - 127) / 128` (as `v / 128 - 127 / 128`, the same float:
    /// every term is exact), planar RGB.
    package static func tensor(_ image: Image, width: Int, height: Int) -> [Float] {
        image.resizedLinear(width: width, height: height).tensor(
            order: .rgb, scale: 1.0 / 128, mean: [127.0 / 128, 127.0 / 128, 127.0 / 128])
    }

    /// Upstream's `predict`: threshold, hard NMS, boxes to pixels.
    package static func faces(
        scores: [Float], boxes: [Float], width: Int, height: Int, scoreThreshold: Float, iouThreshold: Float
    ) -> [DetectedFace] {
        let count = min(scores.count / 2, boxes.count / 4)
        var candidates = (0..<count).filter { scores[2 * $0 + 1] > scoreThreshold }
        // Ascending by probability as numpy's argsort, then the last 200; ties by index (stable).
        candidates.sort { (scores[2 * $0 + 1], $0) < (scores[2 * $1 + 1], $1) }
        candidates = Array(candidates.suffix(candidateLimit))
        var kept: [Int] = []
        while let current = candidates.popLast() {
            kept.append(current)
            candidates.removeAll { iou(boxes, $0, current) > iouThreshold }
        }
        let w = Float(width), h = Float(height)
        return kept.map { i in
            let x1 = boxes[4 * i] * w, y1 = boxes[4 * i + 1] * h, x2 = boxes[4 * i + 2] * w, y2 = boxes[4 * i + 3] * h
            return DetectedFace(
                box: Box(x: Double(x1), y: Double(y1), width: Double(x2 - x1), height: Double(y2 - y1)),
                score: Double(scores[2 * i + 1]))
        }
    }

    /// Upstream's `iou_of` in float32: areas clipped at 0, no +1 pixel, eps 1e-5.
    static func iou(_ boxes: [Float], _ a: Int, _ b: Int) -> Float {
        func area(_ x1: Float, _ y1: Float, _ x2: Float, _ y2: Float) -> Float { max(x2 - x1, 0) * max(y2 - y1, 0) }
        let overlap = area(
            max(boxes[4 * a], boxes[4 * b]), max(boxes[4 * a + 1], boxes[4 * b + 1]),
            min(boxes[4 * a + 2], boxes[4 * b + 2]), min(boxes[4 * a + 3], boxes[4 * b + 3]))
        let areaA = area(boxes[4 * a], boxes[4 * a + 1], boxes[4 * a + 2], boxes[4 * a + 3])
        let areaB = area(boxes[4 * b], boxes[4 * b + 1], boxes[4 * b + 2], boxes[4 * b + 3])
        return overlap / (areaA + areaB - overlap + 1e-5)
    }
}

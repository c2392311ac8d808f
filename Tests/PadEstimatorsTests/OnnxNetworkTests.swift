import Foundation
import PadSamples
import PadImage
import PadONNX
import Testing

@testable import PadEstimators
import TestSupport
import PadVocabulary

/// The image's pixels as RGB bytes (a gray image's value three times), as OpenCV's 3-channel arrays hold them.
func rgbBytes(_ image: Image) -> [UInt8] {
    image.format == .rgb ? image.pixels : image.pixels.flatMap { [$0, $0, $0] }
}

/// ``PadImage/Image/resizedLinear(x0:y0:regionWidth:regionHeight:width:height:)`` against
/// `cv2.resize(..., INTER_LINEAR)`: byte-equal on the committed cases (up, down, 2x area, gray).
@Suite struct LinearResizeTests {
    @Test func equalsOpenCV() throws {
        let cases = OnnxReferences.loaded.resize
        #expect(cases.count >= 20)
        for item in cases {
            let source = try ImageDecoder().decode(fileAt: OnnxReferences.folder + "/" + item.in)
            let expected = try ImageDecoder().decode(fileAt: OnnxReferences.folder + "/" + item.out)
            #expect(source.width == item.src_width && source.height == item.src_height)
            let resized = source.resizedLinear(width: item.dst_width, height: item.dst_height)
            #expect(resized.width == expected.width && resized.height == expected.height)
            #expect(rgbBytes(resized) == rgbBytes(expected), "\(item.in) -> \(item.dst_width)x\(item.dst_height)")
        }
    }

    /// A region resized is the region copied out and resized.
    @Test func regionEqualsCropThenResize() throws {
        let image = try OnnxReferences.image("datasets/sample/eval/bonafide/000000.jpg")
        let region = image.resizedLinear(x0: 100, y0: 40, regionWidth: 201, regionHeight: 157, width: 80, height: 80)
        var cropped = [UInt8]()
        for row in 40..<(40 + 157) {
            cropped += image.pixels[((row * image.width + 100) * 3)..<((row * image.width + 301) * 3)]
        }
        let copy = Image(width: 201, height: 157, format: .rgb, pixels: cropped)
        #expect(region == copy.resizedLinear(width: 80, height: 80))
    }
}

/// ``UltraFaceDetector`` against Python onnxruntime with upstream's pipeline on the same images.
@Suite struct UltraFaceTests {
    static let runtime = try! OnnxRuntime.load()
    static let rfb320 = try! UltraFaceDetector(
        runtime: runtime, modelPath: OnnxReferences.models + "/ultraface/version-RFB-320.onnx")
    static let rfb640 = try! UltraFaceDetector(
        runtime: runtime, modelPath: OnnxReferences.models + "/ultraface/version-RFB-640.onnx")

    /// Every reference image (101 with RFB-320, 101 with RFB-640): the same number of faces, each
    /// box within 0.5 px (in practice equal to float32 rounding) and each probability within 1e-5.
    @Test(.thorough) func boxesEqualPythonOnnxRuntime() throws {
        let references = OnnxReferences.loaded.ultraface
        #expect(references.count >= 80)
        var boxesCompared = 0
        for reference in references {
            let image = try OnnxReferences.image(reference.image)
            let detector = reference.model == "RFB-640" ? Self.rfb640 : Self.rfb320
            let faces = try detector.detect(image)
            try #require(faces.count == reference.faces.count, "\(reference.image) \(reference.model)")
            for (face, expected) in zip(faces, reference.faces) {
                let box = face.box
                let corners = [box.x, box.y, box.x + box.width, box.y + box.height]
                for (value, want) in zip(corners, expected.prefix(4)) {
                    #expect(abs(value - want) <= 0.5, "\(reference.image): \(corners) vs \(expected)")
                }
                #expect(abs(face.score - expected[4]) <= 1e-5)
                boxesCompared += 1
            }
        }
        #expect(boxesCompared >= 150)
    }

    /// The raw network outputs on the same tensor (the first 20 anchors), within 1e-5.
    @Test func rawOutputsEqualPython() throws {
        for raw in OnnxReferences.loaded.ultraface_raw {
            let image = try OnnxReferences.image(raw.image)
            let detector = raw.model == "RFB-640" ? Self.rfb640 : Self.rfb320
            let tensor = UltraFaceDetector.tensor(image, width: detector.inputWidth, height: detector.inputHeight)
            let outputs = try detector.session.run(tensor, shape: [1, 3, detector.inputHeight, detector.inputWidth])
            let scores = outputs.first { $0.shape.last == 2 }!.values
            let boxes = outputs.first { $0.shape.last == 4 }!.values
            for i in 0..<20 {
                #expect(abs(Double(scores[2 * i + 1]) - raw.scores_class1_first20[i]) <= 1e-5)
                for j in 0..<4 { #expect(abs(Double(boxes[4 * i + j]) - raw.boxes_first20[i][j]) <= 1e-5) }
            }
        }
    }

    /// A model that is not UltraFace-shaped is refused when loaded, naming the file and its tensors.
    @Test func refusesOtherNetworks() {
        let error = #expect(throws: OnnxError.self) {
            try UltraFaceDetector(
                runtime: Self.runtime,
                modelPath: OnnxReferences.models + "/minifasnet/2.7_80x80_MiniFASNetV2.onnx")
        }
        #expect(error?.message.contains("not an UltraFace detector") == true)
    }
}

/// ``MiniFASNetEstimator`` against Python onnxruntime and upstream's crop rule.
@Suite struct MiniFASNetTests {
    static let estimator = try! MiniFASNetEstimator(
        runtime: try! OnnxRuntime.load(), folder: OnnxReferences.models + "/minifasnet", runners: 2)

    /// Upstream's `_get_new_box` and `cv2.resize` to 80x80: the same integer region and the same
    /// bytes on every reference (96 crops per network: manifest boxes, detector boxes, edge cases).
    @Test func cropsEqualUpstream() throws {
        let references = OnnxReferences.loaded.minifasnet
        #expect(references.count >= 40)
        for reference in references {
            let image = try OnnxReferences.image(reference.image)
            let box = Box(x: reference.box[0], y: reference.box[1], width: reference.box[2], height: reference.box[3])
            for (scale, region, png) in [
                (2.7, reference.crop_v2, reference.png_v2), (4.0, reference.crop_v1se, reference.png_v1se),
            ] {
                let mine = FaceCrop.region(
                    box: box, imageWidth: image.width, imageHeight: image.height, scale: scale)
                #expect([mine.left, mine.top, mine.right, mine.bottom] == region, "\(reference.k) x\(scale)")
                let crop = FaceCrop.resized(image, box: box, scale: scale, width: 80, height: 80)
                let expected = try ImageDecoder().decode(fileAt: OnnxReferences.folder + "/" + png)
                #expect(rgbBytes(crop) == rgbBytes(expected), "crop \(reference.k) x\(scale)")
            }
        }
    }

    /// Each network's softmax and the averaged score, from the image and box through padbench's own
    /// crop, within 1e-5 of Python onnxruntime's on upstream's crop.
    @Test func probabilitiesEqualPythonOnnxRuntime() throws {
        for reference in OnnxReferences.loaded.minifasnet {
            var input = EstimatorInput(
                sample: Sample(id: "s", path: reference.image, label: .bonaFide, split: .eval),
                image: try OnnxReferences.image(reference.image))
            input.face = Box(
                x: reference.box[0], y: reference.box[1], width: reference.box[2], height: reference.box[3])
            let values = try Self.estimator.measure(&input)
            #expect(abs(values[0] - reference.score) <= 1e-5, "\(reference.k)")
            #expect(abs(values[1] - reference.v2[1]) <= 1e-5)
            #expect(abs(values[2] - reference.v1se[1]) <= 1e-5)
        }
    }

    /// Many threads at once: the batcher stacks their crops (dynamic-batch models) and every
    /// thread gets its own sample's probabilities, equal to the single runs.
    @Test func batchesEqualSingleRuns() async throws {
        let references = Array(OnnxReferences.loaded.minifasnet.prefix(24))
        let estimator = try MiniFASNetEstimator(
            runtime: try OnnxRuntime.load(), folder: OnnxReferences.models + "/minifasnet", maxBatch: 8, runners: 1)
        let results = try await withThrowingTaskGroup(of: (Int, [Double]).self) { group in
            for (index, reference) in references.enumerated() {
                group.addTask {
                    var input = EstimatorInput(
                        sample: Sample(id: "s\(index)", path: reference.image, label: .bonaFide, split: .eval),
                        image: try OnnxReferences.image(reference.image))
                    input.face = Box(
                        x: reference.box[0], y: reference.box[1], width: reference.box[2], height: reference.box[3])
                    return (index, try estimator.measure(&input))
                }
            }
            var all: [Int: [Double]] = [:]
            for try await (index, values) in group { all[index] = values }
            return all
        }
        for (index, reference) in references.enumerated() {
            #expect(abs(results[index]![0] - reference.score) <= 1e-5)
        }
        let counts = estimator.networks[0].batcher.counts
        #expect(counts.items == references.count)
    }

    /// No face box: not assessable (NaN), not a failure.
    @Test func noFaceIsNotAssessable() throws {
        var input = EstimatorInput(
            sample: Sample(id: "s", path: "x", label: .bonaFide, split: .eval),
            image: Image(width: 64, height: 48, format: .rgb))
        let values = try Self.estimator.measure(&input)
        #expect(values.count == 3 && values.allSatisfy(\.isNaN))
    }
}

/// ``FaceDetectorChoice``: each `--face-detector` builds the `face` estimator it names, and the
/// CNN's estimator finds the sample's profile face that no frontal cascade finds.
@Suite struct FaceDetectorChoiceTests {
    @Test func buildsEachDetector() throws {
        var options = EstimatorOptions()
        options.modelDirectory = OnnxReferences.models
        for choice in FaceDetectorChoice.allCases {
            options.faceDetector = choice
            let face = try choice.makeEstimator(options: options)
            #expect(face.parameters["detector"] == choice.rawValue)
            if choice != .cascade {
                #expect(face.parameters["model"]?.hasSuffix(choice.modelFile!) == true)
            }
        }
        options.faceDetector = .ultraface
        options.modelDirectory = "/nonexistent-models"
        let missing = #expect(throws: EstimatorSetupError.self) {
            try options.faceDetector.makeEstimator(options: options)
        }
        #expect(missing?.message.contains("/nonexistent-models/ultraface/version-RFB-320.onnx") == true)
        #expect(missing?.message.contains("--models DIR or --face-detector cascade") == true)
    }

    /// The sample's profile face (`dev/bonafide/000002.jpg`, cameraman; no frontal cascade finds it,
    /// `datasets/README.md`): one face for the CNN, its confidence the probability Python
    /// onnxruntime gives, every detected face handed on to later estimators.
    @Test func findsTheProfileFace() throws {
        var options = EstimatorOptions()
        options.modelDirectory = OnnxReferences.models
        let face = try FaceDetectorChoice.ultraface.makeEstimator(options: options)
        var input = EstimatorInput(
            sample: Sample(id: "s", path: "x", label: .bonaFide, split: .dev),
            image: try OnnxReferences.image("datasets/sample/dev/bonafide/000002.jpg"))
        let values = try face.measure(&input)
        #expect(values[0] == 1)
        let reference = OnnxReferences.loaded.ultraface.first {
            $0.image == "datasets/sample/dev/bonafide/000002.jpg" && $0.model == "RFB-320"
        }!
        #expect(abs(values[12] - reference.faces[0][4]) <= 1e-5) // confidence = the CNN's probability
        #expect(values[8].isNaN) // no cascade windows
        #expect(input.faces.count == 1 && input.face == input.faces[0].box)
    }
}

/// ``PadImage/Image/tensor(order:planar:scale:mean:std:)`` on a hand-made 2x1 image, against the
/// formulas of the three networks written out by hand.
@Suite struct ImageTensorTests {
    static let image = Image(width: 2, height: 1, format: .rgb, pixels: [10, 20, 30, 200, 100, 0])

    @Test func formulasOfTheThreeNetworks() {
        // MiniFASNet: BGR, 0-255, planar.
        #expect(Self.image.tensor(order: .bgr) == [30, 0, 20, 100, 10, 200])
        // UltraFace: RGB, (v - 127) / 128, planar.
        let ultra: [Float] = [10, 200, 20, 100, 30, 0].map { (Float($0) - 127) / 128 }
        #expect(
            Self.image.tensor(order: .rgb, scale: 1.0 / 128, mean: [127.0 / 128, 127.0 / 128, 127.0 / 128]) == ultra)
        // A user's spec: RGB, interleaved, (v / 255 - mean) / std per channel.
        let mean = [0.485, 0.456, 0.406], std = [0.229, 0.224, 0.225]
        let expected: [Float] = [10, 20, 30, 200, 100, 0].enumerated().map { i, v in
            Float((Double(v) / 255 - mean[i % 3]) / std[i % 3])
        }
        #expect(Self.image.tensor(order: .rgb, planar: false, scale: 1.0 / 255, mean: mean, std: std) == expected)
        // Gray: OpenCV's luma of each pixel; a gray image in every colour channel.
        #expect(Self.image.tensor(order: .gray) == GrayPlane(Self.image).pixels.map(Float.init))
        let gray = Image(width: 2, height: 1, format: .gray, pixels: [7, 9])
        #expect(gray.tensor(order: .bgr) == [7, 9, 7, 9, 7, 9])
    }
}

import CLinux
import Foundation
import Testing
import PadSamples
@testable import PadEstimators
@testable import PadExternal
import PadImage
import TestSupport
import PadVocabulary

/// The examples the PadEstimators doc comments point to, compiled and checked here.
@Suite struct PadEstimatorsDocExamples {
    static let cascades = "/usr/share/opencv4"
    static func input(_ image: Image, face: Box? = nil) -> EstimatorInput {
        EstimatorInput(sample: Sample(id: "x", path: "x", label: .bonaFide), image: image, face: face)
    }

    /// ``EstimatorRegistry``: asking for `quality` and `eyes` builds `face` first (both depend on
    /// it), each estimator once, dependencies before dependants.
    @Test func registryOrdersDependencies() throws {
        let registry = EstimatorRegistry(entries: [
            .init(name: "image", summary: "size") { _ in ImageEstimator() },
            .init(name: "face", summary: "face") { try FaceEstimator(cascadeDirectory: $0.cascadeDirectory) },
            .init(name: "eyes", summary: "eyes") { try EyesEstimator(cascadeDirectory: $0.cascadeDirectory) },
            .init(name: "quality", summary: "quality") { _ in QualityEstimator() },
        ])
        let estimators = try registry.make(
            ["quality", "eyes"], options: EstimatorOptions(cascadeDirectory: Self.cascades))
        #expect(estimators.map(\.name) == ["face", "eyes", "quality"])
    }

    /// ``Estimator`` and ``ImageEstimator``: one value per declared output, in declaration order.
    @Test func imageEstimator() throws {
        var input = Self.input(Image(width: 640, height: 480, format: .gray))
        let estimator = ImageEstimator()
        let values = try estimator.measure(&input)
        #expect(values == [640, 480, 0.3072, 480, 640])
        #expect(values.count == estimator.outputs.count && estimator.outputNames[2] == "image.megapixels")
    }

    /// ``FaceEstimator`` and ``EyesEstimator``: built from OpenCV's cascades; on an image without
    /// a face, `face.count` is 0, no face box is set and the eyes are not assessable.
    @Test func faceAndEyes() throws {
        let face = try FaceEstimator(cascadeDirectory: Self.cascades)
        let eyes = try EyesEstimator(cascadeDirectory: Self.cascades)
        #expect(eyes.dependencies == ["face"])
        var input = Self.input(Image(width: 64, height: 48, format: .gray))
        let values = try face.measure(&input)
        #expect(values[0] == 0 && input.face == nil)
        #expect(try eyes.measure(&input).allSatisfy { $0.isNaN || $0 == 0 })
    }

    /// ``LogisticModel``: trained on two separable points it scores each on its side of 0.5, and
    /// the written model reads back equal.
    @Test func logisticModel() throws {
        let model = try LogisticModel.train(
            features: [[0], [1]], bonaFide: [false, true], featureSet: "lbp-color",
            featureVersion: "1", featureNames: ["f"], fingerprint: "test")
        #expect(model.score([1]) > 0.5 && model.score([0]) < 0.5)
        let path = TestFolder.root + "/padbench-doc-model-\(UUID().uuidString).json"
        try model.write(to: path)
        #expect(try LogisticModel.read(from: path) == model)
    }

    /// ``ColorTextureFeatures`` and ``IDAFeatures``: fixed-length vectors (354 and 121 values).
    @Test func featureVectors() {
        let image = Image(width: 96, height: 96, format: .rgb, pixels: [UInt8](repeating: 128, count: 96 * 96 * 3))
        let box = Box(x: 16, y: 16, width: 64, height: 64)
        #expect(ColorTextureFeatures.extract(image, face: box).count == 354)
        #expect(IDAFeatures.extract(image, face: box).count == 121)
    }

    /// ``ExternalProcess``: one line out, one line back (`cat` echoes it); `terminate` ends it.
    @Test func externalProcessExchange() throws {
        let process = try ExternalProcess(command: "cat")
        let line = try process.exchange(Array("{\"describe\": true}".utf8), timeout: 10)
        #expect(line == Array("{\"describe\": true}".utf8))
        process.terminate()
        #expect(throws: EstimatorFailure.self) { try process.exchange(Array("x".utf8), timeout: 1) }
    }
}

/// The cascade and process examples of PadEstimators' doc comments.
@Suite struct PadEstimatorsCascadeDocExamples {
    /// ``CascadeClassifier`` and ``CascadeDetector``: OpenCV's frontal-face cascade finds the one
    /// face of the sample's first bona fide image (the manifest's box: x 239.9, y 32.6, 88 wide).
    @Test func cascadeFindsTheSampleFace() throws {
        let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("datasets/sample/eval/bonafide/000000.jpg").path
        let gray = GrayPlane(try ImageDecoder().decode(fileAt: sample))
        let cascade = try CascadeClassifier(
            contentsOfFile: "/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml")
        let faces = CascadeDetector(cascade: cascade).detect(in: gray, minNeighbors: 3)
        let face = try #require(faces.max { $0.neighbors < $1.neighbors })
        #expect(abs(Double(face.x) - 239.9) < 20 && abs(Double(face.y) - 32.6) < 20)
        #expect(abs(Double(face.width) - 88.1) < 20)
    }

    /// ``ChildProcesses``: compiled only. Running it here would end every child of the test
    /// process, including those of tests running beside it; `ChildProcessesCLITests` runs it in
    /// the `padbench` process instead.
    static func childProcesses() -> Int {
        ChildProcesses.becomeSubreaper()
        // ... the run ...
        let ended = ChildProcesses.endAll()
        return ended
    }

    /// ``SpawnThread``: `true` started on the spawn thread exits 0.
    @Test func spawnThread() throws {
        let path = "/bin/true"
        let arguments = [strdup(path), nil]
        defer { free(arguments[0]) }
        try arguments.withUnsafeBufferPointer { buffer in
            let argv = UnsafeMutablePointer(mutating: buffer.baseAddress!)
            let pid = SpawnThread.shared.run { padbench_spawn(path, argv, environ, 0, 1, 2) }
            try #require(pid > 0)
            var status: Int32 = 0
            #expect(waitpid(pid, &status, 0) == pid && status == 0)
        }
    }
}

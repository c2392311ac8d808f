import Foundation
import PadSamples
import PadImage
import PadONNX
import Testing

@testable import PadEstimators
import PadVocabulary

/// ``OnnxModelEstimator`` and ``OnnxModelSpec``: a user's network declared by a spec file.
@Suite struct OnnxModelTests {
    static let runtime = try! OnnxRuntime.load()
    static let example = OnnxReferences.root + "/examples/onnx/minifasnet-v2.yaml"

    /// docs/estimators.md's example spec runs MiniFASNetV2 as a user's model: the same probabilities as
    /// Python onnxruntime on upstream's crops (and so as `minifasnet.v2`), within 1e-5.
    @Test func specReproducesMiniFASNetV2() throws {
        let estimator = try OnnxModelEstimator(name: "mine", specPath: Self.example, runtime: Self.runtime, runners: 2)
        #expect(estimator.outputNames == ["mine.score"] && estimator.dependencies == ["face"])
        #expect(
            estimator.parameters["model_sha256"] == "85d926c424634db783b93d984e986b841aec7cf8f5f9ee014c31f31cdc3bacce")
        for reference in OnnxReferences.loaded.minifasnet.prefix(48) {
            var input = EstimatorInput(
                sample: Sample(id: "s", path: reference.image, label: .bonaFide, split: .eval),
                image: try OnnxReferences.image(reference.image))
            input.face = Box(
                x: reference.box[0], y: reference.box[1], width: reference.box[2], height: reference.box[3])
            let score = try estimator.measure(&input)
            #expect(abs(score[0] - reference.v2[1]) <= 1e-5, "\(reference.k)")
        }
    }

    /// `region: image` feeds the whole image; no face is needed.
    @Test func wholeImageNeedsNoFace() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let spec = folder + "/whole.yaml"
        try """
        model: \(OnnxReferences.models)/minifasnet/2.7_80x80_MiniFASNetV2.onnx
        input: {width: 80, height: 80, color: bgr, scale: 1}
        crop: {region: image}
        output: {softmax: true, bona_fide_class: 1}
        """.write(toFile: spec, atomically: true, encoding: .utf8)
        let estimator = try OnnxModelEstimator(name: "whole", specPath: spec, runtime: Self.runtime, runners: 1)
        #expect(estimator.dependencies.isEmpty)
        var input = EstimatorInput(
            sample: Sample(id: "s", path: "x", label: .bonaFide, split: .eval),
            image: try OnnxReferences.image("datasets/sample/eval/bonafide/000000.jpg"))
        let value = try estimator.measure(&input)[0]
        // The whole image through the same network, computed here from the raw session.
        let session = try OnnxSession(
            runtime: Self.runtime, path: OnnxReferences.models + "/minifasnet/2.7_80x80_MiniFASNetV2.onnx")
        let tensor = input.image.resizedLinear(width: 80, height: 80).tensor(order: .bgr)
        let logits = try session.run(tensor, shape: [1, 3, 80, 80])[0].values
        #expect(abs(value - MiniFASNetEstimator.softmax(logits)[1]) <= 1e-9)
    }

    /// Every wrong spec or mismatched model is one line naming the file (and the line), before any sample.
    @Test func refusesWrongSpecs() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let v2 = OnnxReferences.models + "/minifasnet/2.7_80x80_MiniFASNetV2.onnx"
        let cases: [(String, String)] = [
            ("model: \(v2)\ninput: {width: 80, height: 80}\nextra: 1\n", ":3: unknown key 'extra' in the spec"),
            ("model: \(v2)\ninput: {width: 80}\n", "`input` needs `width` and `height`"),
            ("input: {width: 80, height: 80}\n", "`model` (the .onnx file) is missing"),
            ("model: \(v2)\ninput: {width: 80, height: 80, std: [1, 0, 1]}\n", "must not hold 0"),
            (
                "model: \(v2)\ninput: {width: 80, height: 80, mean: [1, 2]}\n",
                "`input.mean` must be a list of 3 numbers"
            ),
            ("model: \(v2)\ninput: {width: 80, height: 80, layout: chw}\n", "`input.layout` must be nchw or nhwc"),
            (
                "model: \(v2)\ninput: {width: 80, height: 80}\noutput: {bona_fide_class: 3}\n",
                "bona_fide_class 3 is out of range"
            ),
            ("model: \(v2)\ninput: {width: 112, height: 112}\n", "is 80x80 pixels, the spec says 112x112"),
            ("model: \(v2)\ninput: {width: 80, height: 80, color: gray}\n", "has 3 channels on the nchw channel axis"),
            ("model: \(v2)\ninput: {width: 80, height: 80}\nbatch: 8\n", "batch 8 needs a dynamic batch dimension"),
            ("model: \(v2)\ninput: {width: 80, height: 80}\noutput: {name: nope}\n", "no output named 'nope'"),
            (
                "model: \(OnnxReferences.root)/Tests/PadONNXTests/Fixtures/vector_identity.onnx\ninput: {width: 10, height: 1}\n",
                "padbench feeds one image tensor of rank 4"
            ),
            ("model: missing.onnx\ninput: {width: 80, height: 80}\n", "missing.onnx: no such file"),
            ("model: [\n", "YAML syntax"),
            ("", "empty spec"),
        ]
        for (index, (text, words)) in cases.enumerated() {
            let spec = folder + "/spec\(index).yaml"
            try text.write(toFile: spec, atomically: true, encoding: .utf8)
            let error = #expect(throws: OnnxError.self) {
                try OnnxModelEstimator(name: "m", specPath: spec, runtime: Self.runtime, runners: 1)
            }
            #expect(error?.message.contains(words) == true, "case \(index): \(error?.message ?? "no error")")
            #expect(error?.message.contains("spec\(index).yaml") == true || error?.message.contains(".onnx") == true)
            #expect(error?.message.contains("\n") == false)
        }
    }

    static func folder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("padbench-spec-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }
}

import Foundation
import PadImage
import PadONNX
import PadVocabulary

/// A user's own ONNX network as an estimator (`--onnx NAME=SPEC.yaml`): the spec's crop, resize
/// and normalisation (``OnnxModelSpec``), one session for the run, batches across samples in
/// flight (``PadONNX/OnnxBatcher``), one output `NAME.score` (bona fide high) that profiles,
/// `outputs.csv`, `compare` and the latency gate use like any other.
///
/// Example: `OnnxModelTests.specReproducesMiniFASNetV2` in `Tests/PadEstimatorsTests/OnnxModelTests.swift`.
///
/// Checked when built, before any sample, each with the spec's or the model's name: the model
/// loads; it has one rank-4 float input whose channel axis (1 for `nchw`, 3 for `nhwc`) has the
/// spec's channel count and whose fixed height and width equal the spec's; the named output exists
/// and its fixed last dimension holds `bona_fide_class`; a `batch` above 1 needs a dynamic batch
/// dimension.
package struct OnnxModelEstimator: Estimator {
    package let name: String
    package let version = "1.0.0"
    package let spec: OnnxModelSpec
    package let specPath: String
    package let batcher: OnnxBatcher
    private let outputIndex: Int
    package var dependencies: [String] { spec.region == .face ? ["face"] : [] }
    /// The face region chosen by `use_dataset_box` decides the crop.
    package static let readsOptions: Set<EstimatorOptionName> = [.useDatasetFaceBox]
    package var outputs: [OutputDescriptor] {
        [
            .init(
                name: "score", unit: "", range: .unbounded, direction: .higherIsBetter,
                summary: "bona fide score of \((spec.model as NSString).lastPathComponent), class \(spec.bonaFideClass)"
                    + (spec.softmax ? " after softmax" : ""))
        ]
    }

    package init(name: String, specPath: String, runtime: OnnxRuntime, runners: Int) throws(OnnxError) {
        let spec: OnnxModelSpec
        do { spec = try OnnxModelSpec.read(specPath) } catch { throw OnnxError(.model, error.description) }
        let session = try OnnxSession(runtime: runtime, path: spec.model)
        let where_ = "\(MessageText.quote(specPath)) (model \(MessageText.quote(spec.model)))"
        guard session.inputs.count == 1, session.inputs[0].shape.count == 4 else {
            throw OnnxError(
                .model,
                "\(where_): the model's input is \(session.inputs.map(\.description).joined(separator: ", ")); "
                    + "padbench feeds one image tensor of rank 4 (N, C, H, W or N, H, W, C)")
        }
        let shape = session.inputs[0].shape
        let (c, h, w) = spec.layout == .nchw ? (shape[1], shape[2], shape[3]) : (shape[3], shape[1], shape[2])
        guard c < 0 || c == spec.channels else {
            throw OnnxError(
                .model,
                "\(where_): the model's input \(session.inputs[0]) has \(c) channels on the \(spec.layout.rawValue) "
                    + "channel axis, the spec's colour \(spec.color.rawValue) gives \(spec.channels)")
        }
        guard (h < 0 || h == spec.height) && (w < 0 || w == spec.width) else {
            throw OnnxError(
                .model,
                "\(where_): the model's input \(session.inputs[0]) is \(w)x\(h) pixels, the spec says "
                    + "\(spec.width)x\(spec.height)")
        }
        guard spec.batch == 1 || shape[0] < 0 else {
            throw OnnxError(
                .model,
                "\(where_): batch \(spec.batch) needs a dynamic batch dimension; the model fixes it at \(shape[0])")
        }
        let index: Int
        if let wanted = spec.outputName {
            guard let found = session.outputs.firstIndex(where: { $0.name == wanted }) else {
                throw OnnxError(
                    .model,
                    "\(where_): no output named '\(MessageText.quote(wanted))' (outputs: "
                        + "\(session.outputs.map(\.description).joined(separator: ", ")))")
            }
            index = found
        } else {
            index = 0
        }
        if let classes = session.outputs[index].shape.last, classes >= 0, spec.bonaFideClass >= classes {
            throw OnnxError(
                .model,
                "\(where_): bona_fide_class \(spec.bonaFideClass) is out of range: output "
                    + "\(session.outputs[index]) has \(classes) values in its last dimension")
        }
        self.name = name
        self.spec = spec
        self.specPath = specPath
        outputIndex = index
        let item =
            spec.layout == .nchw ? [spec.channels, spec.height, spec.width] : [spec.height, spec.width, spec.channels]
        batcher = OnnxBatcher(session: session, itemShape: item, maxBatch: spec.batch, runners: runners)
    }

    /// Batched across samples, one thread computes for several: its CPU time is not one sample's.
    package var cpuTimeIsPerSample: Bool { batcher.maxBatch == 1 }

    package var parameters: [String: String] {
        let session = batcher.session
        return [
            "spec": specPath, "spec_sha256": spec.sha256, "model": session.path, "model_sha256": session.sha256,
            "onnxruntime": session.runtime.version,
            "input": "\(spec.width)x\(spec.height) \(spec.color.rawValue) \(spec.layout.rawValue), "
                + "(pixel x \(spec.scale) - mean) / std, mean \(spec.mean), std \(spec.std)",
            "crop": spec.region == .face ? "face box x \(spec.cropScale), shifted inside the image" : "whole image",
            "output": "\(session.outputs[outputIndex].name)[..., \(spec.bonaFideClass)]"
                + (spec.softmax ? " after softmax" : ""),
            "batch": "\(spec.batch)",
        ]
    }

    package func measure(_ input: inout EstimatorInput) throws(EstimatorFailure) -> [Double] {
        let image: Image
        switch spec.region {
        case .image:
            image = input.image.resizedLinear(width: spec.width, height: spec.height)
        case .face:
            guard let face = input.face, face.width >= 1, face.height >= 1 else { return [.nan] }
            image = FaceCrop.resized(
                input.image, box: face, scale: spec.cropScale, width: spec.width, height: spec.height)
        }
        let outputs: [OnnxTensor]
        let tensor = image.tensor(
            order: spec.color, planar: spec.layout == .nchw, scale: spec.scale, mean: spec.mean, std: spec.std)
        do { outputs = try batcher.run(tensor) } catch {
            throw EstimatorFailure(.estimatorError, "\(name): \(error.message)")
        }
        var values = outputs[outputIndex].values
        guard !values.isEmpty else { throw EstimatorFailure(.estimatorError, "\(name): the model returned no values") }
        let classes = outputs[outputIndex].shape.last ?? values.count
        if classes > 0 && values.count > classes { values = Array(values.suffix(classes)) }
        guard spec.bonaFideClass < values.count else {
            throw EstimatorFailure(
                .estimatorError, "\(name): bona_fide_class \(spec.bonaFideClass) beyond the \(values.count) values")
        }
        if spec.softmax { return [MiniFASNetEstimator.softmax(values)[spec.bonaFideClass]] }
        return [Double(values[spec.bonaFideClass])]
    }
}

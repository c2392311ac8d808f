import Foundation
import PadImage
import PadONNX
import PadVocabulary

/// Silent-Face-Anti-Spoofing's MiniFASNet pair (Minivision, 2020, Apache-2.0): MiniFASNetV2 on the
/// face box scaled by 2.7 and MiniFASNetV1SE on the box scaled by 4.0, each an 80x80 crop, whose
/// softmaxes upstream averages (`test.py`: the prediction is the sum of the two softmaxes, and the
/// label its arg max).
///
/// Example: `MiniFASNetTests.probabilitiesEqualPythonOnnxRuntime` in `Tests/PadEstimatorsTests/OnnxNetworkTests.swift`.
///
/// Pre-processing (upstream `src/generate_patches.py` `CropImage`, `src/data_io/transform.py`):
/// the crop is ``FaceCrop/region(box:imageWidth:imageHeight:scale:)`` resized to 80x80 with OpenCV's
/// bilinear rule, in **BGR** order with values 0-255 (not normalised), planar 3 x 80 x 80 float32.
/// Each network gives 3 logits; class 1 is bona fide ("real face"), classes 0 and 2 attacks.
/// Outputs (NaN without a face box):
/// - `score`: the mean of the two networks' class-1 softmax probabilities (upstream's averaged
///   prediction), bona fide high, 0-1;
/// - `v2`, `v1se`: each network's class-1 probability alone.
/// Batched across samples (``PadONNX/OnnxBatcher``) with the dynamic-batch copies of the models.
package struct MiniFASNetEstimator: Estimator {
    package let name = "minifasnet"
    package let version = "1.0.0"
    package var dependencies: [String] { ["face"] }
    package var outputs: [OutputDescriptor] { Self.declaredOutputs }
    /// The face region chosen by `use_dataset_box` decides the crops.
    package static let readsOptions: Set<EstimatorOptionName> = [.useDatasetFaceBox]
    package static let declaredOutputs: [OutputDescriptor] = [
        .init(
            name: "score", unit: "", range: 0...1, direction: .higherIsBetter,
            summary: "bona fide probability: mean of MiniFASNetV2 and V1SE class-1 softmax"),
        .init(
            name: "v2", unit: "", range: 0...1, direction: .higherIsBetter,
            summary: "MiniFASNetV2 (crop x2.7) class-1 softmax"),
        .init(
            name: "v1se", unit: "", range: 0...1, direction: .higherIsBetter,
            summary: "MiniFASNetV1SE (crop x4.0) class-1 softmax"),
    ]

    /// One of the two networks: its batcher and the scale of its crop.
    package struct Network: Sendable {
        package var batcher: OnnxBatcher
        package var scale: Double
        package var label: String
    }
    package let networks: [Network]
    /// Side of the square input (80).
    package static let side = 80
    /// The models' file names in padbench's `models/minifasnet/` (dynamic-batch copies).
    package static let modelFiles = [
        ("v2", 2.7, "2.7_80x80_MiniFASNetV2.batch.onnx"), ("v1se", 4.0, "4_0_0_80x80_MiniFASNetV1SE.batch.onnx"),
    ]

    /// Loads both networks from `folder` (a `models/minifasnet` folder).
    package init(runtime: OnnxRuntime, folder: String, maxBatch: Int = 16, runners: Int) throws(OnnxError) {
        var networks: [Network] = []
        for (label, scale, file) in Self.modelFiles {
            let session = try OnnxSession(runtime: runtime, path: folder + "/" + file)
            guard session.inputs.count == 1, session.inputs[0].shape.dropFirst() == [3, Self.side, Self.side],
                session.outputs.count >= 1, session.outputs[0].shape.last == 3
            else {
                throw OnnxError(
                    .model,
                    "\(session.path): not a MiniFASNet model (input \(session.inputs.map(\.description)), "
                        + "outputs \(session.outputs.map(\.description)); expected [N,3,80,80] -> [N,3])")
            }
            let batch = session.inputs[0].shape[0] < 0 ? maxBatch : 1
            networks.append(
                Network(
                    batcher: OnnxBatcher(
                        session: session, itemShape: [3, Self.side, Self.side], maxBatch: batch, runners: runners),
                    scale: scale, label: label))
        }
        self.networks = networks
    }

    /// Batched across samples, one thread computes for several: its CPU time is not one sample's.
    package var cpuTimeIsPerSample: Bool { networks.allSatisfy { $0.batcher.maxBatch == 1 } }

    package var parameters: [String: String] {
        var values: [String: String] = ["onnxruntime": networks.first?.batcher.session.runtime.version ?? ""]
        for network in networks {
            let session = network.batcher.session
            values["\(network.label)_model"] = session.path
            values["\(network.label)_model_sha256"] = session.sha256
            values["\(network.label)_crop_scale"] = "\(network.scale)"
            values["\(network.label)_max_batch"] = "\(network.batcher.maxBatch)"
        }
        values["input"] = "80x80 BGR 0-255 planar, crop = face box scaled about its centre, shifted inside the image"
        return values
    }

    package func measure(_ input: inout EstimatorInput) throws(EstimatorFailure) -> [Double] {
        guard let face = input.face, face.width >= 1, face.height >= 1 else { return [.nan, .nan, .nan] }
        var probabilities: [Double] = []
        for network in networks {
            let tensor = Self.tensor(input.image, box: face, scale: network.scale)
            let logits: [Float]
            do { logits = try network.batcher.run(tensor)[0].values } catch {
                throw EstimatorFailure(.estimatorError, "MiniFASNet \(network.label): \(error.message)")
            }
            probabilities.append(Self.softmax(logits)[1])
        }
        return [(probabilities[0] + probabilities[1]) / 2, probabilities[0], probabilities[1]]
    }

    /// The network input for one face: upstream's crop (``FaceCrop``) at 80x80, BGR, 0-255, planar.
    package static func tensor(_ image: Image, box: Box, scale: Double) -> [Float] {
        FaceCrop.resized(image, box: box, scale: scale, width: side, height: side).tensor(order: .bgr)
    }

    /// Softmax in double precision (max subtracted first).
    package static func softmax(_ logits: [Float]) -> [Double] {
        let peak = Double(logits.max() ?? 0)
        let exps = logits.map { exp(Double($0) - peak) }
        let total = exps.reduce(0, +)
        return exps.map { $0 / total }
    }
}

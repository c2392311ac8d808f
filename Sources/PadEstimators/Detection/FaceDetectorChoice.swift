import PadONNX

/// Which detector backs `face.*` (`--face-detector`).
///
/// Example: `FaceDetectorChoiceTests.buildsEachDetector` in `Tests/PadEstimatorsTests/OnnxNetworkTests.swift`.
///
/// `ultraface` (the default) is the RFB-320 CNN (``UltraFaceDetector``, 320x240 input);
/// `ultraface-640` the same network at 640x480 (finds smaller faces, about 4x the time);
/// `cascade` OpenCV's Haar frontal-face cascade with its agreement cascade (``CascadeDetector``),
/// equal to OpenCV's `detectMultiScale`, needing no ONNX Runtime.
package enum FaceDetectorChoice: String, Sendable, CaseIterable, Codable {
    case ultraface
    case ultraface640 = "ultraface-640"
    case cascade

    /// The model file in padbench's model folder.
    package var modelFile: String? {
        switch self {
        case .ultraface: "ultraface/version-RFB-320.onnx"
        case .ultraface640: "ultraface/version-RFB-640.onnx"
        case .cascade: nil
        }
    }

    /// The `face` estimator with this detector.
    package func makeEstimator(options: EstimatorOptions) throws -> FaceEstimator {
        guard let modelFile else {
            return try FaceEstimator(
                cascadeDirectory: options.cascadeDirectory, useDatasetBox: options.useDatasetFaceBox)
        }
        let runtime = try options.onnxRuntime(for: "face")
        do {
            let network = try UltraFaceDetector(runtime: runtime, modelPath: options.modelDirectory + "/" + modelFile)
            return FaceEstimator(network: network, name: rawValue, useDatasetBox: options.useDatasetFaceBox)
        } catch {
            throw EstimatorSetupError(
                estimator: "face", message: "\(error.message) (give --models DIR or --face-detector cascade)")
        }
    }
}

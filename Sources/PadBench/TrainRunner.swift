import Dispatch
import Foundation
import PadDataset
import PadEstimators
import PadEvaluation
import PadImage
import PadVideo
import PadVocabulary

/// `padbench train`: PAD features (colour texture, IDA, or both) on the face crop of every sample of one split, and an
/// L2-regularised logistic regression on them, written as a JSON model for the `pad` estimator.
///
/// ```swift
/// let outcome = try TrainRunner().train(dataset: loaded, split: .train, modelPath: "model.json")
/// ```
/// Nothing is chosen on `eval`: thresholds belong to profiles (calibrated on dev).
package struct TrainRunner: Sendable {
    package init() {}

    package struct Outcome: Sendable {
        package var model: LogisticModel
        package var used: Int
        package var failed: [(id: String, reason: String)]
    }

    package func train(
        dataset: LoadedDataset, split: Split, modelPath: String, features: PADEstimator.FeatureSet = .lbpColor,
        options: EstimatorOptions = EstimatorOptions(),
        concurrency: Int = ProcessInfo.processInfo.activeProcessorCount
    ) throws -> Outcome {
        let samples = dataset.samples.filter { $0.split == split }
        guard !samples.isEmpty else {
            throw EvaluationError(
                "dataset \(dataset.root) has no samples in split '\(split.rawValue)' (splits present: "
                    + "\(Set(dataset.samples.map(\.split.rawValue)).sorted().joined(separator: ", ")))"
            )
        }
        // The detector bench uses with the same options, so the baseline trains on the boxes it is measured on.
        let face = try options.faceDetector.makeEstimator(options: options)
        // Images and video frames as bench decodes them (the video limits the dataset was listed with).
        let measurer = SampleMeasurer(estimators: [], video: VideoDecoder(limits: dataset.videoOptions.limits))
        let units = Self.units(of: samples)
        let results = UnsafeMutableBufferPointer<[Double]?>.allocate(capacity: samples.count)
        results.initialize(repeating: nil)
        defer { results.deinitialize(); results.deallocate() } // deinitialize releases the arrays (LeakSanitizer)
        let reasons = UnsafeMutableBufferPointer<String>.allocate(capacity: samples.count)
        reasons.initialize(repeating: "")
        defer { reasons.deinitialize(); reasons.deallocate() }
        // Safety: units are disjoint, so each slot has one writer; both are read after concurrentPerform returns.
        nonisolated(unsafe) let out = results, why = reasons
        let workers = max(1, concurrency)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for u in stride(from: worker, to: units.count, by: workers) {
                Self.decode(units[u], of: samples, with: measurer) { i, decoded in
                    do {
                        let image = try decoded.get()
                        var input = EstimatorInput(sample: samples[i], image: image)
                        _ = try face.measure(&input)
                        out[i] = features.extract(image, face: input.face)
                    } catch {
                        why[i] = "\(error)"
                    }
                }
            }
        }
        var x: [[Double]] = [], y: [Bool] = [], failed: [(String, String)] = []
        for i in samples.indices {
            if let features = results[i] {
                x.append(features); y.append(samples[i].label.isBonaFide)
            } else {
                failed.append((samples[i].id, reasons[i]))
            }
        }
        let model = try LogisticModel.train(
            features: x, bonaFide: y, featureSet: features.rawValue, featureVersion: PADEstimator.featureVersion,
            featureNames: features.names, fingerprint: DatasetFingerprint.of(samples))
        try model.write(to: modelPath)
        return Outcome(model: model, used: x.count, failed: failed)
    }
}

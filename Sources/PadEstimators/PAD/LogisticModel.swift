import Foundation
import PadText

/// An L2-regularised logistic regression on standardised features, stored as plain JSON.
///
/// Example: `PadEstimatorsDocExamples.logisticModel`
/// in `Tests/PadEstimatorsTests/DocExamplesTests.swift` (compiled and run by `swift test`).
/// Training: z = (x - mean) / std per feature (std 0 -> 1); minimise
/// mean log-loss + lambda/2 |w|^2 by full-batch gradient descent with a fixed step and iteration
/// count from w = 0, so training is deterministic (no random initialisation, fixed order).
package struct LogisticModel: Codable, Sendable, Equatable {
    package static let formatVersion = 1
    package var format: Int
    package var featureSet: String
    package var featureVersion: String
    package var featureNames: [String]
    package var mean: [Double]
    package var std: [Double]
    package var weights: [Double]
    package var bias: Double
    package var lambda: Double
    package var iterations: Int
    package var trainingFingerprint: String
    package var trainingMetrics: [String: Double]

    package func score(_ x: [Double]) -> Double {
        var t = bias
        for i in weights.indices { t += weights[i] * (x[i] - mean[i]) / std[i] }
        return 1 / (1 + exp(-t))
    }

    package static func train(
        features x: [[Double]], bonaFide y: [Bool], featureSet: String, featureVersion: String, featureNames: [String],
        fingerprint: String, lambda: Double = 0.01, iterations: Int = 2000, step: Double = 0.5
    ) throws -> LogisticModel {
        guard !x.isEmpty, x.count == y.count else {
            throw EstimatorSetupError(estimator: "pad", message: "no training samples")
        }
        guard y.contains(true), y.contains(false) else {
            throw EstimatorSetupError(
                estimator: "pad",
                message:
                    "the training split needs both bona fide and attack samples "
                    + "(has \(y.filter { $0 }.count) bona fide, \(y.filter { !$0 }.count) attacks)"
            )
        }
        let n = Double(x.count), d = x[0].count
        var mean = [Double](repeating: 0, count: d), std = [Double](repeating: 0, count: d)
        for row in x { for j in 0..<d { mean[j] += row[j] / n } }
        for row in x { for j in 0..<d { std[j] += (row[j] - mean[j]) * (row[j] - mean[j]) / n } }
        std = std.map { $0 > 1e-24 ? $0.squareRoot() : 1 }
        let z = x.map { row in (0..<d).map { (row[$0] - mean[$0]) / std[$0] } }
        var w = [Double](repeating: 0, count: d), b = 0.0
        for _ in 0..<iterations {
            var gw = w.map { lambda * $0 }, gb = 0.0
            for (i, row) in z.enumerated() {
                var t = b
                for j in 0..<d { t += w[j] * row[j] }
                let error = 1 / (1 + exp(-t)) - (y[i] ? 1 : 0)
                for j in 0..<d { gw[j] += error * row[j] / n }
                gb += error / n
            }
            for j in 0..<d { w[j] -= step * gw[j] }
            b -= step * gb
        }
        var model = LogisticModel(
            format: formatVersion, featureSet: featureSet, featureVersion: featureVersion, featureNames: featureNames,
            mean: mean, std: std, weights: w, bias: b, lambda: lambda, iterations: iterations,
            trainingFingerprint: fingerprint, trainingMetrics: [:])
        let predictions = x.map { model.score($0) >= 0.5 }
        model.trainingMetrics = [
            "samples": n, "bona_fide": Double(y.filter { $0 }.count),
            "accuracy": Double(zip(predictions, y).filter { $0 == $1 }.count) / n,
        ]
        return model
    }

    package func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: URL(fileURLWithPath: path), options: .atomic) // never a torn model
    }

    /// Largest model file read.
    package static let maximumFileBytes = 16 << 20

    package static func read(from path: String) throws -> LogisticModel {
        // A regular file of at most 16 MiB (a trained model is a few KB): `/proc/self/pagemap` or
        // a model padded with gigabytes is refused after `stat`, not read whole.
        let data: Data
        do { data = Data(try RegularFile.read(path, limit: maximumFileBytes)) } catch {
            throw EstimatorSetupError(estimator: "pad", message: "model file \(error)")
        }
        let model: LogisticModel
        do { model = try JSONDecoder().decode(LogisticModel.self, from: data) } catch {
            throw EstimatorSetupError(
                estimator: "pad", message: "\(path) is not a padbench model: \(JSONCoding.problem(error))")
        }
        guard model.format == formatVersion else {
            throw EstimatorSetupError(
                estimator: "pad", message: "\(path): model format \(model.format), this padbench reads \(formatVersion)"
            )
        }
        let d = model.featureNames.count
        guard model.mean.count == d, model.std.count == d, model.weights.count == d, model.std.allSatisfy({ $0 > 0 })
        else {
            throw EstimatorSetupError(
                estimator: "pad", message: "\(path): corrupt model (vector lengths differ or zero std)")
        }
        return model
    }
}

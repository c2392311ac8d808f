import PadDataset
import PadEstimators
import PadImage

/// Decodes one sample and runs every estimator on it, timing each step on the monotonic clock.
///
/// ```swift
/// let measurer = SampleMeasurer(estimators: try registry.make(["quality"], options: .init()))
/// let outcome = measurer.measure(sample, index: 0)
/// ```
///
/// Never throws: a decode failure or an estimator error becomes the sample's status, and values
/// the estimators did not reach stay NaN, so counts always add up.
public struct SampleMeasurer: Sendable {
    public let estimators: [any Estimator]
    public let decoder: ImageDecoder
    /// Column of the first output of each estimator in `SampleOutcome.values`.
    let firstColumn: [Int]
    /// `<estimator>.<output>` per estimator, computed once rather than per sample.
    let fullNames: [[String]]
    public let columnCount: Int

    public init(estimators: [any Estimator], decoder: ImageDecoder = ImageDecoder()) {
        self.estimators = estimators
        self.decoder = decoder
        var offsets: [Int] = []
        var total = 0
        for estimator in estimators {
            offsets.append(total)
            total += estimator.outputs.count
        }
        self.firstColumn = offsets
        self.fullNames = estimators.map(\.outputNames)
        self.columnCount = total
    }

    /// Full output names in column order (`face.count`, ..., `quality.sharpness`).
    public var columns: [String] { estimators.flatMap(\.outputNames) }

    public func measure(_ sample: Sample, index: Int) -> SampleOutcome {
        var values = [Double](repeating: .nan, count: columnCount)
        var estimatorNanoseconds = [UInt64](repeating: 0, count: estimators.count)
        let decodeStart = MonotonicClock.nanoseconds()
        let image: Image
        do {
            image = try decoder.decode(fileAt: sample.path)
        } catch {
            return SampleOutcome(index: index, status: .failed(code: error.statusCode, message: error.description),
                                 values: values, decodeNanoseconds: MonotonicClock.nanoseconds() - decodeStart,
                                 estimatorNanoseconds: estimatorNanoseconds)
        }
        let decodeNanoseconds = MonotonicClock.nanoseconds() - decodeStart

        var input = EstimatorInput(sample: sample, image: image)
        for (k, estimator) in estimators.enumerated() {
            let start = MonotonicClock.nanoseconds()
            let result: [Double]
            do {
                result = try estimator.measure(&input)
            } catch {
                estimatorNanoseconds[k] = MonotonicClock.nanoseconds() - start
                return SampleOutcome(index: index,
                                     status: .failed(code: error.kind.rawValue, message: "\(estimator.name): \(error.message)"),
                                     values: values, decodeNanoseconds: decodeNanoseconds,
                                     estimatorNanoseconds: estimatorNanoseconds)
            }
            estimatorNanoseconds[k] = MonotonicClock.nanoseconds() - start
            let outputs = estimator.outputs
            guard result.count == outputs.count else {
                return SampleOutcome(index: index,
                                     status: .failed(code: EstimatorFailure.Kind.estimatorError.rawValue,
                                                     message: "\(estimator.name): returned \(result.count) values for \(outputs.count) outputs"),
                                     values: values, decodeNanoseconds: decodeNanoseconds,
                                     estimatorNanoseconds: estimatorNanoseconds)
            }
            let base = firstColumn[k], names = fullNames[k]
            for j in 0..<result.count {
                values[base + j] = result[j]
                input.outputs[names[j]] = result[j]
            }
        }
        return SampleOutcome(index: index, status: .ok, values: values, decodeNanoseconds: decodeNanoseconds,
                             estimatorNanoseconds: estimatorNanoseconds)
    }
}

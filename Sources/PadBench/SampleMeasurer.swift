import PadSamples
import PadEstimators
import PadEvaluation
import PadImage
import PadVideo
import PadVocabulary

/// Decodes one sample and runs every estimator on it, timing each step on the monotonic clock and
/// on the measuring thread's CPU clock (``StepClock``).
///
/// ```swift
/// let measurer = SampleMeasurer(estimators: try registry.make(["quality"], options: .init()))
/// let outcome = measurer.measure(sample, index: 0)
/// ```
///
/// Never throws: a decode failure or an estimator error becomes the sample's status, and values
/// the estimators did not reach stay NaN, so counts always add up.
package struct SampleMeasurer: Sendable {
    /// One estimator chain per option set: the default chain and, for profiles with options
    /// (`face: {use_dataset_box: true}`), a chain of the estimators those options change
    /// (``PadEstimators/Estimator/readsOptions``), measured on the same decoded image with their
    /// own face, eyes and outputs. A chain's columns carry its variant (``ColumnKey``), so each
    /// profile reads the measurements of its own options and no other profile sees them.
    package struct Chain: Sendable {
        package var variant: MeasurementVariant
        package var estimators: [any Estimator]
        package init(variant: MeasurementVariant = .defaults, estimators: [any Estimator]) {
            self.variant = variant
            self.estimators = estimators
        }
    }

    package let chains: [Chain]
    package let decoder: ImageDecoder
    /// Reads the frames of video samples (the pixel limit is the image decoder's).
    package let video: VideoDecoder
    /// Every estimator of every chain, in column order (timing is indexed by this list).
    package let estimators: [any Estimator]
    /// The chain variant of each estimator in ``estimators``.
    package let variants: [MeasurementVariant]
    /// Step names for timing: `face`, and `face@dataset_box` for a chain's estimator.
    package let stepNames: [String]
    /// The estimators (indices into ``estimators``) whose CPU time is their cost: those whose
    /// work is done on the measuring thread (``PadEstimators/Estimator/cpuTimeIsPerSample``).
    package var cpuTimed: [Int] { estimators.indices.filter { estimators[$0].cpuTimeIsPerSample } }
    /// The steps `samples.csv` records CPU time for: `decode`, then each of ``cpuTimed``.
    package var cpuStepNames: [String] { ["decode"] + cpuTimed.map { stepNames[$0] } }
    /// Column of the first output of each estimator in `SampleOutcome.values`.
    let firstColumn: [Int]
    /// `<estimator>.<output>` per estimator (what later estimators of the chain read).
    let fullNames: [[String]]
    package let columnCount: Int
    /// Whether a still's pixels are decoded: false when the run has estimators and none reads them
    /// (``PadEstimators/Estimator/readsPixels``), and then only its header is read. Video frames are
    /// always decoded (a program gets a frame as its pixels).
    package let decodesStills: Bool
    /// Every output column in order (`face.count`, ..., `face.count@dataset_box`, ...).
    package let keys: [ColumnKey]
    /// The columns' headers in `samples.csv`.
    package var columns: [String] { keys.map(\.header) }

    package init(estimators: [any Estimator], decoder: ImageDecoder = ImageDecoder(), video: VideoDecoder? = nil) {
        self.init(chains: [Chain(estimators: estimators)], decoder: decoder, video: video)
    }

    package init(chains: [Chain], decoder: ImageDecoder = ImageDecoder(), video: VideoDecoder? = nil) {
        self.chains = chains
        self.decoder = decoder
        self.video = video ?? VideoDecoder(limits: VideoLimits(maxPixels: decoder.maxPixels))
        var offsets: [Int] = [], names: [[String]] = [], steps: [String] = [], keys: [ColumnKey] = []
        var variants: [MeasurementVariant] = []
        var total = 0
        for chain in chains {
            for estimator in chain.estimators {
                offsets.append(total)
                total += estimator.outputs.count
                names.append(estimator.outputNames)
                steps.append(estimator.name + chain.variant.suffix)
                variants.append(chain.variant)
                keys += Self.keys(of: estimator, variant: chain.variant)
            }
        }
        self.estimators = chains.flatMap(\.estimators)
        self.decodesStills = estimators.isEmpty || estimators.contains { $0.readsPixels }
        self.variants = variants
        self.firstColumn = offsets
        self.fullNames = names
        self.stepNames = steps
        self.columnCount = total
        self.keys = keys
    }

    /// An estimator's output columns measured with `variant`.
    package static func keys(of estimator: any Estimator, variant: MeasurementVariant) -> [ColumnKey] {
        estimator.outputs.map { ColumnKey(estimator: estimator.name, output: $0.name, variant: variant) }
    }

    /// `threads`: how many threads the sample may use (``EstimatorInput/threads``). A video frame
    /// is measured as a video of one frame (``measureVideo(_:threads:)``).
    package func measure(_ sample: Sample, index: Int, threads: Int = 1) -> SampleOutcome {
        if VideoFiles.isVideo(sample.path) { return measureVideo([(index, sample)], threads: threads)[0] }
        let decodeStart = StepClock.now()
        if !decodesStills {
            let header: StillHeader
            do { header = try decoder.header(fileAt: sample.path) } catch {
                return failure(error, index: index, decode: StepClock.since(decodeStart))
            }
            var input = EstimatorInput(sample: sample, header: header)
            input.threads = threads
            return measure(input, index: index, decode: StepClock.since(decodeStart))
        }
        let image: Image, storedOrientation: Int
        do {
            (image, storedOrientation) = try decoder.decodeWithOrientation(fileAt: sample.path)
        } catch {
            return failure(error, index: index, decode: StepClock.since(decodeStart))
        }
        return measure(
            image, of: sample, index: index, decode: StepClock.since(decodeStart), threads: threads,
            storedOrientation: storedOrientation)
    }

    /// A sample that could not be decoded: every value NaN, no estimator time.
    func failure(_ error: ImageError, index: Int, decode: StepClock) -> SampleOutcome {
        SampleOutcome(
            index: index, status: .failed(code: error.statusCode, message: error.description),
            values: [Double](repeating: .nan, count: columnCount), decode: decode,
            estimators: [StepClock](repeating: StepClock(wall: 0, cpu: 0), count: estimators.count))
    }

    /// Every estimator chain on a decoded image.
    func measure(
        _ image: Image, of sample: Sample, index: Int, decode: StepClock, threads: Int,
        storedOrientation: Int = 1
    ) -> SampleOutcome {
        var first = EstimatorInput(sample: sample, image: image)
        first.storedOrientation = storedOrientation
        first.threads = threads
        return measure(first, index: index, decode: decode)
    }

    /// Every estimator chain on one sample's input (the image or, without decoding, its header);
    /// each chain starts from `first` with the gray plane the previous chain computed.
    func measure(_ first: EstimatorInput, index: Int, decode: StepClock) -> SampleOutcome {
        var values = [Double](repeating: .nan, count: columnCount)
        var spent = [StepClock](repeating: StepClock(wall: 0, cpu: 0), count: estimators.count)
        func failed(_ status: SampleStatus) -> SampleOutcome {
            SampleOutcome(index: index, status: status, values: values, decode: decode, estimators: spent)
        }

        var k = 0
        var gray: GrayPlane?
        for chain in chains {
            var input = first
            input.gray = gray
            for estimator in chain.estimators {
                let start = StepClock.now()
                let result: [Double]
                do {
                    result = try estimator.measure(&input)
                } catch {
                    spent[k] = StepClock.since(start)
                    return failed(.failed(code: error.kind.code, message: "\(stepNames[k]): \(error.message)"))
                }
                spent[k] = StepClock.since(start)
                guard result.count == estimator.outputs.count else {
                    return failed(
                        .failed(
                            code: .estimatorError,
                            message:
                                "\(stepNames[k]): returned \(result.count) values "
                                + "for \(estimator.outputs.count) outputs"
                        ))
                }
                let base = firstColumn[k], names = fullNames[k]
                for j in 0..<result.count {
                    values[base + j] = result[j]
                    input.outputs[names[j]] = result[j]
                }
                k += 1
            }
            gray = input.gray
        }
        return SampleOutcome(index: index, status: .ok, values: values, decode: decode, estimators: spent)
    }
}

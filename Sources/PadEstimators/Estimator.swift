import PadSamples
import PadImage
import PadVocabulary

/// What an estimator sees for one sample: the decoded image, the sample's metadata, and what
/// estimators that ran earlier for this sample found (face box, eye positions, outputs).
package struct EstimatorInput: Sendable {
    package var sample: Sample
    /// The decoded upright image; empty (0x0) when the run decodes no pixels because none of its
    /// estimators reads them (``Estimator/readsPixels``): then only ``width`` and ``height`` hold.
    package var image: Image
    /// The upright image's size: `image`'s, or its header's when no pixels were decoded.
    package var width: Int
    package var height: Int
    /// The face region chosen for this sample, set by the `face` estimator (detector or dataset box).
    package var face: Box?
    /// The EXIF orientation a still image's file is stored with (1-8; 1 without one and for video
    /// frames), set by the pipeline from its decode: `image` is already upright.
    package var storedOrientation = 1
    /// Every face the detector found (box and confidence: the CNN's probability, or the cascade's
    /// agreement), set by the `face` estimator; empty for a dataset box or without faces.
    package var faces: [DetectedFace] = []
    /// Eye centres in image pixels, set by the `eyes` estimator when two eyes were found.
    package var eyeCenters: [(x: Double, y: Double)]
    /// Landmarks in image pixels, set by the `landmarks` estimator (68 or 5 points; empty when it
    /// did not run or found no face).
    package var landmarks: [LandmarkPoint] = []
    /// Outputs of earlier estimators, by full name (`face.count`).
    package var outputs: [String: Double]
    /// The gray plane (OpenCV weights), computed once by the first estimator that needs it.
    package var gray: GrayPlane?
    /// Threads this sample may use: more than 1 when a run has fewer samples in flight than
    /// cores (``OrderedMeasurement`` sets it); the cascade estimators then scan scales in parallel.
    package var threads: Int = 1

    package init(
        sample: Sample, image: Image, face: Box? = nil, eyeCenters: [(x: Double, y: Double)] = [],
        outputs: [String: Double] = [:]
    ) {
        self.sample = sample
        self.image = image
        self.width = image.width
        self.height = image.height
        self.face = face
        self.eyeCenters = eyeCenters
        self.outputs = outputs
    }

    /// A still whose pixels were not decoded (no estimator of the run reads them): its header's
    /// size and stored orientation, and an empty image.
    package init(sample: Sample, header: StillHeader) {
        self.init(sample: sample, image: Image(width: 0, height: 0, format: .gray, pixels: []))
        width = header.width
        height = header.height
        storedOrientation = header.storedOrientation
    }
}

/// Why an estimator failed on a sample (recorded as `estimator_error` or `timeout`; the run goes on).
package struct EstimatorFailure: Error, Sendable, CustomStringConvertible {
    package enum Kind: Sendable {
        case estimatorError
        case timeout

        /// The sample's failure code: `estimator_error` or `timeout`.
        package var code: FailureCode { self == .timeout ? .timeout : .estimatorError }
    }
    package var kind: Kind
    package var message: String
    package init(_ kind: Kind = .estimatorError, _ message: String) {
        self.kind = kind
        self.message = message
    }
    package var description: String { message }
}

/// A measurement on one image: declared outputs, version and parameters, and one `measure` call
/// per sample (the OFIQ shape: one class per measure, one `Execute`).
///
/// Example: `PadEstimatorsDocExamples.imageEstimator`
/// in `Tests/PadEstimatorsTests/DocExamplesTests.swift` (compiled and run by `swift test`).
///
/// `measure` returns one value per declared output, in declaration order; `NaN` means the
/// sample could not be assessed (no face found, region too small): that is a measurement, not a
/// failure. Throw `EstimatorFailure` only for real errors (crash of an external program, ...).
/// The pipeline times each call; estimators never time themselves.
/// Estimators are immutable after construction (cold start happens in `init`) and are shared
/// across worker threads, hence `Sendable`.
package protocol Estimator: Sendable {
    /// Registry name and output prefix (`quality`, `face`, `eyes`, `pad`).
    var name: String { get }
    /// Bumped whenever outputs change meaning or value for the same input.
    var version: String { get }
    var outputs: [OutputDescriptor] { get }
    /// Parameters recorded in the archive manifest (name -> value as text).
    var parameters: [String: String] { get }
    /// Names of estimators that must run before this one on the same sample (`eyes` needs `face`).
    var dependencies: [String] { get }
    /// The profile options that change this estimator's outputs (`face` reads `use_dataset_box`;
    /// `eyes`, `quality` and `pad` read the face region that option chooses). A run measures the
    /// estimator once more, in its own columns (`face.count@dataset_box`), for every option set its
    /// profiles use; an estimator that reads none is measured once and serves every profile.
    static var readsOptions: Set<EstimatorOptionName> { get }
    /// Measures one sample. May update `input` (face box, eye centres) for later estimators;
    /// the pipeline adds the returned values to `input.outputs`.
    func measure(_ input: inout EstimatorInput) throws(EstimatorFailure) -> [Double]
    /// Whether a sample's work is done on the thread that calls `measure`, so that thread's CPU
    /// time is the sample's cost (`cpu.<step>_ns`). False when another process computes (an
    /// external program) or when calls of several samples are batched and one thread computes for
    /// all of them (its CPU time would be the batch's, the others' none).
    var cpuTimeIsPerSample: Bool { get }
    /// Whether `measure` reads the still image's pixels. When no estimator of a run does (external
    /// programs that open the file themselves), padbench reads each still's header only
    /// (``PadImage/ImageDecoder/header(fileAt:)``) instead of decoding pixels nobody looks at.
    var readsPixels: Bool { get }
}

extension Estimator {
    package var dependencies: [String] { [] }
    package var cpuTimeIsPerSample: Bool { true }
    package var readsPixels: Bool { true }
    package static var readsOptions: Set<EstimatorOptionName> { [] }
    /// Full output names, `<estimator>.<output>`.
    package var outputNames: [String] { outputs.map { "\(name).\($0.name)" } }
}

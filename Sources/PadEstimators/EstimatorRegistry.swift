import Foundation
import PadONNX
import PadText
import PadVocabulary

/// Options that built-in estimators read at construction (cold start).
package struct EstimatorOptions: Sendable {
    /// Folder holding OpenCV's cascade XML files (Debian `opencv-data`).
    package var cascadeDirectory: String
    /// Use the dataset's face box instead of the detector when a sample has one.
    package var useDatasetFaceBox: Bool
    /// Model file of the trainable PAD baseline (`pad` estimator).
    package var padModelPath: String?
    /// Command lines of external estimators, by estimator name (`external:NAME=CMD`).
    package var externalCommands: [String: String]
    /// Per-sample timeout for external estimators, in seconds.
    package var externalTimeout: Double
    /// Copies of each external program (`--external-processes`); nil: one per worker for a
    /// program taking one request at a time, one for a program that pipelines or batches.
    package var externalProcesses: Int?
    /// dlib shape-predictor file of the `landmarks` estimator (68- or 5-point model).
    package var landmarkModelPath: String = EstimatorOptions.defaultLandmarkModel
    /// The `landmarks` estimator also outputs every point (`--estimators landmarks.points`).
    package var landmarkPoints = false
    /// The detector behind `face.*` (`--face-detector`).
    package var faceDetector: FaceDetectorChoice = .ultraface
    /// ONNX Runtime's library (`--onnxruntime`); nil searches as ``PadONNX/OnnxRuntime`` says.
    package var onnxRuntimePath: String?
    /// Folder of padbench's model files (`ultraface/`, `minifasnet/`; `--models`).
    package var modelDirectory: String = EstimatorOptions.defaultModelDirectory
    /// The user's ONNX models, by estimator name (`--onnx NAME=SPEC.yaml`): spec file paths.
    package var onnxModels: [String: String] = [:]
    /// Threads that may run a network at once (batches form when more samples wait).
    package var networkRunners: Int = max(1, ProcessInfo.processInfo.activeProcessorCount)

    package init(
        cascadeDirectory: String = EstimatorOptions.defaultCascadeDirectory, useDatasetFaceBox: Bool = false,
        padModelPath: String? = nil, externalCommands: [String: String] = [:], externalTimeout: Double = 30
    ) {
        self.cascadeDirectory = cascadeDirectory
        self.useDatasetFaceBox = useDatasetFaceBox
        self.padModelPath = padModelPath
        self.externalCommands = externalCommands
        self.externalTimeout = externalTimeout
    }

    /// These options as a profile with `variant` sets them (``MeasurementVariant/defaults``: the
    /// run's own).
    package func applying(_ variant: MeasurementVariant) -> EstimatorOptions {
        var copy = self
        copy.useDatasetFaceBox = variant.contains(.useDatasetFaceBox)
        return copy
    }

    /// These options with a PAD model file set.
    package func with(padModel path: String?) -> EstimatorOptions {
        var copy = self
        copy.padModelPath = path
        return copy
    }

    /// `$PADBENCH_LANDMARK_MODEL`, else Debian libdlib-data's 68-point model.
    package static var defaultLandmarkModel: String {
        ProcessInfo.processInfo.environment["PADBENCH_LANDMARK_MODEL"] ?? LandmarksEstimator.defaultModelPath
    }

    /// `$PADBENCH_MODELS`, else the `models` folder of the checkout the executable was built in (the
    /// first folder above the executable holding `models/ultraface`), else `models` in the working folder.
    package static var defaultModelDirectory: String {
        if let given = ProcessInfo.processInfo.environment["PADBENCH_MODELS"], !given.isEmpty { return given }
        if let found = OnnxRuntime.besideExecutable("models/ultraface") {
            return String(found.dropLast("/ultraface".count))
        }
        return "models"
    }

    /// ONNX Runtime as these options find it (loaded once per process), or the setup error that
    /// names what to install.
    package func onnxRuntime(for estimator: String) throws -> OnnxRuntime {
        do { return try OnnxRuntime.load(explicit: onnxRuntimePath) } catch {
            throw EstimatorSetupError(estimator: estimator, message: error.message, missingLibrary: true)
        }
    }

    /// `$PADBENCH_CASCADES`, else Debian's `/usr/share/opencv4`.
    package static var defaultCascadeDirectory: String {
        ProcessInfo.processInfo.environment["PADBENCH_CASCADES"] ?? "/usr/share/opencv4"
    }
}

/// Why an estimator could not be set up; reported before any sample is processed.
package struct EstimatorSetupError: Error, Sendable, CustomStringConvertible {
    package var estimator: String
    package var message: String
    /// A library the estimator needs is missing or too old (ONNX Runtime): the command exits 64
    /// with what to install, as for a wrong command line.
    package var missingLibrary: Bool
    package init(estimator: String, message: String, missingLibrary: Bool = false) {
        self.estimator = estimator
        self.message = message
        self.missingLibrary = missingLibrary
    }
    package var description: String { "estimator '\(estimator)': \(message)" }
}

/// The built-in estimators by name, and the dependency order they run in.
///
/// Example: `PadEstimatorsDocExamples.registryOrdersDependencies`
/// in `Tests/PadEstimatorsTests/DocExamplesTests.swift` (compiled and run by `swift test`).
package struct EstimatorRegistry: Sendable {
    package typealias Factory = @Sendable (EstimatorOptions) throws -> any Estimator

    package struct Entry: Sendable {
        package var name: String
        package var summary: String
        /// Outputs declared by the estimator's type (short names), known without building it (no
        /// cascade or model file is read); nil when only the built estimator knows them (an
        /// external program answers `describe`).
        package var declaredOutputs: [OutputDescriptor]?
        /// The options the estimator's type reads (``Estimator/readsOptions``), known without building it.
        package var readsOptions: Set<EstimatorOptionName>
        package var factory: Factory
        package init(
            name: String, summary: String, declaredOutputs: [OutputDescriptor]? = nil,
            readsOptions: Set<EstimatorOptionName> = [], factory: @escaping Factory
        ) {
            self.name = name
            self.summary = summary
            self.declaredOutputs = declaredOutputs
            self.readsOptions = readsOptions
            self.factory = factory
        }
    }

    package private(set) var entries: [Entry]

    package init(entries: [Entry]) { self.entries = entries }

    package var names: [String] { entries.map(\.name) }

    /// An estimator ready to run, with the time its construction took (cold start: cascade or
    /// model loading), which reports keep apart from per-sample time.
    package struct Built: Sendable {
        package var estimator: any Estimator
        package var coldStart: Duration
    }

    /// Builds the named estimators and everything they depend on, in an order where each estimator
    /// comes after its dependencies (and otherwise in registry order, so runs are reproducible).
    package func make(_ requested: [String], options: EstimatorOptions) throws -> [any Estimator] {
        try build(requested, options: options).map(\.estimator)
    }

    /// ``make(_:options:)`` with each estimator's cold-start time.
    package func build(_ requested: [String], options: EstimatorOptions) throws -> [Built] {
        var built: [String: any Estimator] = [:]
        var coldStart: [String: Duration] = [:]
        // Built in waves: the requested estimators at once, then the dependencies they name. The
        // factories of one wave run on all cores (each cascade file takes tens of milliseconds to
        // read, and nothing can be measured before all are ready); the first failure in request
        // order is reported.
        var wave = Self.unique(requested)
        while !wave.isEmpty {
            let entries = try wave.map { name in
                guard let entry = self.entries.first(where: { $0.name == name }) else {
                    let known = names.joined(separator: ", ")
                    throw EstimatorSetupError(estimator: name, message: "unknown estimator (known: \(known))")
                }
                return entry
            }
            for (entry, outcome) in zip(entries, Self.runFactories(entries, options: options)) {
                switch outcome {
                case .success(let made):
                    built[entry.name] = made.estimator
                    coldStart[entry.name] = made.coldStart
                case .failure(let error as EstimatorSetupError): throw error
                case .failure(let error): throw EstimatorSetupError(estimator: entry.name, message: "\(error)")
                }
            }
            wave = Self.unique(wave.flatMap { built[$0]!.dependencies }.filter { built[$0] == nil })
        }
        // Topological order, ties broken by registry order.
        var ordered: [Built] = []
        var placed = Set<String>()
        let order = entries.map(\.name).filter { built[$0] != nil }
        while placed.count < order.count {
            guard
                let next = order.first(where: { name in
                    !placed.contains(name) && built[name]!.dependencies.allSatisfy { placed.contains($0) }
                })
            else {
                throw EstimatorSetupError(
                    estimator: order.filter { !placed.contains($0) }.joined(separator: ","),
                    message: "dependency cycle")
            }
            ordered.append(Built(estimator: built[next]!, coldStart: coldStart[next] ?? .zero))
            placed.insert(next)
        }
        return ordered
    }

    /// Each factory's estimator and how long it took to make (its cold start), or its error; the
    /// factories run concurrently, results in the order of `entries`.
    static func runFactories(_ entries: [Entry], options: EstimatorOptions) -> [Result<Built, Error>] {
        Parallel.map(entries) { entry in
            let clock = ContinuousClock()
            let started = clock.now
            return Result { Built(estimator: try entry.factory(options), coldStart: clock.now - started) }
        }
    }

    /// The names in order of first appearance, each once.
    static func unique(_ names: [String]) -> [String] {
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }
    }
}

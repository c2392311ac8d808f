import Foundation
import PadEstimators
import PadExternal
import PadImport
import PadONNX
import PadText
import PadVocabulary

/// The built-in estimators, as the CLI and profile validation see them.
package enum EstimatorCatalog {
    /// Every estimator padbench ships, in the order they run when all are selected.
    package static var registry: EstimatorRegistry {
        EstimatorRegistry(entries: [
            .init(
                name: "image", summary: "image size after EXIF orientation",
                declaredOutputs: ImageEstimator.declaredOutputs
            ) { _ in ImageEstimator() },
            .init(
                name: "face",
                summary: "face geometry from the UltraFace CNN (or OpenCV's Haar cascade, or the dataset's box)",
                declaredOutputs: FaceEstimator.declaredOutputs,
                readsOptions: FaceEstimator.readsOptions
            ) { options in
                try options.faceDetector.makeEstimator(options: options)
            },
            .init(
                name: "eyes", summary: "eye distance and roll from OpenCV's eye cascade inside the face",
                declaredOutputs: EyesEstimator.declaredOutputs,
                readsOptions: EyesEstimator.readsOptions
            ) { options in
                try EyesEstimator(cascadeDirectory: options.cascadeDirectory)
            },
            .init(
                name: "quality", summary: "OFIQ-style quality on the face region (whole image without a face)",
                declaredOutputs: QualityEstimator.declaredOutputs,
                readsOptions: QualityEstimator.readsOptions
            ) { _ in QualityEstimator() },
            .init(
                name: "landmarks", summary: "dlib's regression-tree landmarks (68 or 5 points) in the face box",
                declaredOutputs: LandmarksEstimator.declaredOutputs
            ) { options in
                try LandmarksEstimator(
                    modelPath: options.landmarkModelPath,
                    mapping: options.faceDetector == .cascade ? .haarCascade : .ultraFace,
                    points: options.landmarkPoints)
            },
            .init(
                name: "head",
                summary: "head yaw, pitch (PnP on a 3D template) and roll (eye line), ISO/IEC 39794-5 signs",
                declaredOutputs: HeadPoseEstimator.declaredOutputs
            ) { _ in HeadPoseEstimator() },
            .init(
                name: "eye_state", summary: "eye openness from the eyelid landmarks (OFIQ EyesOpen, eye aspect ratio)",
                declaredOutputs: EyeStateEstimator.declaredOutputs
            ) { _ in EyeStateEstimator() },
            .init(
                name: "mouth", summary: "mouth openness from the inner-lip landmarks (OFIQ MouthClosed)",
                declaredOutputs: MouthEstimator.declaredOutputs
            ) { _ in MouthEstimator() },
            .init(
                name: "minifasnet",
                summary: "MiniFASNetV2 + V1SE PAD networks (Silent-Face-Anti-Spoofing) on crops of the face box",
                declaredOutputs: MiniFASNetEstimator.declaredOutputs,
                readsOptions: MiniFASNetEstimator.readsOptions
            ) { options in
                let runtime = try options.onnxRuntime(for: "minifasnet")
                do {
                    return try MiniFASNetEstimator(
                        runtime: runtime, folder: options.modelDirectory + "/minifasnet",
                        runners: options.networkRunners)
                } catch let error as OnnxError {
                    throw EstimatorSetupError(estimator: "minifasnet", message: "\(error.message) (give --models DIR)")
                }
            },
        ])
    }

    /// `--estimators` names with their aliases resolved: `landmarks.points` is the `landmarks`
    /// estimator with every point as an output (`landmarks.x0`, `landmarks.y0`, ...).
    package static func resolveAliases(_ names: [String], options: inout EstimatorOptions) -> [String] {
        var resolved: [String] = []
        for name in names {
            var estimator = name
            if name == "landmarks.points" {
                options.landmarkPoints = true
                estimator = "landmarks"
            }
            if !resolved.contains(estimator) { resolved.append(estimator) }
        }
        return resolved
    }

    /// The built-in estimators plus one entry per external program (`--external NAME=CMD`).
    package static func registry(with options: EstimatorOptions) -> EstimatorRegistry {
        var entries = registry.entries
        if let model = options.padModelPath {
            entries.append(
                .init(
                    name: "pad", summary: "colour-texture PAD baseline (\(model))",
                    declaredOutputs: PADEstimator.declaredOutputs,
                    readsOptions: PADEstimator.readsOptions
                ) { _ in
                    try PADEstimator(modelPath: model)
                })
        }
        for (name, spec) in options.onnxModels.sorted(by: { $0.key < $1.key }) {
            entries.append(
                .init(
                    name: name, summary: "ONNX model: \(spec)", readsOptions: OnnxModelEstimator.readsOptions
                ) { options in
                    let runtime = try options.onnxRuntime(for: name)
                    do {
                        return try OnnxModelEstimator(
                            name: name, specPath: spec, runtime: runtime, runners: options.networkRunners)
                    } catch let error as OnnxError {
                        throw EstimatorSetupError(estimator: name, message: error.message)
                    }
                })
        }
        for (name, command) in options.externalCommands.sorted(by: { $0.key < $1.key }) {
            entries.append(
                .init(name: name, summary: "external program: \(command)") { options in
                    try ExternalEstimator(
                        name: name, command: command, timeout: options.externalTimeout,
                        processes: options.externalProcesses)
                })
        }
        return EstimatorRegistry(entries: entries)
    }

    /// Names an external estimator cannot take: the built-in estimators, the timing steps
    /// every run records (`decode`, `sample_total`), whose columns (`decode_ns`, ...) and
    /// `timing.csv` rows an external of that name would duplicate. (`fused`, the prefix of a
    /// profile's fused score, is refused too.)
    package static let reservedStepNames = ["decode", "sample_total"]

    /// Why `name` cannot name an external estimator (`--external NAME=COMMAND`) or an ONNX model
    /// (`--onnx NAME=SPEC`), or nil. `pad` is
    /// free (an external PAD model is named `pad`, as the presets expect) unless `--model` runs
    /// the built-in PAD baseline under that name.
    package static func externalNameProblem(_ name: String, withPadModel: Bool) -> String? {
        if let problem = OutputDescriptor.nameProblem(name) {
            return "external estimator name: \(problem)"
        }
        guard name.range(of: "^[a-z][a-z0-9_]*$", options: .regularExpression) != nil else {
            return
                "external estimator name '\(TextBytes.quote(name, limit: 80))' must be lower-case letters, digits or _"
        }
        let builtIn = registry.entries.map(\.name) + (withPadModel ? ["pad"] : [])
        if name == "fused" {
            return "external estimator name 'fused' is reserved for a profile's fused score (fused.<name>); "
                + "choose another name"
        }
        if builtIn.contains(name) || reservedStepNames.contains(name) {
            return "external estimator name '\(name)' is taken by padbench's own "
                + (builtIn.contains(name) ? "estimator" : "timing step") + " '\(name)'; choose another name"
        }
        return nil
    }

    /// Every output padbench knows by type, by full name (`quality.sharpness`): the built-in
    /// estimators' declared outputs, the PAD baseline's `pad.score`, and what the vendor importers
    /// produce. No estimator is built and no cascade or model file is read, so this is cheap and
    /// works without the files. A profile gate on one of these that a run did not measure is left
    /// out (and said so); a name that is neither known here nor declared by the run is an error.
    package static func knownOutputs() -> [String: OutputDescriptor] {
        var catalogue = VendorOutputs.catalogue
        for entry in registry.entries {
            for output in entry.declaredOutputs ?? [] { catalogue["\(entry.name).\(output.name)"] = output }
        }
        for output in PADEstimator.declaredOutputs { catalogue["pad.\(output.name)"] = output }
        return catalogue
    }

    /// ``knownOutputs()`` under its earlier name (callers that validate against padbench's own
    /// outputs only).
    package static func outputs() -> [String: OutputDescriptor] { knownOutputs() }

    /// Human-readable listing for `padbench estimators list`.
    package static func describe(options: EstimatorOptions) throws -> String {
        var lines: [String] = []
        for entry in registry.entries {
            let estimator: any Estimator
            do { estimator = try entry.factory(options) } catch {
                // A missing model file (libdlib-data not installed) must not hide the other estimators.
                lines.append("\(entry.name): \(entry.summary)")
                lines.append("  not available: \(error)")
                for output in entry.declaredOutputs ?? [] {
                    lines.append("  \(entry.name).\(output.name)  \(output.unit)  \(output.summary)")
                }
                continue
            }
            lines.append("\(estimator.name) \(estimator.version): \(entry.summary)")
            if !estimator.dependencies.isEmpty {
                lines.append("  needs: \(estimator.dependencies.joined(separator: ", "))")
            }
            for (key, value) in estimator.parameters.sorted(by: { $0.key < $1.key }) {
                lines.append("  parameter \(key) = \(value)")
            }
            for output in estimator.outputs {
                let range = "[\(format(output.minimum)), \(format(output.maximum))]"
                let unit = output.unit.isEmpty ? "" : " \(output.unit)"
                lines.append(
                    "  \(estimator.name).\(output.name)  \(range)"
                        + "\(unit)  \(output.direction.rawValue)  \(output.summary)"
                )
            }
        }
        return lines.joined(separator: "\n")
    }

    static func format(_ value: Double) -> String {
        if value == .infinity { return "inf" }
        if value == -.infinity { return "-inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return "\(value)"
    }
}

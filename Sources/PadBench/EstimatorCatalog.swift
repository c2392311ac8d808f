import PadEstimators

/// The built-in estimators, as the CLI and profile validation see them.
public enum EstimatorCatalog {
    /// Every estimator padbench ships, in the order they run when all are selected.
    public static var registry: EstimatorRegistry {
        EstimatorRegistry(entries: [
            .init(name: "image", summary: "image size after EXIF orientation") { _ in ImageEstimator() },
            .init(name: "face", summary: "face geometry from OpenCV's frontal-face Haar cascade (or the dataset's box)") { options in
                try FaceEstimator(cascadeDirectory: options.cascadeDirectory, useDatasetBox: options.useDatasetFaceBox)
            },
            .init(name: "eyes", summary: "eye distance and roll from OpenCV's eye cascade inside the face") { options in
                try EyesEstimator(cascadeDirectory: options.cascadeDirectory)
            },
            .init(name: "quality", summary: "OFIQ-style quality on the face region (whole image without a face)") { _ in QualityEstimator() },
        ])
    }

    /// The built-in estimators plus one entry per external program (`--external NAME=CMD`).
    public static func registry(with options: EstimatorOptions) -> EstimatorRegistry {
        var entries = registry.entries
        if let model = options.padModelPath {
            entries.append(.init(name: "pad", summary: "colour-texture PAD baseline (\(model))") { _ in try PADEstimator(modelPath: model) })
        }
        for (name, command) in options.externalCommands.sorted(by: { $0.key < $1.key }) {
            entries.append(.init(name: name, summary: "external program: \(command)") { options in
                try ExternalEstimator(name: name, command: command, timeout: options.externalTimeout)
            })
        }
        return EstimatorRegistry(entries: entries)
    }

    /// Output descriptors by full name (`quality.sharpness`) for every built-in estimator; what
    /// profiles are validated against. Estimators whose set-up fails (no cascade files) still
    /// declare outputs through their type, so this never needs the files.
    public static func outputs(options: EstimatorOptions = EstimatorOptions()) -> [String: OutputDescriptor] {
        var catalogue = VendorOutputs.catalogue
        for entry in registry.entries {
            guard let estimator = try? entry.factory(options) else { continue }
            for output in estimator.outputs { catalogue["\(estimator.name).\(output.name)"] = output }
        }
        return catalogue
    }

    /// Human-readable listing for `padbench estimators list`.
    public static func describe(options: EstimatorOptions) throws -> String {
        var lines: [String] = []
        for entry in registry.entries {
            let estimator = try entry.factory(options)
            lines.append("\(estimator.name) \(estimator.version): \(entry.summary)")
            if !estimator.dependencies.isEmpty { lines.append("  needs: \(estimator.dependencies.joined(separator: ", "))") }
            for (key, value) in estimator.parameters.sorted(by: { $0.key < $1.key }) {
                lines.append("  parameter \(key) = \(value)")
            }
            for output in estimator.outputs {
                let range = "[\(format(output.minimum)), \(format(output.maximum))]"
                let unit = output.unit.isEmpty ? "" : " \(output.unit)"
                lines.append("  \(estimator.name).\(output.name)  \(range)\(unit)  \(output.direction.rawValue)  \(output.summary)")
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

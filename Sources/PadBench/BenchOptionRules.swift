import PadDataset
import PadProfiles
import PadText
import PadVideo

/// The rules `bench`'s options obey wherever they come from: the command line (the CLI's
/// `validate()`) or an interrupted run's `job.json` (``ResumeJob/problems(path:)``), so a job file
/// can hold nothing the command line would refuse. Each rule returns the problem in the command
/// line's words, or nil.
package enum BenchOptionRules {
    package static func concurrency(_ value: Int) -> String? {
        (1...BenchJob.maximumConcurrency).contains(value)
            ? nil : "--concurrency must be 1 to \(BenchJob.maximumConcurrency) samples at once, got \(value)"
    }

    package static func maxPixels(_ value: Int) -> String? {
        value >= 1 ? nil : "--max-pixels must be at least 1, got \(value)"
    }

    package static func maxImageBytes(_ value: Int?) -> String? {
        guard let value, value < 1 else { return nil }
        return "--max-image-bytes must be at least 1, got \(value)"
    }

    package static func externalProcesses(_ value: Int?) -> String? {
        guard let value, !(1...BenchJob.maximumConcurrency).contains(value) else { return nil }
        return "--external-processes must be 1 to \(BenchJob.maximumConcurrency), got \(value)"
    }

    package static func externalTimeout(_ value: Double) -> String? {
        value.isFinite && value > 0 ? nil : "--external-timeout must be a positive number of seconds"
    }

    /// OULU-NPU defines protocols 1-4, with 6 folds in protocols 3 and 4.
    package static func oulu(protocol number: Int?, fold: Int?) -> String? {
        if let number, !(1...4).contains(number) {
            return "--oulu-protocol must be 1, 2, 3 or 4 (OULU-NPU's protocols), got \(number)"
        }
        guard let fold else { return nil }
        guard let number, number >= 3 else {
            return "--oulu-fold belongs to --oulu-protocol 3 or 4 (the protocols with folds)"
        }
        return (1...6).contains(fold) ? nil : "--oulu-fold must be 1 to 6 (protocol \(number)'s folds), got \(fold)"
    }

    /// `--frames N` or `--frame-step K`, not both; each at least 1; the video limits positive.
    package static func frames(
        count: Int?, step: Int?, maxVideoFrames: Int, maxVideoSeconds: Double, maxDecodedPixels: Int
    ) -> String? {
        if count != nil && step != nil { return "give --frames or --frame-step, not both" }
        if let count, count < 1 { return "--frames must be at least 1, got \(count)" }
        if let step, step < 1 { return "--frame-step must be at least 1, got \(step)" }
        if maxVideoFrames < 1 { return "--max-video-frames must be at least 1" }
        if !(maxVideoSeconds.isFinite && maxVideoSeconds > 0) { return "--max-video-seconds must be a positive number" }
        if maxDecodedPixels < 1 { return "--max-decoded-pixels must be at least 1" }
        return nil
    }

    /// A dataset layout's name.
    package static func layout(_ name: String) -> String? {
        DatasetLayout(rawValue: name) != nil
            ? nil
            : "layout '\(TextBytes.quote(name, limit: 80))' is not one of "
                + DatasetLayout.allCases.map(\.rawValue).joined(separator: ", ")
    }

    /// A frame aggregate's name.
    package static func aggregate(_ name: String?) -> String? {
        guard let name, FrameAggregate(rawValue: name) == nil else { return nil }
        return "frame aggregate '\(TextBytes.quote(name, limit: 80))' is not one of "
            + FrameAggregate.allCases.map(\.rawValue).joined(separator: ", ")
    }

    /// The names of `--external` programs and `--onnx` models: the external-name grammar, no name
    /// given to both.
    package static func estimatorNames(externals: [String], onnx: [String], withPadModel: Bool) -> String? {
        for name in externals + onnx {
            if let problem = EstimatorCatalog.externalNameProblem(name, withPadModel: withPadModel) {
                return problem
            }
        }
        if let both = Set(externals).intersection(onnx).sorted().first {
            return "'\(both)' names both an --external program and an --onnx model; give one of them another name"
        }
        return nil
    }
}

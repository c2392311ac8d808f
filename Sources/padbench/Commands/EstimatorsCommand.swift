import ArgumentParser
import PadBench
import PadEstimators

/// `padbench estimators list`: every built-in estimator with its outputs, ranges, directions,
/// version and parameters.
struct EstimatorsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "estimators",
        abstract: "List the built-in estimators and their outputs.",
        subcommands: [List.self],
        defaultSubcommand: List.self
    )

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print every estimator with its outputs, ranges, directions, version and parameters.")

        @Option(help: "Folder holding OpenCV's cascade XML files.")
        var cascades: String = EstimatorOptions.defaultCascadeDirectory

        func run() throws {
            print(try EstimatorCatalog.describe(options: EstimatorOptions(cascadeDirectory: cascades)))
        }
    }
}

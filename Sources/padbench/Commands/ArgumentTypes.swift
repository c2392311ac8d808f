import ArgumentParser
import PadBench
import PadDataset
import PadMetrics
import PadReport

// Typed command-line values: ArgumentParser rejects a bad value as a usage error (exit 64) with
// the accepted values listed, before any work starts.

extension ScorePolarity: ExpressibleByArgument {
    public static var allValueStrings: [String] { ["bonafide-high", "attack-high"] }
}

extension ScoreFormat: ExpressibleByArgument {}

extension ScoreDirection: ExpressibleByArgument {}

extension EERRule: ExpressibleByArgument {}

extension RunComparison.GateKind: ExpressibleByArgument {}

extension DatasetLayout: ExpressibleByArgument {}

extension ThresholdCriterion: ExpressibleByArgument {
    public init?(argument: String) {
        guard let parsed = try? ThresholdCriterion(parsing: argument) else { return nil }
        self = parsed
    }
    public static var defaultCompletionKind: CompletionKind {
        .list(["eer", "min-hter", "bpcer@apcer=0.01", "apcer@bpcer=0.05"])
    }
}

extension Shard: ExpressibleByArgument {
    public init?(argument: String) { self.init(parsing: argument) }
}

/// A value that must be a finite number (NaN and infinities are usage errors).
struct FiniteDouble: ExpressibleByArgument, Sendable {
    var value: Double
    init?(argument: String) {
        guard let parsed = Double(argument), parsed.isFinite else { return nil }
        value = parsed
    }
    init(_ value: Double) { self.value = value }
    var defaultValueDescription: String { "\(value)" }
}

/// How a dataset folder is read, the same three options wherever a dataset is loaded with its
/// layout chosen by the user (`bench`, `dataset check`).
struct DatasetLayoutOptions: ParsableArguments {
    @Option(help: "Dataset layout: tree, manifest, celeba-spoof or oulu-npu (auto-detected when omitted).")
    var layout: DatasetLayout?

    @Option(help: "OULU-NPU protocol (1-4) whose lists give the splits.")
    var ouluProtocol: Int?

    @Option(help: "OULU-NPU fold (1-6) for protocols 3 and 4.")
    var ouluFold: Int?
}

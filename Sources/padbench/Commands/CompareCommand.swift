import ArgumentParser
import Foundation
import PadReport

/// `padbench compare BASE NEW`: the regression gate. Exit 0 nothing regressed, 1 regression,
/// 2 the archives cannot be compared (or are unreadable).
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two runs; exit 1 on an accuracy or latency regression, 2 when they cannot be compared.",
        discussion: """
            Accuracy: APCER_max and BPCER of every profile regress when they rise by more than --rate-tolerance \
            AND the new 95% Clopper-Pearson interval lies entirely above the base one. Latency: a step's p50 \
            regresses when it grows by more than --latency-ratio with at least --min-samples timed samples on both sides.
            """
    )

    @Argument(help: "Baseline archive or run folder.") var base: String
    @Argument(help: "New archive or run folder.") var new: String
    @Option(help: "Rise in a rate that counts (fraction; 0.005 = 0.5 percentage points).") var rateTolerance: Double = 0.005
    @Option(help: "Growth of a p50 latency that counts.") var latencyRatio: Double = 1.15
    @Option(help: "Minimum timed samples per side for a latency verdict.") var minSamples: Int = 30
    @Flag(help: "Compare archives on different data.") var allowDifferentDataset = false
    @Flag(help: "Print JSON instead of a table.") var json = false
    @Option(help: "Write JUnit XML (one test case per checked metric).") var junit: String?

    func run() throws {
        var settings = RunComparison.Settings()
        settings.rateTolerance = rateTolerance
        settings.latencyRatio = latencyRatio
        settings.minSamples = minSamples
        settings.allowDifferentDataset = allowDifferentDataset
        let comparison: RunComparison
        do {
            comparison = try RunComparison(base: StoredRun(path: base), new: StoredRun(path: new), settings: settings)
        } catch {
            FileHandle.standardError.write(Data("padbench compare: \(error)\n".utf8))
            throw ExitCode(2)
        }
        if let junit { try comparison.junit.write(toFile: junit, atomically: true, encoding: .utf8) }
        if json {
            let object: [String: Any] = [
                "regressed": comparison.regressed, "missing": comparison.missing,
                "checks": comparison.checks.map { ["name": $0.name, "base": $0.base, "new": $0.new, "regressed": $0.regressed, "detail": $0.detail] as [String: Any] },
            ]
            let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        } else {
            let rows = comparison.checks.map { [$0.regressed ? "REGRESSED" : "ok", $0.name, RateText.fixed($0.base, 4), RateText.fixed($0.new, 4), $0.detail] }
            print(TextTable(header: ["verdict", "metric", "base", "new", "detail"], rows: rows).render())
            for line in comparison.missing { print("missing: \(line)") }
            print(comparison.regressed ? "\nREGRESSION: \(comparison.checks.filter(\.regressed).count) metric(s)" : "\nno regression")
        }
        if comparison.regressed { throw ExitCode(1) }
    }
}

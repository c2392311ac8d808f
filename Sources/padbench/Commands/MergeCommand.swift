import ArgumentParser
import PadBench
import PadEvaluation
import PadMetrics

/// `padbench merge`: shard archives into one report, exactly as one run would give.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge the archives of bench --shard k/n runs into one report (same numbers as one run).")

    @Argument(help: "Shard archives (results.tar.zst), one per shard.") var archives: [String]
    @Option(help: "Output folder.") var out: String
    @Flag(help: "Replace a complete run under --out (otherwise refused).") var force = false
    @Option(
        name: .customLong("attack-potential"),
        help: "CSV species,attack_potential: report APCER_AP per level, over the shards' own levels.")
    var attackPotential: String?

    func run() throws {
        let outcome: RunOutcome
        let levels = try CommandSupport.atRunTime { try attackPotential.map { try AttackPotential.read($0).levels } }
        do {
            outcome = try MergeRunner().merge(
                archives, outputFolder: out, force: force, commandLine: CommandLine.arguments,
                attackPotential: levels)
        } catch let error as EvaluationError {
            throw RuntimeFailure("\(error)")
        }
        print(TerminalTables.profileTable(outcome.results))
        CommandSupport.printWarnings(outcome.results)
        print(
            "\nmerged \(archives.count) shards: \(outcome.table.count) samples (failed "
                + "\(outcome.table.failedCount))\nrun folder: \(outcome.folder)\narchive:    \(outcome.archivePath)"
        )
    }
}

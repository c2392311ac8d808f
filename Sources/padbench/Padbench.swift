import ArgumentParser
import Foundation
import PadBench
import PadExternal

/// The `padbench` command: evaluate face presentation-attack detection and face image quality
/// on labelled datasets. The subcommands, their options and worked examples are in
/// docs/commands.md ("Command line"); `padbench help <subcommand>` prints the same options.
@main
struct Padbench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "padbench",
        abstract: "Evaluate face presentation-attack detection and image quality on labelled datasets.",
        discussion: """
            Measure once, decide many times: `bench` decodes every image once, runs the estimators the \
            profiles need, and scores every profile (ISO/IEC 30107-3 APCER per species, BPCER, EER, \
            curves, timing). `eval` re-decides stored measurements or imported score files.
            """,
        version: ToolInfo.version,
        subcommands: [
            BenchCommand.self, EvalCommand.self, TrainCommand.self, ImportCommand.self, MergeCommand.self,
            FoldsCommand.self, CompareCommand.self, ShowCommand.self, ProfilesCommand.self, DatasetCommand.self,
            EstimatorsCommand.self, PlotCommand.self, TableCommand.self,
        ]
    )

    /// One line and exit 1 when the process's limits leave no room for any run (see
    /// `ResourceLimits`), before a command starts. Every process padbench starts, and every orphan
    /// of theirs, ends with the command (``ChildProcesses``): padbench is their subreaper and ends
    /// them before it exits.
    static func main() async {
        FreeMemory.limitArenas()
        if let problem = ResourceLimits.problem() {
            FileHandle.standardError.write(Data("Error: \(problem)\n".utf8))
            Foundation.exit(1)
        }
        ChildProcesses.becomeSubreaper()
        do {
            var command = try parseAsRoot()
            if var asynchronous = command as? AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            ChildProcesses.endAll()
            exit(withError: error)
        }
        ChildProcesses.endAll()
    }
}

import ArgumentParser
import PadBench
import PadProfiles

/// `padbench profiles list|show|validate`.
struct ProfilesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profiles",
        abstract: "List, show and validate threshold profiles.",
        subcommands: [List.self, Show.self, Validate.self],
        defaultSubcommand: List.self
    )

    /// Parse only: no estimator is built and no cascade file is read (``ProfileCheck/standalone(_:)``
    /// checks the output names padbench knows by type).
    static let loader = ProfileLoader()

    /// A line naming the outputs only a run can provide, or nil.
    static func fromRunNote(_ names: [String]) -> String? {
        names.isEmpty
            ? nil
            : "outputs from the run (--external NAME=..., import, or an archive): \(names.joined(separator: ", "))"
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the built-in presets.")
        func run() throws {
            for name in ProfileLoader.builtInNames {
                print(ProfileDescription.summaryLine(try ProfilesCommand.loader.builtIn(name)))
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a profile's gates: exact, approximation, calibrated or skipped.")
        @Argument(help: "Preset name or YAML file.") var profile: String
        func run() throws {
            let checked = try CommandSupport.atRunTime {
                try ProfileCheck.standalone(try ProfilesCommand.loader.resolve(profile))
            }
            print(ProfileDescription.text(checked.profile))
            if let note = ProfilesCommand.fromRunNote(checked.fromRun) { print(note) }
        }
    }

    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check profile files; errors name file, line and column.")
        @Argument(help: "YAML files.") var files: [String]
        func run() throws {
            var failed = false
            for file in files {
                do {
                    let checked = try ProfileCheck.standalone(try ProfilesCommand.loader.load(file: file))
                    let note = ProfilesCommand.fromRunNote(checked.fromRun).map { "; \($0)" } ?? ""
                    print("\(file): ok (\(checked.profile.name), \(checked.profile.gates.count) gates)\(note)")
                } catch {
                    print("\(error)")
                    failed = true
                }
            }
            if failed { throw ExitCode(1) }
        }
    }
}

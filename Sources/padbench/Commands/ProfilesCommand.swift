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
            abstract: "Check profile files as bench does; every error, each with file, line and column.")
        @Argument(help: "YAML files.") var files: [String]
        func run() throws {
            var failed = false
            var names: [String: String] = [:]
            for file in files {
                let (diagnosis, fromRun) = ProfileCheck.standaloneDiagnosis(file: file)
                for error in diagnosis.errors { print(error) }
                guard let profile = diagnosis.profile else {
                    failed = true
                    continue
                }
                // bench refuses two profiles of one name in one run.
                if let other = names[profile.name] {
                    print("\(file):1:1: duplicate profile name '\(profile.name)' (also in \(other))")
                    failed = true
                    continue
                }
                names[profile.name] = file
                let note = ProfilesCommand.fromRunNote(fromRun).map { "; \($0)" } ?? ""
                print("\(file): ok (\(profile.name), \(profile.gates.count) gates)\(note)")
            }
            if failed { throw ExitCode(1) }
        }
    }
}

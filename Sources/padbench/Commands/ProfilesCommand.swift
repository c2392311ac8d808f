import ArgumentParser
import Foundation
import PadBench
import PadProfiles

/// `padbench profiles list|show|export|validate`.
struct ProfilesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profiles",
        abstract: "List, show and validate threshold profiles.",
        subcommands: [List.self, Show.self, Export.self, Validate.self],
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

    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a preset's YAML to a file to edit (then give the file to --profiles).")
        @Argument(help: "Preset name.") var preset: String
        @Option(
            name: .shortAndLong, help: "File to write (default NAME.yaml in the current folder; - for standard output)."
        )
        var out: String?
        @Flag(help: "Replace the file when it exists.") var force = false
        func run() throws {
            let profile = try CommandSupport.atRunTime { try ProfilesCommand.loader.builtIn(preset) }
            let path = out ?? "\(profile.name).yaml"
            if path == "-" {
                print(profile.yaml, terminator: profile.yaml.hasSuffix("\n") ? "" : "\n")
                return
            }
            // Never over a file of the user's unless asked: without --force the write refuses an existing path.
            do {
                try Data(profile.yaml.utf8).write(
                    to: URL(fileURLWithPath: path), options: force ? [.atomic] : [.withoutOverwriting])
            } catch {
                let exists = FileManager.default.fileExists(atPath: path)
                throw RuntimeFailure(
                    exists && !force
                        ? "\(path) exists; give --force to replace it, or --out another file"
                        : "cannot write \(path): \(RunFolder.reason(error))")
            }
            print("wrote \(path) (\(profile.name); edit it, rename the profile, then: --profiles \(path))")
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

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

    static var loader: ProfileLoader { ProfileLoader(catalogue: EstimatorCatalog.outputs()) }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the built-in presets.")
        func run() throws {
            for name in ProfileLoader.builtInNames {
                print(ProfileDescription.summaryLine(try ProfilesCommand.loader.builtIn(name)))
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show a profile's gates: exact, approximation, calibrated or skipped.")
        @Argument(help: "Preset name or YAML file.") var profile: String
        func run() throws {
            do { print(ProfileDescription.text(try ProfilesCommand.loader.resolve(profile))) } catch { throw RuntimeFailure("\(error)") }
        }
    }

    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Check profile files; errors name file, line and column.")
        @Argument(help: "YAML files.") var files: [String]
        func run() throws {
            var failed = false
            for file in files {
                do {
                    let profile = try ProfilesCommand.loader.load(file: file)
                    print("\(file): ok (\(profile.name), \(profile.gates.count) gates)")
                } catch {
                    print("\(error)")
                    failed = true
                }
            }
            if failed { throw ExitCode(1) }
        }
    }
}

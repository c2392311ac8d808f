import ArgumentParser
import Foundation
import PadBench
import PadDataset
import PadEstimators
import PadEvaluation
import PadMetrics
import PadProfiles
import PadRuns

/// A failure at run time (a missing file, bad data, a profile with a typo): one line on standard
/// error and exit 1, never the usage text. Exit 64 (ArgumentParser's `ValidationError`) is only
/// for a wrong command line; `compare` exits 2 instead of 1.
struct RuntimeFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Small helpers shared by the subcommands.
enum CommandSupport {
    /// The dataset manifest's `attack_potential` levels with `--attack-potential FILE`'s over them; nil
    /// when neither names one (bench and import).
    static func attackPotential(_ file: String?, dataset: LoadedDataset) throws -> [String: String]? {
        var levels = dataset.attackPotential
        if let file {
            let given = try CommandSupport.atRunTime { try AttackPotential.read(file).levels }
            levels.merge(given) { _, fromFile in fromFile }
        }
        return levels.isEmpty ? nil : levels
    }

    /// Runs `body`; any error but a usage error or an exit code becomes a ``RuntimeFailure``.
    static func atRunTime<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as ValidationError { throw error } catch let error as ExitCode {
            throw error
        } catch let error as RuntimeFailure {
            throw error
        } catch {
            throw RuntimeFailure(RunFolder.describe(error))
        }
    }

    /// Runs `body`; a library an estimator needs that is missing or too old (ONNX Runtime) is one
    /// line naming what to install and exit 64, before any sample is measured.
    static func exitingOnMissingLibrary<T>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch let error as EstimatorSetupError where error.missingLibrary {
            FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
            throw ExitCode(64)
        }
    }

    /// ``atRunTime(_:)`` for commands that read stored runs: a run that disagrees with itself
    /// (``StoredRunMismatch``) is one line and exit 2, as `compare` exits when runs cannot be
    /// compared.
    static func checkingStoredRuns<T>(_ command: String, _ body: () throws -> T) throws -> T {
        try atRunTime {
            do { return try body() } catch let error as StoredRunMismatch {
                FileHandle.standardError.write(Data("padbench \(command): \(error)\n".utf8))
                throw ExitCode(2)
            }
        }
    }

    /// Whether two paths name one existing file (the same device and inode, links followed), or
    /// are the same text when neither exists yet.
    static func sameFile(_ a: String, _ b: String) -> Bool {
        var x = stat(), y = stat()
        let hasA = stat(a, &x) == 0, hasB = stat(b, &y) == 0
        if hasA && hasB { return x.st_dev == y.st_dev && x.st_ino == y.st_ino }
        return !hasA && !hasB && URL(fileURLWithPath: a).standardized.path == URL(fileURLWithPath: b).standardized.path
    }

    static func atRunTime<T>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch let error as ValidationError { throw error } catch let error as ExitCode {
            throw error
        } catch let error as RuntimeFailure {
            throw error
        } catch {
            throw RuntimeFailure(RunFolder.describe(error))
        }
    }

    static func loadDataset(_ path: String, layout: DatasetLayout?, loader: DatasetLoader = DatasetLoader())
        throws -> LoadedDataset
    {
        let loaded = try atRunTime { try loader.load(path, layout: layout) }
        if !loaded.problems.isEmpty {
            let shown = loaded.problems.prefix(20).map { "  \($0)" }.joined(separator: "\n")
            let more = loaded.problems.count > 20 ? "\n  ... and \(loaded.problems.count - 20) more" : ""
            throw RuntimeFailure(
                "dataset \(path) has \(loaded.problems.count) problem(s); "
                    + "fix them first (padbench dataset check):\n\(shown)\(more)"
            )
        }
        if loaded.samples.isEmpty { throw RuntimeFailure("dataset \(path) has no images") }
        return loaded
    }

    static func loadProfiles(_ list: String) throws -> [Profile] {
        let references = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            !$0.isEmpty
        }
        guard !references.isEmpty else { throw ValidationError("--profiles is empty") }
        // Parsed only: output names are checked against the run's own outputs once the run knows
        // them (bench after the describe handshake, import after reading the files, eval --archive
        // and merge against the stored columns).
        return try atRunTime { try ProfileLoader().resolveAll(references) }
    }

    /// Notes a person should see (gates left out, calibration warnings), on standard error.
    static func printWarnings(_ results: [ProfileResult]) {
        for line in TerminalTables.warnings(results) {
            FileHandle.standardError.write(Data("padbench: warning: \(line)\n".utf8))
        }
        for line in TerminalTables.information(results) { print("note: \(line)") }
    }

    static func defaultRunFolder(name: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return "reports/\(name)-\(formatter.string(from: Date()))"
    }
}

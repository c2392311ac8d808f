import ArgumentParser
import Foundation
import PadMetrics
import PadReport
import PadRuns
import PadText
import PadVocabulary

/// `padbench compare BASE NEW`: the regression gate. Exit 0 nothing regressed, 1 regression,
/// 2 the runs cannot be compared (or are unreadable).
struct CompareCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Compare two runs; exit 1 on an accuracy or latency regression, 2 when they cannot be compared.",
        discussion: """
            Accuracy, per profile on the reported split: on the same samples, APCER of each species and BPCER \
            regress when they rise by more than --rate-tolerance AND an exact one-sided McNemar test on the \
            per-sample decisions gives p < 0.05; EER and BPCER at APCER 1%, 5%, 10% of the swept score regress when \
            they rise by more than --rate-tolerance AND a paired bootstrap over subjects (or presentations) gives a \
            one-sided interval of new - base that excludes zero (--bootstrap-confidence, --bootstrap-replicates, \
            --bootstrap-seed), when the smallest stratum (bona fide or a species) has at least \
            --bootstrap-min-units units; with fewer they are shown as "not gated (n subjects)"; on different samples (--allow-different-dataset), when the new \
            95% Clopper-Pearson interval lies entirely above the base one. Latency: a step regresses when the whole \
            95% interval of its p50 or p99 ratio (new / base) lies above --latency-ratio, on the step's thread CPU \
            time where both runs have it (--latency-clock cpu, the default; wall time is shown) and on wall time \
            otherwise (an external program's step) or with --latency-clock wall; latency is not gated when the two \
            runs' reference work (a fixed loop timed during each bench) differs by more than --machine-speed-tolerance. A gated metric missing \
            on one side, a profile whose definition changed, or no gated metric at all exits 2. --profiles limits \
            the accuracy gate to the named profiles; the other profiles' metrics are shown, not gated (JUnit \
            <skipped/>). Fairness (runs with group.* labels, fairness.csv): FDR dropping or GARBE rising by more \
            than --fairness-tolerance. The whole system (both runs made with --comparisons, vulnerability.csv): IAPMR \
            per species and pooled, and each profile's IAPAR and system FNMR, gated with accuracy as APCER and \
            BPCER are (McNemar on the paired comparisons; intervals on different ones with \
            --allow-different-dataset); a run without comparisons is a note (docs/vulnerability.md).
            """
    )

    @Argument(help: "Baseline archive or run folder.") var base: String
    @Argument(help: "New archive or run folder.") var new: String
    @Option(help: "Rise in a rate that counts (fraction in [0, 1); 0.005 = 0.5 percentage points).")
    var rateTolerance: FiniteDouble = FiniteDouble(0.005)
    @Option(help: "Growth of a latency quantile that counts (>= 1).") var latencyRatio: FiniteDouble = FiniteDouble(1.3)
    @Option(help: "Minimum timed samples per side for a latency verdict (>= 1).") var minSamples: Int = 30
    @Option(
        help: "Clock of the latency gate: cpu (the step's thread CPU time; wall for steps without it) or wall.")
    var latencyClock: RunComparison.LatencyClock = .cpu
    @Option(
        help: "Latency is gated only when both runs' reference work (timing.csv) took times within this factor (>= 1).")
    var machineSpeedTolerance: FiniteDouble = FiniteDouble(1.15)
    @Option(help: "What to gate: accuracy, latency, fairness or all.") var gate: RunComparison.GateKind = .all
    @Option(help: "Drop of FDR or rise of GARBE that counts, per group.* characteristic (in [0, 1]).")
    var fairnessTolerance: FiniteDouble = FiniteDouble(0.05)
    @Option(help: "Profiles the accuracy gate judges, comma-separated (default: all); others are shown, not gated.")
    var profiles: String?
    @Option(help: "Paired bootstrap replicates for EER and BPCER@APCER (100 to 100000).")
    var bootstrapReplicates: Int = PairedBootstrap.replicates
    @Option(help: "Seed of the paired bootstrap (SplitMix64).") var bootstrapSeed: UInt64 = PairedBootstrap.seed
    @Option(help: "One-sided confidence of the paired bootstrap's interval, in (0.5, 1).")
    var bootstrapConfidence: FiniteDouble = FiniteDouble(PairedBootstrap.confidence)
    @Option(help: "Units (subjects, else presentations) the smallest stratum needs for a bootstrap verdict (>= 2).")
    var bootstrapMinUnits: Int = PairedBootstrap.minimumUnits
    @Flag(help: "Compare runs on different samples (interval test instead of McNemar).") var allowDifferentDataset =
        false
    @Flag(help: "Print JSON instead of a table.") var json = false
    @Option(help: "Write JUnit XML (one test case per checked metric).") var junit: String?
    @Option(help: "Write the comparison as an HTML page (each metric, its test and its verdict).") var html: String?

    func validate() throws {
        guard rateTolerance.value >= 0 && rateTolerance.value < 1 else {
            throw ValidationError("--rate-tolerance must be in [0, 1), got \(rateTolerance.value)")
        }
        guard (0...1).contains(fairnessTolerance.value) else {
            throw ValidationError("--fairness-tolerance must be in [0, 1], got \(fairnessTolerance.value)")
        }
        guard machineSpeedTolerance.value >= 1 else {
            throw ValidationError("--machine-speed-tolerance must be at least 1, got \(machineSpeedTolerance.value)")
        }
        guard latencyRatio.value >= 1 else {
            throw ValidationError("--latency-ratio must be at least 1, got \(latencyRatio.value)")
        }
        // Each replicate costs two exact curves per profile: a million is hours on a large run,
        // and an unbounded number is a hang, not a setting.
        guard (100...100_000).contains(bootstrapReplicates) else {
            throw ValidationError("--bootstrap-replicates must be 100 to 100000, got \(bootstrapReplicates)")
        }
        guard bootstrapConfidence.value > 0.5 && bootstrapConfidence.value < 1 else {
            throw ValidationError("--bootstrap-confidence must be in (0.5, 1), got \(bootstrapConfidence.value)")
        }
        guard bootstrapMinUnits >= 2 else {
            throw ValidationError("--bootstrap-min-units must be at least 2, got \(bootstrapMinUnits)")
        }
        if let profiles, Self.names(profiles).isEmpty {
            throw ValidationError("--profiles names no profile: '\(profiles)'")
        }
        guard minSamples >= 1 else { throw ValidationError("--min-samples must be at least 1, got \(minSamples)") }
    }

    struct Report: Encodable {
        /// `regression` or `no regression`: the one word a CI script reads.
        var verdict: String
        var regressed: Bool
        var paired: Bool
        var test: String
        /// The paired bootstrap's replicates, seed and one-sided confidence, when it ran.
        var bootstrap: PairedBootstrap.Settings?
        var notes: [String]
        var checks: [RunComparison.Check]
    }

    /// `--junit` or `--html` onto an input (an archive read, or a link to it), or both onto one
    /// file: one line and exit 64 before anything is read or written (the user's run is never
    /// overwritten by its own comparison).
    func refuseOutputsOntoInputs() throws {
        let outputs = [("--junit", junit), ("--html", html)].compactMap { name, path in path.map { (name, $0) } }
        let inputs = [base, new].flatMap { [$0, $0 + "/" + RunFile.archive.name] }
        for (name, output) in outputs {
            if let input = inputs.first(where: { CommandSupport.sameFile(output, $0) }) {
                FileHandle.standardError.write(
                    Data("padbench compare: \(name) \(output) is the input \(input); refusing to overwrite it\n".utf8))
                throw ExitCode(64)
            }
        }
        if outputs.count == 2 && CommandSupport.sameFile(outputs[0].1, outputs[1].1) {
            FileHandle.standardError.write(Data("padbench compare: --junit and --html name the same file\n".utf8))
            throw ExitCode(64)
        }
    }

    /// `a,b , c` -> ["a", "b", "c"].
    static func names(_ list: String) -> [String] {
        list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    func run() throws {
        try refuseOutputsOntoInputs()
        var settings = RunComparison.Settings()
        settings.rateTolerance = rateTolerance.value
        settings.latencyRatio = latencyRatio.value
        settings.minSamples = minSamples
        settings.latencyClock = latencyClock
        settings.machineSpeedTolerance = machineSpeedTolerance.value
        settings.allowDifferentDataset = allowDifferentDataset
        settings.gate = gate
        settings.profiles = profiles.map(Self.names)
        settings.bootstrap.replicates = bootstrapReplicates
        settings.bootstrap.seed = bootstrapSeed
        settings.bootstrap.confidence = bootstrapConfidence.value
        settings.bootstrap.minimumUnits = bootstrapMinUnits
        settings.fairnessTolerance = fairnessTolerance.value
        let comparison: RunComparison
        do {
            comparison = try RunComparison(base: StoredRun(path: base), new: StoredRun(path: new), settings: settings)
        } catch {
            FileHandle.standardError.write(Data("padbench compare: not comparable: \(error)\n".utf8))
            throw ExitCode(2)
        }
        if let junit {
            do { try comparison.junit.write(toFile: junit, atomically: true, encoding: .utf8) } catch {
                FileHandle.standardError.write(Data("padbench compare: cannot write \(junit): \(error)\n".utf8))
                throw ExitCode(2)
            }
        }
        if let html {
            do {
                try comparison.html(basePath: base, newPath: new).write(toFile: html, atomically: true, encoding: .utf8)
            } catch {
                FileHandle.standardError.write(Data("padbench compare: cannot write \(html): \(error)\n".utf8))
                throw ExitCode(2)
            }
        }
        if json {
            let encoder = JSONCoding.encoder()
            let report = Report(
                verdict: comparison.regressed ? "regression" : "no regression", regressed: comparison.regressed,
                paired: comparison.paired,
                test: comparison.paired ? "mcnemar" : "clopper-pearson", bootstrap: comparison.bootstrap,
                notes: comparison.notes,
                checks: comparison.checks)
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            Self.printTable(comparison)
        }
        if comparison.regressed { throw ExitCode(1) }
    }

    /// The terminal view (``RunComparison/terminalText``, rendered by PadReport).
    static func printTable(_ comparison: RunComparison) { print(comparison.terminalText) }
}

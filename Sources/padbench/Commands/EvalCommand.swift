import PadProfiles
import ArgumentParser
import Foundation
import PadBench
import PadEvaluation
import PadMetrics
import PadReport

/// `padbench eval`: metrics from score files, or profiles re-decided on a stored archive.
struct EvalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Score imported score files, or re-decide profiles on a stored archive (no estimator runs).",
        discussion: """
            Score files: padbench eval --scores eval.csv [--dev \
            dev.csv] [--criterion bpcer@apcer=0.01 | --threshold T] \
            --out DIR. The threshold is chosen on dev (a --dev file, \
            or the rows a generic file's split column marks dev) \
            and applied to eval; both are reported. Without dev it \
            is chosen on the reported set itself, and the summary \
            says so. Formats (auto-detected when unambiguous): generic (id,label,species,score[,split]), bob4, bob5, \
            bobpad, pyeer (two files: --scores genuine.txt --scores impostor.txt). NIST-style attack-high scores: \
            --polarity attack-high (thresholds are then shown in the file's polarity: accepted when score <= threshold).

            Archive: padbench eval --archive RUN/results.tar.zst --profiles a,b --out DIR.
            One output of an archive, no profile needed: \
            padbench eval --archive RUN/results.tar.zst --score OUTPUT [--direction lower-bonafide] \
            [--criterion C | --threshold T] --out DIR (decided in the output's declared direction, else the one \
            measured on dev; t at the EER by default, chosen on dev when the run has one).
            An option that does not apply to the chosen mode is refused (exit 64), never ignored.
            """
    )

    @Option(name: .customLong("scores"), help: "Score file (pyeer: give it twice, genuine then impostor).")
    var scores: [String] = []
    @Option(name: .customLong("dev"), help: "Dev score file that chooses the threshold (pyeer: twice).")
    var dev: [String] = []
    @Option(help: "Score format: generic, bob4, bob5, bobpad, pyeer (auto-detected when omitted).")
    var format: ScoreFormat?
    @Option(help: "Score polarity in the file: bonafide-high or attack-high (converted by negation).")
    var polarity: ScorePolarity?
    @OptionGroup var thresholdChoice: ThresholdChoiceOptions
    @Option(
        help: "With --scores: EER against apcer-max (the worst species, default) or pooled (all attacks, bob.pad.base)."
    )
    var eerRule: EERRule?
    @Option(help: "Stored result archive to re-decide.")
    var archive: String?
    @Option(help: "Profiles for --archive (built-in names or YAML files; default: basic).")
    var profiles: String?
    @Option(
        help: "With --archive: evaluate this one output (in its direction, threshold at the EER) instead of profiles."
    )
    var score: String?
    @Option(help: "With --score: higher-bonafide or lower-bonafide (default: declared, else measured on dev).")
    var direction: ScoreDirection?
    @Option(help: "Output folder.")
    var out: String
    @Flag(help: "Replace a complete run under --out (otherwise refused).")
    var force = false
    @Option(
        help: """
            How frame scores of one presentation (bob's test_label, a presentation column, a video) \
            combine into the presentation's score: mean (default), median, min, max.
            """)
    var aggregate: FrameAggregate?
    @Option(
        name: .customLong("attack-potential"),
        help: "CSV species,attack_potential: report APCER_AP per level (the highest APCER among its species).")
    var attackPotential: String?
    @OptionGroup var comparator: ComparatorOptions
    @Flag(help: "Print parse / metric / write times.")
    var timing = false
    @Flag(help: "With --archive: refuse (exit 1, before deciding) when a profile gate's output is not in the archive.")
    var strict = false

    func validate() throws {
        if archive != nil && !scores.isEmpty { throw ValidationError("use either --archive or --scores") }
        if archive == nil && scores.isEmpty { throw ValidationError("give --scores FILE (or --archive)") }
        if let score, score.isEmpty { throw ValidationError("--score needs an output name, e.g. quality.sharpness") }
        if let option = inapplicableOption() ?? comparator.problem() { throw ValidationError(option) }
    }

    /// The first option given that the chosen mode would not use (docs/commands.md: never ignored).
    func inapplicableOption() -> String? {
        let thresholdGiven = thresholdChoice.threshold != nil || thresholdChoice.criterion != nil
        let thresholdOption = thresholdChoice.threshold != nil ? "--threshold" : "--criterion"
        if archive == nil {
            if score != nil { return "--score OUTPUT needs --archive RUN" }
            if profiles != nil { return "--profiles applies to --archive only (a score file is decided by its score)" }
            if strict { return "--strict applies to --archive only" }
            if direction != nil { return "--direction applies to --archive --score only (score files: --polarity)" }
            return nil
        }
        if !dev.isEmpty { return "--dev applies to --scores only (an archive's dev split is its own)" }
        if format != nil { return "--format applies to --scores only" }
        if polarity != nil { return "--polarity applies to --scores only (with --score: --direction)" }
        if timing { return "--timing applies to --scores only" }
        if eerRule != nil { return "--eer-rule applies to --scores only" }
        if score != nil {
            if profiles != nil { return "--profiles and --score exclude each other (--score decides one output)" }
            if strict { return "--strict applies to profiles (--score needs its output in the archive anyway)" }
            return nil
        }
        if thresholdGiven { return "\(thresholdOption) applies to --scores or --score only (profiles set their own)" }
        if direction != nil { return "--direction applies to --score only" }
        return nil
    }

    func run() throws {
        if let archive {
            let outputScore = score.map {
                OutputScoreJob(
                    output: $0, direction: direction, criterion: thresholdChoice.criterion ?? .eer,
                    threshold: thresholdChoice.threshold?.value)
            }
            let profileList = score == nil ? try CommandSupport.loadProfiles(profiles ?? "basic") : []
            let outcome = try CommandSupport.atRunTime {
                try EvalRunner().evaluateArchive(
                    archive, profiles: profileList, outputFolder: out, force: force, commandLine: CommandLine.arguments,
                    strict: strict, choosesOnReportedSetWithoutCalibrationSplit: score != nil,
                    requireOutputs: score != nil, outputScore: outputScore, aggregate: aggregate,
                    attackPotential: try attackPotential.map { try AttackPotential.read($0).levels },
                    comparisons: comparator.comparisons, comparatorThreshold: comparator.threshold)
            }
            print(TerminalTables.profileTable(outcome.results))
            CommandSupport.printWarnings(outcome.results)
            print(
                "\nre-decided \(outcome.table.count) stored samples; no estimator ran\nrun folder: "
                    + "\(outcome.folder)\narchive:    \(outcome.archivePath)"
            )
            return
        }
        var job = EvalRunner.ScoreJob(
            scoreFiles: scores, devFiles: dev, format: format, polarity: polarity ?? .bonafideHigh,
            threshold: thresholdChoice.threshold?.value, criterion: thresholdChoice.criterion ?? .eer,
            outputFolder: out, force: force,
            commandLine: CommandLine.arguments)
        job.eerRule = eerRule ?? .apcerMax
        job.aggregate = aggregate
        job.comparisons = comparator.comparisons
        job.comparatorThreshold = comparator.threshold
        job.attackPotential = try CommandSupport.atRunTime {
            try attackPotential.map { try AttackPotential.read($0).levels }
        }
        let outcome = try CommandSupport.atRunTime { try EvalRunner().evaluateScores(job) }
        print(TerminalTables.profileTable(outcome.results))
        CommandSupport.printWarnings(outcome.results)
        let failed = outcome.table.failedCount
        print("\nscores \(outcome.table.count) = ok \(outcome.table.count - failed) + failed \(failed)")
        print("run folder: \(outcome.folder)\narchive:    \(outcome.archivePath)")
        if timing {
            print(
                "parse \(RateText.fixed(outcome.parseSeconds, 3)) s, metrics "
                    + "\(RateText.fixed(outcome.metricSeconds, 3)) s, "
                    + "write \(RateText.fixed(outcome.writeSeconds, 3)) s"
            )
        }
        releasedInBackground(consume outcome)
    }
}

/// How `eval --scores` sets its threshold: a fixed number, or a criterion that chooses it on dev
/// (EER when neither is given); the two options and the rule that they exclude each other.
struct ThresholdChoiceOptions: ParsableArguments {
    @Option(help: "Fixed threshold, in the file's polarity (not with --criterion).")
    var threshold: FiniteDouble?
    @Option(help: "Threshold criterion: eer (default), min-hter, bpcer@apcer=X, apcer@bpcer=X.")
    var criterion: ThresholdCriterion?

    func validate() throws {
        if threshold != nil && criterion != nil {
            throw ValidationError("give either --threshold or --criterion, not both")
        }
        if case .fixed = criterion {
            throw ValidationError(
                "--criterion takes eer, min-hter, bpcer@apcer=X or apcer@bpcer=X; use --threshold for a number")
        }
    }
}

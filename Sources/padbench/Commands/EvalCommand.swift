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
            padbench eval --archive RUN/results.tar.zst --score OUTPUT --out DIR \
            (accepted when OUTPUT >= t, t at the EER, chosen on dev when the run has one; outputs.csv of any run tells \
            which direction separates each species).
            """
    )

    @Option(name: .customLong("scores"), help: "Score file (pyeer: give it twice, genuine then impostor).")
    var scores: [String] = []
    @Option(name: .customLong("dev"), help: "Dev score file that chooses the threshold (pyeer: twice).")
    var dev: [String] = []
    @Option(help: "Score format: generic, bob4, bob5, bobpad, pyeer (auto-detected when omitted).")
    var format: ScoreFormat?
    @Option(help: "Score polarity in the file: bonafide-high or attack-high (converted by negation).")
    var polarity: ScorePolarity = .bonafideHigh
    @OptionGroup var thresholdChoice: ThresholdChoiceOptions
    @Option(help: "Stored result archive to re-decide.")
    var archive: String?
    @Option(help: "Profiles for --archive (built-in names or YAML files).")
    var profiles: String = "basic"
    @Option(
        help: "With --archive: evaluate this one output (higher = bona fide, threshold at the EER) instead of profiles."
    )
    var score: String?
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
    @Flag(help: "Print parse / metric / write times.")
    var timing = false
    @Flag(help: "With --archive: refuse (exit 1, before deciding) when a profile gate's output is not in the archive.")
    var strict = false

    func validate() throws {
        if archive != nil && !scores.isEmpty { throw ValidationError("use either --archive or --scores") }
        if archive == nil && scores.isEmpty { throw ValidationError("give --scores FILE (or --archive)") }
        if score != nil && archive == nil { throw ValidationError("--score OUTPUT needs --archive RUN") }
        if let score, score.isEmpty { throw ValidationError("--score needs an output name, e.g. quality.sharpness") }
    }

    func run() throws {
        if let archive {
            let profileList = try score.map { [EvalRunner.outputProfile($0)] } ?? CommandSupport.loadProfiles(profiles)
            let outcome = try CommandSupport.atRunTime {
                try EvalRunner().evaluateArchive(
                    archive, profiles: profileList, outputFolder: out, force: force, commandLine: CommandLine.arguments,
                    strict: strict, choosesOnReportedSetWithoutCalibrationSplit: score != nil,
                    requireOutputs: score != nil, aggregate: aggregate,
                    attackPotential: try attackPotential.map { try AttackPotential.read($0).levels })
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
            scoreFiles: scores, devFiles: dev, format: format, polarity: polarity,
            threshold: thresholdChoice.threshold?.value, criterion: thresholdChoice.criterion ?? .eer,
            outputFolder: out, force: force,
            commandLine: CommandLine.arguments)
        job.aggregate = aggregate
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

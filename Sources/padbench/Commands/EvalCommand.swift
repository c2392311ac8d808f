import ArgumentParser
import Foundation
import PadBench
import PadMetrics
import PadReport

/// `padbench eval`: metrics from score files, or profiles re-decided on a stored archive.
struct EvalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Score imported score files, or re-decide profiles on a stored archive (no estimator runs).",
        discussion: """
            Score files: padbench eval --scores eval.csv [--dev dev.csv] [--criterion bpcer@apcer=0.01 | --threshold T] \
            --out DIR. With --dev the threshold is chosen on the dev scores and applied to --scores; both are reported. \
            Formats (auto-detected when unambiguous): generic (id,label,species,score[,split]), bob4, bob5, bobpad, \
            pyeer (two files: --scores genuine.txt --scores impostor.txt). NIST-style attack-high scores: --polarity attack-high.

            Archive: padbench eval --archive RUN/results.tar.zst --profiles a,b --out DIR.
            """
    )

    @Option(name: .customLong("scores"), help: "Score file (pyeer: give it twice, genuine then impostor).")
    var scores: [String] = []
    @Option(name: .customLong("dev"), help: "Dev score file that chooses the threshold (pyeer: twice).")
    var dev: [String] = []
    @Option(help: "Score format: generic, bob4, bob5, bobpad, pyeer (auto-detected when omitted).")
    var format: String?
    @Option(help: "Score polarity in the file: bonafide-high (default) or attack-high (converted by negation).")
    var polarity: String = "bonafide-high"
    @Option(help: "Fixed threshold (accept when score >= threshold).")
    var threshold: Double?
    @Option(help: "Threshold criterion: eer, min-hter, bpcer@apcer=X, apcer@bpcer=X.")
    var criterion: String = "eer"
    @Option(help: "Stored result archive to re-decide.")
    var archive: String?
    @Option(help: "Profiles for --archive (built-in names or YAML files).")
    var profiles: String = "basic"
    @Option(help: "Output folder.")
    var out: String
    @Flag(help: "Print parse / metric / write times.")
    var timing = false

    func run() throws {
        if let archive {
            guard scores.isEmpty else { throw ValidationError("use either --archive or --scores") }
            let profileList = try CommandSupport.loadProfiles(profiles)
            let outcome = try EvalRunner().evaluateArchive(archive, profiles: profileList, outputFolder: out, commandLine: CommandLine.arguments)
            print(TerminalTables.profileTable(outcome.results))
            print("\nre-decided \(outcome.table.count) stored samples; no estimator ran\nrun folder: \(outcome.folder)\narchive:    \(outcome.archivePath)")
            return
        }
        guard !scores.isEmpty else { throw ValidationError("give --scores FILE (or --archive)") }
        guard let polarityValue = ScorePolarity(rawValue: polarity) else {
            throw ValidationError("--polarity must be bonafide-high or attack-high")
        }
        var formatValue: ScoreFormat?
        if let format {
            guard let parsed = ScoreFormat(rawValue: format) else {
                throw ValidationError("unknown format '\(format)' (\(ScoreFormat.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            formatValue = parsed
        }
        let criterionValue: ThresholdCriterion
        do { criterionValue = try ThresholdCriterion(parsing: criterion) } catch { throw ValidationError("\(error)") }
        let job = EvalRunner.ScoreJob(scoreFiles: scores, devFiles: dev, format: formatValue, polarity: polarityValue,
                                      threshold: threshold, criterion: criterionValue, outputFolder: out,
                                      commandLine: CommandLine.arguments)
        let outcome: EvalRunner.ScoreOutcome
        do { outcome = try EvalRunner().evaluateScores(job) } catch let error as ScoreFileError {
            throw ValidationError("\(error)")
        } catch let error as EvaluationError {
            throw ValidationError("\(error)")
        }
        print(TerminalTables.scoreTable(outcome.report))
        print("archive: \(outcome.archivePath)")
        if timing {
            print("parse \(RateText.fixed(outcome.parseSeconds, 3)) s, metrics \(RateText.fixed(outcome.metricSeconds, 3)) s, write \(RateText.fixed(outcome.writeSeconds, 3)) s")
        }
    }
}

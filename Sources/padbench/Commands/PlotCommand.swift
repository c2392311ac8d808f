import ArgumentParser
import Foundation
import PadReport
import PadRuns

/// `padbench plot RUN... --out DIR`: the DET, the ROC and the error rates against threshold of
/// several runs or profiles on shared axes with one legend (`det.svg`, `roc.svg`, `thresholds.svg`,
/// `plot.html`).
struct PlotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plot",
        abstract: "Draw the DET, ROC and APCER/BPCER vs threshold of several runs or profiles on shared axes.",
        discussion: """
            Each run's profiles with a swept score are recomputed from the run's samples.csv and profiles (checked \
            against its results.json) and drawn one colour each: det.svg (APCER_max against BPCER, probit axes), \
            roc.svg (pooled APCER against 1 - BPCER, the chance diagonal dashed, each AUC in the legend), \
            thresholds.svg (BPCER solid, APCER_max dashed) and plot.html with the three and a table of EER, \
            BPCER100, BPCER20, BPCER10 and AUC per curve. Curves are labelled by the run folder's name (or --label), followed by \
            the profile when several profiles are drawn.
            """
    )

    @Argument(help: "Run archives or folders.") var runs: [String]
    @Option(help: "Folder to write det.svg, roc.svg, thresholds.svg and plot.html into (created when missing).")
    var out: String
    @Option(help: "A run's label, once per run in order (default: the run folder's name).") var label: [String] = []
    @Option(help: "Profiles to draw, comma-separated (default: every profile with a swept score).")
    var profiles: String?
    @Option(help: "Split: reported (default: eval when the run has one, else all), all, train, dev or eval.")
    var split: String = "reported"
    @Option(help: "Level of runs with several-frame presentations: presentations (default) or frames.")
    var level: String = "presentations"

    func validate() throws {
        guard label.isEmpty || label.count == runs.count else {
            throw ValidationError("--label given \(label.count) times for \(runs.count) runs: give one per run or none")
        }
        guard ["reported", "all", "train", "dev", "eval"].contains(split) else {
            throw ValidationError("--split must be reported, all, train, dev or eval, got '\(split)'")
        }
        guard ["presentations", "frames"].contains(level) else {
            throw ValidationError("--level must be presentations or frames, got '\(level)'")
        }
    }

    func run() throws {
        let wanted = profiles.map(CompareCommand.names)
        let plots = try CommandSupport.checkingStoredRuns("plot") {
            try OverlayPlots.runs(
                runs.enumerated().map { k, path in
                    (label.isEmpty ? OverlayPlots.label(of: path) : label[k], try StoredRun(path: path))
                }, profiles: wanted, split: split == "reported" ? nil : split, frames: level == "frames")
        }
        guard !plots.curves.isEmpty else {
            FileHandle.standardError.write(
                Data(
                    "padbench plot: no curve to draw (no profile with a swept score\(wanted == nil ? "" : " among --profiles") on split \(split))\n"
                        .utf8))
            throw ExitCode(1)
        }
        try CommandSupport.atRunTime {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            for file in plots.plotFiles(runs: runs.count, split: split, level: level) {
                try file.text.write(toFile: out + "/" + file.name, atomically: true, encoding: .utf8)
            }
        }
        print(
            "wrote \(out)/det.svg, \(out)/roc.svg, \(out)/thresholds.svg and \(out)/plot.html "
                + "(\(plots.curves.count) curves)")
        for note in plots.identicalNotes { print(note) }
    }
}

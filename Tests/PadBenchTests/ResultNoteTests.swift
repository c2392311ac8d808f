@testable import PadBench
import PadEvaluation
import PadProfiles
import Testing

/// issue 26: notes are typed. The terminal and the report pick the kinds they show by case, not
/// by the first words of a sentence (before, `TerminalTables` and `HTMLReport` filtered notes by
/// `hasPrefix("gates left out")`, `"approximated on"`, `"skipped (reasons"`, `"scores are
/// attack-high"` and `"check: "`). The sentences themselves are summary.csv's and results.json's,
/// byte for byte (scripts/same-output.py).
struct ResultNoteTests {
    static func result(_ notes: [ResultNote]) -> ProfileResult {
        let set = ProfileResult.SetResult(
            split: "eval", headline: nil, headlineError: nil, scoreMetrics: nil, scoreError: nil, rejectReasons: [],
            bonaFideCount: 0, attackCount: 0, failedCount: 0)
        return ProfileResult(
            profile: Profile(name: "p", description: "", source: "t", score: nil, gates: []), reported: set,
            calibrations: [], thresholdSource: .profileGates, notes: notes)
    }

    /// Every kind once: gate notes share one line, checks, calibration, direction and presentation
    /// notes get a line each, skipped gates and the file's polarity stay off the terminal.
    @Test func terminalWarningsChooseNotesByKind() {
        let notes: [ResultNote] = [
            .direction(
                output: "quality.blur", direction: "lower-bonafide", why: "declared lower-better", lowerBonaFide: true),
            .gatesLeftOut(outputs: ["pad.score"]),
            .approximated([.init(output: "luna.quality", approximation: "quality.blur")]),
            .skipped(outputs: ["vendor.only"]),
            .attackHighScores,
            .check(.calibratedOnTrainSplit(output: "x")),
            .calibration(output: "x", line: 7, problem: .targetNotMet(target: "apcer=0.01", split: "dev")),
            .presentations(rule: .aggregate, aggregate: .mean, presentations: 3, frames: 12),
        ]
        #expect(
            TerminalTables.warnings([Self.result(notes)]) == [
                "profile p: gates left out, outputs not measured in this run: pad.score; "
                    + "approximated on padbench outputs: luna.quality -> quality.blur",
                "profile p: quality.blur decided lower-bonafide (declared lower-better): accepted when value <= "
                    + "threshold, thresholds in its own units",
                "profile p: check: gate on x calibrated on the train split, the split models are trained on: its "
                    + "threshold is optimistic",
                "profile p: gate on x (line 7 of the profile): target apcer=0.01 cannot be met on dev",
            ])
        // What a video run's rates count is information of every normal run, not a warning.
        #expect(
            TerminalTables.information([Self.result(notes)]) == [
                "profile p: counted in presentations: 3 presentations of 12 frames, decided by aggregate (mean of "
                    + "assessable frames)"
            ])
    }

    /// A note that is not a check never marks the row, whatever its words: an output named like a
    /// warning used to be enough to move a note.
    @Test func onlyChecksMarkTheRow() {
        let worded = ResultNote.direction(
            output: "check: x", direction: "higher-bonafide", why: "--direction", lowerBonaFide: false)
        #expect(!TerminalTables.marks(Self.result([worded])).contains("see warnings"))
        #expect(
            TerminalTables.marks(Self.result([.check(.invertedScore(score: "s", split: "eval", auc: 0.25))])).contains(
                "see warnings"))
    }
}

/// `bf+att+failed` adds up to the split when every sample failed: the split then has no headline,
/// and one failed bona fide presentation printed `1+-1+1` (the failed bona fide were taken from the
/// headline's BPNRR, which a split without a headline lacks).
@Suite struct PartitionTests {
    @Test func everySampleFailedStillAddsUp() {
        let allFailed = ProfileResult.SetResult(
            split: "all", headline: nil, headlineError: nil, scoreMetrics: nil, scoreError: nil, rejectReasons: [],
            bonaFideCount: 3, attackCount: 4, failedCount: 7, bonaFideFailedCount: 3)
        #expect(TerminalTables.partition(allFailed) == "0+0+7")
        let some = ProfileResult.SetResult(
            split: "all", headline: nil, headlineError: nil, scoreMetrics: nil, scoreError: nil, rejectReasons: [],
            bonaFideCount: 3, attackCount: 4, failedCount: 2, bonaFideFailedCount: 1)
        #expect(TerminalTables.partition(some) == "2+3+2")
    }
}

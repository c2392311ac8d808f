import PadArchive
import PadProfiles

extension EvalRunner {
    /// The name of the profile `eval --archive RUN --score OUTPUT` builds.
    public static let outputProfileName = "score-output"

    /// The profile of `eval --archive RUN --score OUTPUT`: one gate on the output, accepted as
    /// bona fide when value >= t, with t at the EER (bob.measure's rule) chosen on dev when the
    /// run has a dev split, else on the reported set itself (and the summary says so), like
    /// ``scoreProfile(_:files:)`` for score files. The output is read higher-bona-fide;
    /// `outputs.csv` tells which direction separates each species.
    public static func outputProfile(_ output: String) -> Profile {
        var gate = Gate(
            output: output, comparison: .ge, threshold: .nan, code: "SCORE", message: "\(output) below the threshold",
            line: 7)
        gate.kind = .calibrated
        gate.calibration = .init(target: .eer, calibrationSplit: .dev, appliedSplit: .eval)
        let yaml = """
            name: \(outputProfileName)
            description: "\(output) alone, threshold at the EER"
            source: padbench eval --archive --score
            score: \(output)
            gates:
              - output: \(output)
                calibrate: {criterion: eer, on: dev}
                code: SCORE
                message: \(output) below the threshold

            """
        return Profile(
            name: outputProfileName, description: "\(output) alone, threshold at the EER",
            source: "padbench eval --archive --score",
            score: output, gates: [gate], yaml: yaml, origin: "eval --score")
    }
}

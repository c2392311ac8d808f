import Foundation
import PadMetrics
import PadProfiles
import Testing

@testable import PadBench

/// The profiles padbench builds for itself (`eval --scores`' `scores`, `eval --archive --score`'s
/// `score-output`) are stored in the archive as YAML. What decides must be exactly what that YAML
/// says: reloading the stored YAML gives the same profile (same definition hash, same gate line,
/// code and message), whatever the score files are called.
@Suite struct GeneratedProfileTests {
    static func reloaded(_ profile: Profile) throws -> Profile {
        try ProfileLoader().load(yaml: profile.yaml, file: profile.origin)
    }

    static let criteria: [(ThresholdCriterion, Double?, Gate.Calibration.Target?)] = [
        (.eer, nil, .eer), (.bpcerAtAPCER(0.05), nil, .apcer(0.05)), (.apcerAtBPCER(0.1), nil, .bpcer(0.1)),
        (.minHTER, nil, .minHTER), (.eer, 0.25, nil),
    ]

    static func expectSame(_ a: Profile, _ b: Profile) {
        #expect(a.definitionHash == b.definitionHash && a.description == b.description && a.score == b.score)
        #expect(a.gates.map(\.line) == b.gates.map(\.line) && a.gates.map(\.message) == b.gates.map(\.message))
    }

    /// A file name with a quote and a backslash: the old YAML (quotes swapped for apostrophes, the
    /// backslash left as an escape) did not load, and the gate said line 7 where the YAML has 6.
    @Test(arguments: 0..<5) func scoreProfileIsItsYAML(_ k: Int) throws {
        var job = EvalRunner.ScoreJob(scoreFiles: ["a \"b\" \\c.csv"], outputFolder: "/tmp/x")
        (job.criterion, job.threshold, _) = Self.criteria[k]
        let profile = try EvalRunner.scoreProfile(job, files: job.scoreFiles)
        Self.expectSame(try Self.reloaded(profile), profile)
        #expect(profile.description == "Scores of a \"b\" \\c.csv: accepted as bona fide when score >= t")
        let gate = profile.gates[0]
        #expect(gate.line == 6, "`- output:` is the sixth line of the YAML")
        #expect(gate.output == "scores.score" && gate.comparison == .ge && gate.code == "SCORE")
        #expect(gate.message == "score below the threshold" && profile.origin == "eval --scores")
        #expect(gate.calibration?.target == Self.criteria[k].2)
        #expect(gate.calibration.map { $0.calibrationSplit == .dev } ?? (gate.threshold == 0.25))
    }

    @Test(arguments: 0..<5, [false, true]) func outputProfileIsItsYAML(_ k: Int, negated: Bool) throws {
        let (criterion, threshold, target) = Self.criteria[k]
        let job = OutputScoreJob(output: "quality.sharpness", criterion: criterion, threshold: threshold)
        let profile = try EvalRunner.outputProfile(job, negated: negated)
        Self.expectSame(try Self.reloaded(profile), profile)
        let gate = profile.gates[0]
        #expect(gate.comparison == (negated ? .le : .ge) && gate.calibration?.target == target)
        #expect(gate.message == "quality.sharpness \(negated ? "above" : "below") the threshold")
        #expect(gate.line == 6 && profile.score == "quality.sharpness")
    }

    /// Control characters in a name are escaped, not written raw into the YAML.
    @Test func yamlQuotingEscapesEverythingYAMLWouldRead() throws {
        let name = "tab\there, new\nline, bell\u{7}, quote \" and \\ back"
        let quoted = EvalRunner.yamlQuoted(name)
        #expect(quoted == "\"tab\\there, new\\nline, bell\\x07, quote \\\" and \\\\ back\"")
        let profile = try ProfileLoader().load(
            yaml: "name: q\ndescription: \(quoted)\nsource: t\ngates:\n  - {output: a.b, op: ge, value: 1}\n",
            file: "q.yaml")
        #expect(profile.description == name)
    }
}

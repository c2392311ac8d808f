import Foundation
import Testing
@testable import PadProfiles
import TestSupport

/// The examples the PadProfiles doc comments point to, compiled and checked here.
@Suite struct PadProfilesDocExamples {
    static let yaml = """
        name: sharp
        source: padbench test
        score: quality.sharpness
        gates:
          - output: quality.luminance_mean
            op: between
            min: 40
            max: 220
          - output: quality.sharpness
            op: ge
            value: 15
        """

    /// ``ProfileLoader``: `resolve` parses a preset without knowing outputs; `validate` with a
    /// catalogue then names an unknown output with the nearest known one.
    @Test func resolveThenValidate() throws {
        let profile = try ProfileLoader().resolve("idemia-high")
        #expect(profile.origin == "builtin:idemia-high" && !profile.gates.isEmpty)
        let outputs = Catalogue.outputs
        let checked = try ProfileLoader(catalogue: outputs).validate(
            try ProfileLoader().load(yaml: Self.yaml, file: "my.yaml"))
        #expect(checked.gates.map(\.output) == ["quality.luminance_mean", "quality.sharpness"])
        let typo = try ProfileLoader().load(
            yaml: Self.yaml.replacingOccurrences(of: "op: ge", with: "op: ge\n    # typo below")
                .replacingOccurrences(of: "- output: quality.sharpness", with: "- output: quality.sharpnes"),
            file: "typo.yaml")
        #expect { try ProfileLoader(catalogue: outputs).validate(typo) } throws: {
            "\($0)".contains("did you mean `quality.sharpness`?")
        }
    }

    /// ``ProfileDiagnosis``: every error of a file, located.
    @Test func diagnoseAFile() throws {
        let path = TestFolder.root + "/padbench-diagnose-\(UUID().uuidString).yaml"
        try "name: t\nsource: s\ngates:\n  - {output: quality.sharpnes, op: gte, value: 1}\n  - {output: face.count}\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let known = Catalogue.outputs
        let diagnosis = ProfileLoader(catalogue: known).diagnose(file: path)
        for error in diagnosis.errors { print(error) } // file:line:column: message
        #expect(diagnosis.profile == nil)
        #expect(
            diagnosis.errors.map(\.description) == [
                "\(path):4:14: unknown output `quality.sharpnes`; did you mean `quality.sharpness`?",
                "\(path):4:36: unknown op 'gte' (ge, gt, le, lt, eq, between)",
                "\(path):5:5: gate on face.count needs op (ge, gt, le, lt, eq, between)",
            ])
    }

    /// ``Profile`` and ``CompiledProfile``: gates compiled against table columns; the first failing
    /// gate decides, NaN fails the gate that sees it, a calibrated threshold replaces the YAML one.
    @Test func compileAndDecide() throws {
        let profile = try ProfileLoader(catalogue: Catalogue.outputs).load(yaml: Self.yaml, file: "my.yaml")
        let columns = ["quality.sharpness", "quality.luminance_mean"]
        let compiled = profile.compiled(columns: columns)
        let row: [Double] = [20, 100]
        #expect(compiled.decide { row[$0] } == .accepted)
        let dark: [Double] = [20, 10]
        #expect(compiled.decide { dark[$0] } == Decision(failedGate: 0))
        let unassessable: [Double] = [.nan, 100]
        #expect(compiled.decide { unassessable[$0] } == Decision(failedGate: 1, valueWasNaN: true))
        // idemia-high calibrates its pad.score gate (gate 0): the threshold comes from calibration.
        let calibrated = try ProfileLoader().resolve("idemia-high").compiled(
            columns: ["pad.score"], calibratedThresholds: [0: 0.41])
        #expect(calibrated.decide { _ in 0.41 }.isAccepted && calibrated.decide { _ in 0.4 } == Decision(failedGate: 0))
    }
}

/// ``FramesRule``: each line of its doc comment is a profile's `frames:` section.
@Suite struct PadProfilesFramesDocExamples {
    static let sections = """
        frames: {decide: best_shot}          # or aggregate (the default), or:
        frames: {decide: k_of_n, k: 3, n: 5}
        """

    @Test func eachSectionLoads() throws {
        let rules = try Self.sections.split(separator: "\n").map { section in
            try ProfileLoader().load(
                yaml: "name: f\nsource: test\n\(section)\ngates:\n  - {output: pad.score, op: ge, value: 0.5}\n",
                file: "f.yaml"
            ).framesRule
        }
        #expect(rules == [.bestShot, .atLeast(k: 3, of: 5)])
        let plain = try ProfileLoader().load(
            yaml: "name: f\nsource: test\ngates:\n  - {output: pad.score, op: ge, value: 0.5}\n", file: "f.yaml")
        #expect(plain.framesRule == .aggregate)
    }
}

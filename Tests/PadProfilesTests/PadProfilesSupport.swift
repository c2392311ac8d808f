import Testing
@testable import PadEstimators
@testable import PadProfiles

enum Catalogue {
    static let outputs: [String: OutputDescriptor] = {
        var c: [String: OutputDescriptor] = [:]
        for name in ["quality.sharpness", "quality.luminance_mean", "quality.underexposure", "quality.overexposure", "face.count", "pad.score"] {
            c[name] = OutputDescriptor(name: name, unit: "", minimum: 0, maximum: name == "pad.score" ? 1 : .infinity, direction: .none, summary: "")
        }
        return c
    }()
    static let loader = ProfileLoader(catalogue: outputs)
}

@Suite struct ProfileLoaderTests {
    @Test func basicPresetLoads() throws {
        let basic = try Catalogue.loader.builtIn("basic")
        #expect(basic.name == "basic" && basic.score == "quality.sharpness")
        #expect(basic.gates.count == 4)
        #expect(basic.gates[0].comparison == .between && basic.gates[0].threshold == 40 && basic.gates[0].upper == 220)
        #expect(basic.requiredEstimators == ["quality"])
    }

    static func error(_ yaml: String) -> ProfileError? {
        do { _ = try Catalogue.loader.load(yaml: yaml, file: "p.yaml"); return nil } catch { return error }
    }

    @Test func typoInOutputNameSuggestsTheNearest() {
        let e = Self.error("""
            name: t
            source: test
            gates:
              - output: quality.sharpnes
                op: ge
                value: 3
            """)
        #expect(e == ProfileError(file: "p.yaml", line: 4, column: 13, "unknown output `quality.sharpnes`; did you mean `quality.sharpness`?"))
    }

    @Test func invertedRangeUnknownKeyAndOpAreLocated() {
        #expect(Self.error("name: t\nsource: s\ngates:\n  - {output: face.count, op: between, min: 3, max: 1}\n")
            == ProfileError(file: "p.yaml", line: 4, column: 44, "inverted range: min 3.0 is above max 1.0"))
        let typo = Self.error("name: t\nsource: s\ngates:\n  - {output: face.count, op: ge, value: 1, treshold: 2}\n")
        #expect(typo?.line == 4 && typo?.column == 44)
        #expect(typo?.message.hasPrefix("unknown gate key `treshold`") == true)
        #expect(Self.error("name: t\nsource: s\ngates:\n  - {output: face.count, op: gte, value: 1}\n")?.message
            == "unknown op 'gte' (ge, gt, le, lt, eq, between)")
        #expect(Self.error("name: t\nsource: s\ngates:\n  - {output: pad.score, op: ge, value: 500}\n")?.message
            == "threshold 500.0 is outside the range of pad.score [0.0, 1.0]")
        #expect(Self.error("name: t\ngates: []\n")?.message == "missing `source`")
    }

    @Test func duplicateProfileNamesAreAnError() {
        #expect(throws: ProfileError.self) { try Catalogue.loader.resolveAll(["basic", "basic"]) }
    }

    @Test func calibratedAndSkippedGates() throws {
        let profile = try Catalogue.loader.load(yaml: """
            name: cal
            source: test
            score: pad.score
            gates:
              - {output: head.pitch, skipped: head pose is not measured, code: "1002"}
              - output: pad.score
                calibrate: {target_apcer: 0.03, on: dev, apply_to: eval}
                code: "1004"
            """, file: "cal.yaml")
        #expect(profile.gates[0].isSkipped)
        #expect(profile.gates[1].calibration == .init(target: .apcer(0.03), calibrationSplit: .dev, appliedSplit: .eval))
        #expect(profile.requiredOutputs == ["pad.score"])
    }
}

@Suite struct DecisionTests {
    @Test func firstFailingGateAndNaN() throws {
        let profile = try Catalogue.loader.builtIn("basic")
        let columns = ["quality.luminance_mean", "quality.underexposure", "quality.overexposure", "quality.sharpness"]
        let compiled = profile.compiled(columns: columns)
        func decide(_ row: [Double]) -> Decision { compiled.decide { row[$0] } }
        #expect(decide([120, 0.1, 0.1, 50]).isAccepted)
        #expect(decide([30, 0.9, 0.1, 50]).failedGate == 0)          // too dark: first gate
        #expect(decide([120, 0.1, 0.6, 50]).failedGate == 2)
        #expect(decide([120, 0.1, 0.1, 14.9]).failedGate == 3)
        #expect(decide([120, 0.1, 0.1, 15]).isAccepted)              // ge: the threshold itself passes
        let nan = decide([.nan, 0.1, 0.1, 50])
        #expect(nan.failedGate == 0 && nan.valueWasNaN)
        // Effective score: the sweep holds the other gates fixed.
        #expect(compiled.effectiveScore { [120, 0.1, 0.1, 7.0][$0] } == 7)
        #expect(compiled.effectiveScore { [10, 0.1, 0.1, 70.0][$0] } == -.infinity)
    }

    @Test func suggestionDistanceCountsTranspositions() {
        #expect(Suggestion.distance("qualtiy", "quality") == 1)
        #expect(Suggestion.distance("face.cuont", "face.count") == 1)
        #expect(Suggestion.distance("abc", "") == 3)
    }
}

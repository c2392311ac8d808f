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
        // Swept score: the sweep holds the other gates fixed; a sample another gate rejects has
        // no score (it is rejected at every threshold, never given -inf).
        #expect(compiled.sweptScore { [120, 0.1, 0.1, 7.0][$0] } == 7)
        #expect(compiled.sweptScore { [10, 0.1, 0.1, 70.0][$0] } == nil)
        #expect(compiled.sweptScore { [120, 0.1, 0.1, .nan][$0] } == nil)
    }

    @Test func suggestionDistanceCountsTranspositions() {
        #expect(Suggestion.distance("qualtiy", "quality") == 1)
        #expect(Suggestion.distance("face.cuont", "face.count") == 1)
        #expect(Suggestion.distance("abc", "") == 3)
    }
}

@Suite struct PresetTests {
    static let loader = ProfileLoader(catalogue: {
        var c = VendorOutputs.catalogue
        for name in ["face.count", "face.width", "face.border_px", "face.size_ratio", "eyes.distance_px", "image.short_side",
                     "image.long_side", "quality.blur", "quality.underexposure", "quality.overexposure",
                     "quality.illumination_uniformity", "quality.specularity", "quality.luminance_mean", "quality.sharpness"] {
            c[name] = OutputDescriptor(name: name, unit: "", minimum: 0, maximum: .infinity, direction: .none, summary: "")
        }
        return c
    }())

    @Test func everyPresetLoadsWithItsSource() throws {
        let names = ProfileLoader.builtInNames
        #expect(Set(names) == ["basic", "dot-default", "idemia-high", "idemia-low", "idemia-medium", "luna-id-default",
                               "luna-id-osl", "misnap-default", "misnap-high-risk"])
        for name in names {
            let profile = try Self.loader.builtIn(name)
            #expect(profile.name == name && !profile.source.isEmpty)
        }
    }

    @Test func vendorNumbersAreCarriedExactly() throws {
        let luna = try Self.loader.builtIn("luna-id-default")
        func gate(_ p: Profile, _ output: String, _ op: Gate.Comparison) -> Gate? { p.gates.first { $0.output == output && $0.comparison == op } }
        #expect(gate(luna, "face.width", .ge)?.threshold == 200 && gate(luna, "face.width", .ge)?.code == "1016")
        #expect(gate(luna, "face.border_px", .ge)?.threshold == 10 && gate(luna, "face.border_px", .ge)?.kind == .exact)
        #expect(gate(luna, "luna.liveness", .ge)?.threshold == 0.5)
        #expect(luna.gates.filter(\.isSkipped).map(\.code) == ["1002", "1006", "1010"])
        let osl = try Self.loader.builtIn("luna-id-osl")
        #expect(gate(osl, "image.short_side", .between).map { ($0.threshold, $0.upper) } ?? (0, 0) == (720, 1080))
        #expect(gate(osl, "face.width", .gt)?.threshold == 200)
        let misnap = try Self.loader.builtIn("misnap-default"), risky = try Self.loader.builtIn("misnap-high-risk")
        #expect(gate(misnap, "misnap.eye_distance", .ge)?.threshold == 90 && gate(misnap, "misnap.eye_distance", .le)?.threshold == 160)
        #expect(gate(misnap, "misnap.eye_distance", .ge)?.code == "32")  // geometric meaning: small distance = too far
        #expect(gate(misnap, "misnap.liveness", .ge)?.threshold == 500 && gate(risky, "misnap.liveness", .ge)?.threshold == 700)
        let dot = try Self.loader.builtIn("dot-default")
        #expect(gate(dot, "face.size_ratio", .ge)?.threshold == 0.10 && gate(dot, "face.size_ratio", .le)?.threshold == 0.30)
        for (level, target) in [("low", 0.06), ("medium", 0.03), ("high", 0.01)] {
            let idemia = try Self.loader.builtIn("idemia-\(level)")
            #expect(idemia.gates[0].calibration?.target == .apcer(target))
        }
    }

    @Test func missingVendorOutputUsesTheApproximationAndSaysSo() throws {
        let misnap = try Self.loader.builtIn("misnap-default")
        let compiled = misnap.compiled(columns: ["eyes.distance_px", "quality.luminance_mean", "quality.sharpness"])
        #expect(compiled.approximatedGates == [0, 1, 2, 3])
        #expect(compiled.unmeasuredGates == [4])   // liveness: no pad.score either
        #expect(compiled.decide { [100, 120, 50][$0] }.isAccepted)
        #expect(compiled.decide { [80, 120, 50][$0] }.failedGate == 0)
        // With the vendor's own export, the exact gate is used.
        let exact = misnap.compiled(columns: ["misnap.eye_distance", "misnap.lighting", "misnap.sharpness", "misnap.liveness"])
        #expect(exact.approximatedGates.isEmpty && exact.unmeasuredGates.isEmpty)
        #expect(exact.decide { [100, 600, 300, 499][$0] }.failedGate == 4)
    }
}

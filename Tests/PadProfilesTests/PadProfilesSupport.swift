import Testing
import PadDataset
import PadImport
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

    /// Parse first (any output name), validate against the run's outputs second, located in the
    /// profile's file with the nearest output the run declares.
    @Test func parseOnlyThenValidateAgainstTheRunsOutputs() throws {
        let yaml = "name: m\nsource: s\nscore: mymodel.score\ngates:\n  - {output: mymodel.score, op: ge, value: 0.5}\n"
        let parsed = try ProfileLoader().load(yaml: yaml, file: "m.yaml")
        #expect(parsed.requiredOutputs == ["mymodel.score"])
        #expect(throws: ProfileError(file: "m.yaml", line: 3, column: 8, "unknown output `mymodel.score`")) {
            try Catalogue.loader.validate(parsed)
        }
        var run = Catalogue.outputs
        run["mymodel.score"] = OutputDescriptor(name: "score", unit: "", minimum: 0, maximum: 1, direction: .higherIsBetter, summary: "")
        let validated = try ProfileLoader(catalogue: run).validate(parsed)
        #expect(validated.definitionHash == parsed.definitionHash && validated.origin == "m.yaml")
        // Ranges are checked against the run's descriptor.
        let outside = try ProfileLoader().load(yaml: yaml.replacingOccurrences(of: "value: 0.5", with: "value: 7"), file: "m.yaml")
        #expect(throws: ProfileError(file: "m.yaml", line: 5, column: 44, "threshold 7.0 is outside the range of mymodel.score [0.0, 1.0]")) {
            try ProfileLoader(catalogue: run).validate(outside)
        }
        // Left out: neither the gate's output nor its approximation's is measured.
        let misnap = try ProfileLoader().builtIn("misnap-default")
        #expect(misnap.leftOutGates(measured: ["eyes.distance_px", "misnap.lighting"]) == [3, 4])
        #expect(ProfileError(file: "f", line: 3, column: 0, "m").description == "f:3: m")
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
        #expect(Set(names) == ["aware-capture", "basic", "dot-default", "idemia-high", "idemia-low", "idemia-medium", "idemia-status",
                               "luna-id-default", "luna-id-osl", "luna-osl", "misnap-default", "misnap-high-risk", "misnap-mibi"])
        for name in names {
            let profile = try ProfileLoader().builtIn(name)
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

    /// Presets for what users import decide exactly on the vendor's exported outputs.
    @Test func importPresetsGateOnlyOnTheVendorsExports() throws {
        let expected: [String: Set<String>] = [
            "idemia-status": ["idemia.live"], "luna-osl": ["luna.error_code", "luna.liveness"],
            "misnap-mibi": ["misnap.eye_distance", "misnap.lighting", "misnap.sharpness", "misnap.liveness"],
        ]
        for (name, outputs) in expected {
            let profile = try ProfileLoader().builtIn(name)
            #expect(Set(profile.requiredOutputs) == outputs, "\(name)")
            #expect(profile.gates.allSatisfy { $0.kind == .exact && $0.approximation == nil }, "\(name)")
        }
        let idemia = try ProfileLoader().builtIn("idemia-status")
        #expect(idemia.gates[0].comparison == .eq && idemia.gates[0].threshold == 1 && idemia.gates[0].code == "Fake")
        let luna = try ProfileLoader().builtIn("luna-osl")
        #expect(luna.score == "luna.liveness" && luna.gates[1].threshold == 0.5 && luna.gates[1].code == "1004")
    }

    /// Aware's feedback names as reject codes, padbench's own thresholds, unmeasurable codes skipped.
    @Test func awareCaptureUsesAwaresFeedbackNames() throws {
        let aware = try ProfileLoader().builtIn("aware-capture")
        let active = Dictionary(aware.gates.filter { !$0.isSkipped }.map { ($0.code, $0) }, uniquingKeysWith: { a, _ in a })
        let measured: [String: String] = [
            "NO_FACE_DETECTED": "face.count", "MULTIPLE_FACES_DETECTED": "face.count", "FACE_TOO_FAR": "face.size_ratio",
            "FACE_TOO_CLOSE": "face.size_ratio", "FACE_ON_LEFT": "face.offset_x", "FACE_ON_RIGHT": "face.offset_x",
            "FACE_TOO_HIGH": "face.offset_y", "FACE_TOO_LOW": "face.offset_y", "INSUFFICIENT_LIGHTING": "quality.luminance_mean",
            "LIGHT_TOO_BRIGHT": "quality.luminance_mean", "TOO_MUCH_BLUR": "quality.blur", "BACKGROUND_TOO_BRIGHT": "quality.background_luminance",
            "BACKGROUND_TOO_DARK": "quality.background_luminance", "GLARE": "quality.specularity",
            "FACIAL_SHADOWING": "quality.illumination_uniformity", "UNNATURAL_LIGHTING_COLOR": "quality.natural_colour",
        ]
        #expect(active.mapValues(\.output) == measured)
        #expect(active.values.filter { $0.output != "face.count" }.allSatisfy { $0.kind == .own })
        #expect(active["FACE_ON_LEFT"]!.comparison == .ge && active["FACE_ON_LEFT"]!.threshold < 0)   // left = negative offset
        #expect(active["FACE_TOO_HIGH"]!.comparison == .ge && active["FACE_TOO_HIGH"]!.threshold < 0) // up = negative offset
        #expect(Set(aware.gates.filter(\.isSkipped).map(\.code)) == ["INVALID_POSE", "SMILE_PRESENT", "FOREHEAD_COVERING", "LEFT_EYE_CLOSED",
                                                                    "RIGHT_EYE_CLOSED", "LEFT_EYE_OBSTRUCTED", "RIGHT_EYE_OBSTRUCTED",
                                                                    "HEAVY_FRAMES", "DARK_GLASSES", "MOUTH_OBSCURED"])
        #expect(ProfileDescription.text(aware).contains("(own: padbench's threshold, the vendor documents none)"))
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

import Testing
import PadDataset
import PadImport
@testable import PadProfiles

@Suite struct PresetTests {
    static let loader = ProfileLoader(
        catalogue: {
            var c = VendorOutputs.catalogue
            for name in [
                "face.count", "face.width", "face.border_px", "face.size_ratio", "eyes.distance_px", "image.short_side",
                "image.long_side", "quality.blur", "quality.underexposure", "quality.overexposure",
                "quality.illumination_uniformity", "quality.specularity", "quality.luminance_mean", "quality.sharpness",
            ] {
                c[name] = OutputDescriptor(
                    name: name, unit: "", minimum: 0, maximum: .infinity, direction: .none, summary: "")
            }
            return c
        }())

    @Test func everyPresetLoadsWithItsSource() throws {
        let names = ProfileLoader.builtInNames
        #expect(
            Set(names) == [
                "aware-capture", "basic", "dot-default", "idemia-high", "idemia-low", "idemia-medium", "idemia-status",
                "luna-id-default", "luna-id-osl", "luna-osl", "misnap-default", "misnap-high-risk", "misnap-mibi",
            ])
        for name in names {
            let profile = try ProfileLoader().builtIn(name)
            #expect(profile.name == name && !profile.source.isEmpty)
        }
    }

    @Test func vendorNumbersAreCarriedExactly() throws {
        let luna = try Self.loader.builtIn("luna-id-default")
        func gate(_ p: Profile, _ output: String, _ op: Gate.Comparison) -> Gate? {
            p.gates.first { $0.output == output && $0.comparison == op }
        }
        #expect(gate(luna, "face.width", .ge)?.threshold == 200 && gate(luna, "face.width", .ge)?.code == "1016")
        #expect(gate(luna, "face.border_px", .ge)?.threshold == 10 && gate(luna, "face.border_px", .ge)?.kind == .exact)
        #expect(gate(luna, "luna.liveness", .ge)?.threshold == 0.5)
        #expect(luna.gates.filter(\.isSkipped).map(\.code) == ["1002", "1006", "1010"])
        let osl = try Self.loader.builtIn("luna-id-osl")
        #expect(gate(osl, "image.short_side", .between).map { ($0.threshold, $0.upper) } ?? (0, 0) == (720, 1080))
        #expect(gate(osl, "face.width", .gt)?.threshold == 200)
        let misnap = try Self.loader.builtIn("misnap-default"), risky = try Self.loader.builtIn("misnap-high-risk")
        #expect(
            gate(misnap, "misnap.eye_distance", .ge)?.threshold == 90
                && gate(misnap, "misnap.eye_distance", .le)?.threshold == 160)
        #expect(gate(misnap, "misnap.eye_distance", .ge)?.code == "32") // geometric meaning: small distance = too far
        #expect(
            gate(misnap, "misnap.liveness", .ge)?.threshold == 500
                && gate(risky, "misnap.liveness", .ge)?.threshold == 700)
        let dot = try Self.loader.builtIn("dot-default")
        #expect(
            gate(dot, "face.size_ratio", .ge)?.threshold == 0.10 && gate(dot, "face.size_ratio", .le)?.threshold == 0.30
        )
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
        let active = Dictionary(
            aware.gates.filter { !$0.isSkipped }.map { ($0.code, $0) }, uniquingKeysWith: { a, _ in a })
        let measured: [String: String] = [
            "NO_FACE_DETECTED": "face.count", "MULTIPLE_FACES_DETECTED": "face.count",
            "FACE_TOO_FAR": "face.size_ratio",
            "FACE_TOO_CLOSE": "face.size_ratio", "FACE_ON_LEFT": "face.offset_x", "FACE_ON_RIGHT": "face.offset_x",
            "FACE_TOO_HIGH": "face.offset_y", "FACE_TOO_LOW": "face.offset_y",
            "INSUFFICIENT_LIGHTING": "quality.luminance_mean",
            "LIGHT_TOO_BRIGHT": "quality.luminance_mean", "TOO_MUCH_BLUR": "quality.blur",
            "BACKGROUND_TOO_BRIGHT": "quality.background_luminance",
            "BACKGROUND_TOO_DARK": "quality.background_luminance", "GLARE": "quality.specularity",
            "FACIAL_SHADOWING": "quality.illumination_uniformity", "UNNATURAL_LIGHTING_COLOR": "quality.natural_colour",
        ]
        #expect(active.mapValues(\.output) == measured)
        #expect(active.values.filter { $0.output != "face.count" }.allSatisfy { $0.kind == .own })
        // Left = negative offset.
        #expect(active["FACE_ON_LEFT"]!.comparison == .ge && active["FACE_ON_LEFT"]!.threshold < 0)
        // Up = negative offset.
        #expect(active["FACE_TOO_HIGH"]!.comparison == .ge && active["FACE_TOO_HIGH"]!.threshold < 0)
        #expect(
            Set(aware.gates.filter(\.isSkipped).map(\.code)) == [
                "INVALID_POSE", "SMILE_PRESENT", "FOREHEAD_COVERING", "LEFT_EYE_CLOSED",
                "RIGHT_EYE_CLOSED", "LEFT_EYE_OBSTRUCTED", "RIGHT_EYE_OBSTRUCTED",
                "HEAVY_FRAMES", "DARK_GLASSES", "MOUTH_OBSCURED",
            ])
        #expect(ProfileDescription.text(aware).contains("(own: padbench's threshold, the vendor documents none)"))
    }

    @Test func missingVendorOutputUsesTheApproximationAndSaysSo() throws {
        let misnap = try Self.loader.builtIn("misnap-default")
        let compiled = misnap.compiled(columns: ["eyes.distance_px", "quality.luminance_mean", "quality.sharpness"])
        #expect(compiled.approximatedGates == [0, 1, 2, 3])
        #expect(compiled.unmeasuredGates == [4]) // liveness: no pad.score either
        #expect(compiled.decide { [100, 120, 50][$0] }.isAccepted)
        #expect(compiled.decide { [80, 120, 50][$0] }.failedGate == 0)
        // With the vendor's own export, the exact gate is used.
        let exact = misnap.compiled(columns: [
            "misnap.eye_distance", "misnap.lighting", "misnap.sharpness", "misnap.liveness",
        ])
        #expect(exact.approximatedGates.isEmpty && exact.unmeasuredGates.isEmpty)
        #expect(exact.decide { [100, 600, 300, 499][$0] }.failedGate == 4)
    }
}

import PadVocabulary
import Testing
import PadImport
@testable import PadProfiles

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
        let e = Self.error(
            """
            name: t
            source: test
            gates:
              - output: quality.sharpnes
                op: ge
                value: 3
            """)
        #expect(
            e
                == ProfileError(
                    file: "p.yaml", line: 4, column: 13,
                    "unknown output `quality.sharpnes`; did you mean `quality.sharpness`?"))
    }

    @Test func invertedRangeUnknownKeyAndOpAreLocated() {
        #expect(
            Self.error("name: t\nsource: s\ngates:\n  - {output: face.count, op: between, min: 3, max: 1}\n")
                == ProfileError(file: "p.yaml", line: 4, column: 44, "inverted range: min 3.0 is above max 1.0"))
        let typo = Self.error("name: t\nsource: s\ngates:\n  - {output: face.count, op: ge, value: 1, treshold: 2}\n")
        #expect(typo?.line == 4 && typo?.column == 44)
        #expect(typo?.message.hasPrefix("unknown gate key `treshold`") == true)
        #expect(
            Self.error("name: t\nsource: s\ngates:\n  - {output: face.count, op: gte, value: 1}\n")?.message
                == "unknown op 'gte' (ge, gt, le, lt, eq, between)")
        #expect(
            Self.error("name: t\nsource: s\ngates:\n  - {output: pad.score, op: ge, value: 500}\n")?.message
                == "threshold 500.0 is outside the range of pad.score [0.0, 1.0]")
        #expect(Self.error("name: t\ngates: []\n")?.message == "missing `source`")
    }

    /// Parse first (any output name), validate against the run's outputs second, located in the
    /// profile's file with the nearest output the run declares.
    @Test func parseOnlyThenValidateAgainstTheRunsOutputs() throws {
        let yaml = "name: m\nsource: s\nscore: mymodel.score\ngates:\n  - {output: mymodel.score, op: ge, value: 0.5}\n"
        let parsed = try ProfileLoader().load(yaml: yaml, file: "m.yaml")
        #expect(parsed.requiredOutputs == ["mymodel.score"])
        // The score (line 3) and the gate (line 5) name it: the first error, and more.
        #expect(
            throws: ProfileError(file: "m.yaml", line: 3, column: 8, "unknown output `mymodel.score`", moreErrors: 1)
        ) {
            try Catalogue.loader.validate(parsed)
        }
        var run = Catalogue.outputs
        run["mymodel.score"] = OutputDescriptor(
            name: "score", unit: "", minimum: 0, maximum: 1, direction: .higherIsBetter, summary: "")
        let validated = try ProfileLoader(catalogue: run).validate(parsed)
        #expect(validated.definitionHash == parsed.definitionHash && validated.origin == "m.yaml")
        // Ranges are checked against the run's descriptor.
        let outside = try ProfileLoader().load(
            yaml: yaml.replacingOccurrences(of: "value: 0.5", with: "value: 7"), file: "m.yaml")
        #expect(
            throws: ProfileError(
                file: "m.yaml", line: 5, column: 44, "threshold 7.0 is outside the range of mymodel.score [0.0, 1.0]")
        ) {
            try ProfileLoader(catalogue: run).validate(outside)
        }
        // Left out: neither the gate's output nor its approximation's is measured.
        let misnap = try ProfileLoader().builtIn("misnap-default")
        #expect(misnap.leftOutGates(measured: ["landmarks.eye_distance_px", "misnap.lighting"]) == [3, 4, 5])
        #expect(ProfileError(file: "f", line: 3, column: 0, "m").description == "f:3: m")
    }

    @Test func duplicateProfileNamesAreAnError() {
        #expect(throws: ProfileError.self) { try Catalogue.loader.resolveAll(["basic", "basic"]) }
    }

    @Test func calibratedAndSkippedGates() throws {
        let profile = try Catalogue.loader.load(
            yaml: """
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
        #expect(
            profile.gates[1].calibration == .init(target: .apcer(0.03), calibrationSplit: .dev, appliedSplit: .eval))
        #expect(profile.requiredOutputs == ["pad.score"])
    }
}

/// Messages quote at most about 200 characters of the input, with control bytes escaped
/// (issue 25): a duplicate key used to print the whole document, a 50 MB key 100 MB.
@Suite struct ProfileMessageBoundsTests {
    static func error(_ yaml: String) -> ProfileError? {
        do { _ = try Catalogue.loader.load(yaml: yaml, file: "p.yaml"); return nil } catch { return error }
    }

    @Test func duplicateKeyNamesTheKeyNotTheDocument() throws {
        let filler = (0..<400).map { "# comment line \($0) of a long profile" }.joined(separator: "\n")
        let yaml = "name: t\nsource: test\n\(filler)\ndescription: a\ndescription: b\ngates: []\n"
        let e = try #require(Self.error(yaml))
        #expect(e.message.contains("duplicate key 'description'"), "\(e.message)")
        #expect(e.message.count < 300 && !e.message.contains("\n") && !e.message.contains("comment line"))
        #expect(e.line > 0)
    }

    /// A 1 MB key: as a plain key libyaml refuses it (over 1,024 characters), as an explicit key
    /// (`? key`) it is an unknown key; either way the message stays short.
    @Test func hugeKeyIsQuotedShort() throws {
        let key = String(repeating: "k", count: 1 << 20)
        let plain = try #require(Self.error("name: t\nsource: test\n\(key): 1\ngates: []\n"))
        #expect(plain.message.hasPrefix("YAML syntax: ") && plain.message.count < 300, "\(plain.message.prefix(300))")
        let explicit = try #require(Self.error("name: t\nsource: test\n? \(key)\n: 1\ngates: []\n"))
        #expect(
            explicit.message.hasPrefix("unknown profile key `kkk") && explicit.message.count < 300,
            "\(explicit.message.prefix(300))")
    }

    /// Every error of a file in document order, each located: a top-level key, two gates' errors
    /// and an approximation's; `load` throws the first and says there are more.
    /// A gate whose output is misspelt still has its other errors listed (the unknown output used
    /// to end the gate's checks, so validate showed one error of two).
    @Test func aGateWithAnUnknownOutputStillHasItsOtherErrorsListed() {
        let yaml =
            "name: g\nsource: t\ngates:\n  - output: qualty.luminance_mean\n    op: betwen\n    min: 40\n    max: 220\n"
        let errors = Catalogue.loader.diagnose(yaml: yaml, file: "g.yaml").errors.map(\.description)
        #expect(
            errors == [
                "g.yaml:4:13: unknown output `qualty.luminance_mean`; did you mean `quality.luminance_mean`?",
                "g.yaml:5:9: unknown op 'betwen' (ge, gt, le, lt, eq, between)",
            ])
    }

    @Test func diagnoseListsEveryErrorInDocumentOrder() throws {
        let yaml = """
            name: bad name
            source: test
            gates:
              - {output: quality.sharpnes, op: ge, value: 3}
              - {output: face.count, op: between, min: 3, max: 1, treshold: 2}
              - output: pad.score
                op: ge
                value: 0.5
                approximate: {output: quality.sharpness, op: gte, value: 1}
              - {output: face.count, op: ge, value: 1}
            frames: {decide: sometimes}
            """
        let diagnosis = Catalogue.loader.diagnose(yaml: yaml, file: "p.yaml")
        #expect(diagnosis.profile == nil)
        #expect(
            diagnosis.errors.map(\.description) == [
                "p.yaml:1:7: profile name 'bad name' must be letters, digits, '.', '_' or '-'",
                "p.yaml:4:14: unknown output `quality.sharpnes`; did you mean `quality.sharpness`?",
                "p.yaml:5:44: inverted range: min 3.0 is above max 1.0",
                "p.yaml:5:55: unknown gate key `treshold`",
                "p.yaml:9:50: unknown op 'gte' (ge, gt, le, lt, eq, between)",
                "p.yaml:11:18: unknown frames.decide 'sometimes' (expected aggregate, best_shot or k_of_n)",
            ])
        let first = try #require(Self.error(yaml))
        #expect(first.moreErrors == 5 && first.line == 1)
        #expect(
            "\(first)"
                == "p.yaml:1:7: profile name 'bad name' must be letters, digits, '.', '_' or '-' "
                + "(and more errors: padbench profiles validate p.yaml lists every one)")
        // A file without errors gives its profile and no error.
        let fine = Catalogue.loader.diagnose(
            yaml: "name: t\nsource: s\ngates:\n  - {output: face.count, op: eq, value: 1}\n", file: "f.yaml")
        #expect(fine.errors.isEmpty && fine.profile?.gates.count == 1)
    }

    /// A profile decides with at least one gate padbench can decide: `gates: []`, no gates and
    /// only skipped gates would accept every sample. A calibrated gate's `approximate:` would be
    /// ignored: refused too.
    @Test func aProfileThatDecidesNothingIsRefused() {
        #expect(
            Self.error("name: t\nsource: s\ngates: []\n")?.description
                == "p.yaml:3:8: `gates` is empty: a profile decides with at least one gate (with none every "
                + "sample is accepted); gate the swept score, e.g. calibrate: {criterion: eer}")
        #expect(
            Self.error("name: t\nsource: s\n")?.message
                == "missing `gates` (a list of at least one gate: output, op, value or calibrate)")
        #expect(
            Self.error("name: t\nsource: s\ngates:\n  - {output: glasses.present, skipped: no model}\n")?.message
                == "every gate is skipped: the profile decides nothing (every sample is accepted); "
                + "add a gate padbench can decide")
        let calibrated = Self.error(
            "name: t\nsource: s\ngates:\n  - output: pad.score\n    calibrate: {criterion: eer}\n"
                + "    approximate: {output: quality.sharpness, op: ge, value: 1}\n")
        #expect(calibrated?.message == "a calibrated gate takes no approximation" && calibrated?.line == 6)
    }

    @Test func controlBytesInAQuotedNameAreEscaped() throws {
        let e = try #require(Self.error("name: \"a\\0b\\ec\"\nsource: test\ngates: []\n"))
        #expect(e.message.contains(#"a\u{0}b\u{1b}c"#), "\(e.message)")
        #expect(!e.message.unicodeScalars.contains { $0.value < 0x20 })
    }
}

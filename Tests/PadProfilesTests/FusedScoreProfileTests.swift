import PadVocabulary
import Testing

@testable import PadProfiles

/// `score: {name:, fusion:, outputs:, on:}`: a fused swept score in a profile's YAML.
@Suite struct FusedScoreProfileTests {
    static let fused = """
        name: f
        source: test
        score: {name: fused.live, fusion: logistic, outputs: [quality.sharpness, face.count]}
        gates:
          - {output: fused.live, calibrate: {criterion: eer}}
          - {output: face.count, op: ge, value: 1}
        """

    static func error(_ yaml: String) -> ProfileError? {
        do { _ = try Catalogue.loader.load(yaml: yaml, file: "p.yaml"); return nil } catch { return error }
    }

    /// The fused score is the swept score and may be gated; the run must measure what it fuses.
    @Test func fusedScoreParsesAndStandsForItsOutputs() throws {
        let profile = try Catalogue.loader.load(yaml: Self.fused, file: "p.yaml")
        #expect(profile.score == "fused.live")
        #expect(
            profile.fusion
                == FusedScore(
                    name: "fused.live", method: .logistic, outputs: ["quality.sharpness", "face.count"],
                    trainingSplit: .dev))
        #expect(profile.requiredOutputs == ["quality.sharpness", "face.count"])
        #expect(profile.requiredEstimators == ["quality", "face"])
        #expect(profile.leftOutGates(measured: ["quality.sharpness", "face.count"]).isEmpty)
        #expect(profile.leftOutGates(measured: ["face.count"]) == [0])
        let eval = try Catalogue.loader.load(
            yaml: Self.fused.replacingOccurrences(of: "face.count]}", with: "face.count], on: eval}"), file: "p.yaml")
        #expect(eval.fusion?.trainingSplit == .eval)
        #expect(
            ProfileDescription.text(profile).contains(
                "swept score: fused.live (logistic fusion of quality.sharpness, face.count trained on dev)"))
    }

    /// What decides changes the hash: the method, the outputs and the training split.
    @Test func definitionHashCoversTheFusion() throws {
        func hash(_ yaml: String) throws -> String {
            try Catalogue.loader.load(yaml: yaml, file: "p.yaml").definitionHash
        }
        let base = try hash(Self.fused)
        #expect(try hash(Self.fused.replacingOccurrences(of: "logistic", with: "mean")) != base)
        #expect(
            try hash(
                Self.fused.replacingOccurrences(
                    of: "[quality.sharpness, face.count]", with: "[face.count, quality.sharpness]"))
                != base)
        #expect(try hash(Self.fused.replacingOccurrences(of: "face.count]}", with: "face.count], on: eval}")) != base)
        #expect(try hash(Self.fused.replacingOccurrences(of: "source: test", with: "source: other")) == base)
    }

    /// Every mistake is located at its node.
    @Test func brokenFusionsAreLocated() {
        func message(_ score: String) -> String? {
            Self.error(
                Self.fused.replacingOccurrences(
                    of: "{name: fused.live, fusion: logistic, outputs: [quality.sharpness, face.count]}", with: score))?
                .message
        }
        #expect(
            message("{name: live, fusion: logistic, outputs: [quality.sharpness, face.count]}")
                == "a fused score's name is `fused.` and letters, digits, '_' or '-' (fused.liveness), not 'live'")
        #expect(
            message("{name: fused.live, fusion: svm, outputs: [quality.sharpness, face.count]}")
                == "`fusion` must be mean or logistic, not 'svm'")
        #expect(
            message("{name: fused.live, fusion: mean, outputs: [quality.sharpness]}")
                == "`outputs` must be a list of at least two outputs to fuse")
        #expect(
            message("{name: fused.live, fusion: mean, outputs: [face.count, face.count]}")
                == "`face.count` is fused twice")
        #expect(
            message("{name: fused.live, fusion: mean, outputs: [face.count, quality.sharpnes]}")
                == "unknown output `quality.sharpnes`; did you mean `quality.sharpness`?")
        #expect(
            message("{name: fused.live, fusion: mean, outputs: [face.count, quality.sharpness], weights: [1, 2]}")?
                .hasPrefix("unknown score key `weights`") == true)
        #expect(message("{name: fused.live, fusion: mean}") == "missing `outputs` (the outputs to fuse, at least two)")
        let located = Self.error(
            Self.fused.replacingOccurrences(of: "output: fused.live,", with: "output: fused.other,"))
        #expect(located?.line == 5)
        #expect(
            located?.message
                == "`fused.other` is no fused score of this profile: `fused.` names the score a profile's "
                + "`score: {name:, fusion:, outputs:}` defines (this profile's is `fused.live`)")
    }

    /// A measured output can never be named `fused.*`: the estimator name is reserved.
    @Test func theFusedPrefixIsReserved() {
        #expect(OutputDescriptor.fullNameProblem("fused.live")?.contains("reserved") == true)
        #expect(OutputDescriptor.fullNameProblem("vendorx.fused") == nil)
        #expect(
            Self.error("name: t\nsource: s\nscore: fused.live\ngates:\n  - {output: fused.live, op: ge, value: 0}\n")?
                .message.hasPrefix("`fused.live` is no fused score of this profile") == true)
    }
}

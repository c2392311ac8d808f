import Foundation
import PadProfiles
import PadVocabulary
import Testing

@testable import PadEvaluation

/// Presentations decided from their frames, every value worked out by hand: the aggregates, a
/// best shot, k of n, and the failure rules (no processed frame; no assessable score).
@Suite struct PresentationLevelTests {
    /// Two columns: `face.size` (capture gate >= 100) and `pad.score` (the swept score, >= 0.5).
    /// v1 (bona fide): frames (size, score) = (50, 0.9) (120, 0.4) (130, 0.8) (140, 0.2)
    /// v2 (print):     frames (120, 0.6) (130, NaN) failed-to-decode
    /// v3 (print):     one failed frame only
    /// v4 (bona fide): frames (110, NaN) (120, NaN)
    /// still.jpg (replay): one frame (150, 0.3)
    static func table() -> MeasurementTable {
        var table = MeasurementTable(columns: ["face.size", "pad.score"])
        let failed = SampleStatus.failed(code: .decodeError, message: "bad frame")
        let rows: [(String, String, Label, SampleStatus, [Double])] = [
            ("v1#0", "v1", .bonaFide, .ok, [50, 0.9]), ("v1#1", "v1", .bonaFide, .ok, [120, 0.4]),
            ("v2#0", "v2", .attack(species: "print"), .ok, [120, 0.6]),
            ("v1#2", "v1", .bonaFide, .ok, [130, 0.8]), ("v1#3", "v1", .bonaFide, .ok, [140, 0.2]),
            ("v2#1", "v2", .attack(species: "print"), .ok, [130, .nan]),
            ("v2#2", "v2", .attack(species: "print"), failed, [.nan, .nan]),
            ("v3#0", "v3", .attack(species: "print"), failed, [.nan, .nan]),
            ("v4#0", "v4", .bonaFide, .ok, [110, .nan]), ("v4#1", "v4", .bonaFide, .ok, [120, .nan]),
            ("still.jpg", "still.jpg", .attack(species: "replay"), .ok, [150, 0.3]),
        ]
        for (id, presentation, label, status, values) in rows {
            table.append(id: id, label: label, split: .eval, status: status, values: values)
            table.setLastPresentation(presentation, frameIndex: nil)
        }
        return table
    }

    static func profile(_ frames: String = "") throws -> Profile {
        try ProfileLoader().load(
            yaml: """
                name: p
                source: test
                score: pad.score
                \(frames)
                gates:
                  - {output: face.size, op: ge, value: 100, code: SMALL, message: small face}
                  - {output: pad.score, op: ge, value: 0.5, code: SPOOF, message: spoof}
                """, file: "p.yaml")
    }

    static func presentations(_ profile: Profile, _ aggregate: FrameAggregate = .mean) -> MeasurementTable {
        let table = table()
        return PresentationTable.make(
            table, groups: PresentationGroups(table), profile: profile,
            compiled: profile.compiled(columns: table.columns), aggregate: aggregate)
    }

    @Test func framesGroupInOrderOfFirstAppearance() {
        let table = Self.table()
        #expect(table.hasPresentations)
        let groups = PresentationGroups(table)
        #expect(groups.count == 5)
        #expect(groups.frames(0) == [0, 1, 3, 4])
        #expect(groups.frames(1) == [2, 5, 6])
        #expect(groups.firsts == [0, 2, 7, 8, 10])
    }

    @Test func meanMedianMinMaxOfAssessableFrames() throws {
        let profile = try Self.profile()
        let mean = Self.presentations(profile, .mean)
        #expect(Array(mean.ids) == ["v1", "v2", "v3", "v4", "still.jpg"])
        // v1: size (50+120+130+140)/4 = 110, score (0.9+0.4+0.8+0.2)/4 = 0.575; v2: NaN left out.
        #expect(mean.values[0][0] == 110 && abs(mean.values[1][0] - 0.575) < 1e-15)
        #expect(mean.values[0][1] == 125 && mean.values[1][1] == 0.6)
        #expect(mean.values[1][4] == 0.3)
        let median = Self.presentations(profile, .median)
        #expect(median.values[1][0] == (0.4 + 0.8) / 2 && median.values[0][0] == 125)
        #expect(Self.presentations(profile, .min).values[1][0] == 0.2)
        #expect(Self.presentations(profile, .max).values[1][0] == 0.9)
        // v3: no processed frame, its first frame's failure; v4: no assessable score.
        #expect(mean.statuses[2].code == .decodeError)
        #expect(mean.statuses[3].code == .noAssessableFrame)
        #expect(mean.statuses[0].isOK && mean.statuses[1].isOK && mean.statuses[4].isOK)
    }

    @Test func aggregateDecisionsCountPresentations() throws {
        let profile = try Self.profile()
        let result = try ProfileEvaluator(table: Self.presentations(profile)).evaluate([profile])[0]
        // Processed: v1 (110, 0.575: accepted), v2 (125, 0.6: attack accepted), still (150, 0.3:
        // rejected); failed: v3, v4.
        #expect(result.reported.bonaFideCount == 2 && result.reported.attackCount == 3)
        #expect(result.reported.failedCount == 2)
        let headline = try #require(result.reported.headline)
        #expect(headline.bpcer.value == 0 && headline.bpcer.total == 1)
        #expect(headline.speciesNames == ["print", "replay"])
        #expect(headline.apcer[0].value == 1 && headline.apcer[0].total == 1)
        #expect(headline.apcer[1].value == 0 && headline.apcer[1].total == 1)
    }

    /// Best shot: v1's first frame is too small, its second (120, 0.4) is the best shot: rejected
    /// as a spoof although later frames score 0.8. v2: (120, 0.6). v4: (110, NaN).
    @Test func bestShotIsTheFirstFramePassingEveryCaptureGate() throws {
        let profile = try Self.profile("frames: {decide: best_shot}")
        #expect(profile.frames == .bestShot)
        let table = Self.presentations(profile)
        #expect(table.values[0][0] == 120 && table.values[1][0] == 0.4)
        #expect(table.values[0][1] == 120 && table.values[1][1] == 0.6)
        #expect(table.statuses[3].isOK && table.values[1][3].isNaN)
        let result = try ProfileEvaluator(table: table).evaluate([profile])[0]
        #expect(result.reported.bonaFideCount == 2 && result.reported.failedCount == 1)
        // v1 rejected (SPOOF), v4 rejected (SPOOF, not assessable): BPCER 2/2.
        #expect(result.reported.headline?.bpcer.value == 1)
    }

    /// k of n: v1's first 3 frames (50, 0.9) (120, 0.4) (130, 0.8): two pass the capture gate,
    /// ranked 0.8, 0.4; k = 2 takes 0.4 (only one frame accepted: rejected); k = 1 takes 0.8.
    @Test func kOfNTakesTheKthBestFramePassingCapture() throws {
        let two = try Self.profile("frames: {decide: k_of_n, k: 2, n: 3}")
        #expect(two.frames == .atLeast(k: 2, of: 3))
        #expect(Self.presentations(two).values[1][0] == 0.4)
        let one = try Self.profile("frames: {decide: k_of_n, k: 1, n: 3}")
        #expect(Self.presentations(one).values[1][0] == 0.8)
        // v2 with k = 2: one processed frame passes capture with a score, one with NaN (ranked
        // last): the second is the NaN frame (rejected, not assessable).
        #expect(Self.presentations(two).values[1][1].isNaN)
        // n = 1: only the first frame (too small) counts: rejected by the capture gate.
        let first = try Self.profile("frames: {decide: k_of_n, k: 1, n: 1}")
        #expect(Self.presentations(first).values[0][0] == 50)
    }

    @Test func framesSectionErrorsAreLocated() {
        #expect(throws: ProfileError.self) { try Self.profile("frames: {decide: k_of_n, k: 3, n: 2}") }
        #expect(throws: ProfileError.self) { try Self.profile("frames: {decide: best}") }
        #expect(throws: ProfileError.self) { try Self.profile("frames: {decide: k_of_n, k: 1}") }
    }

    /// `frames.outputs` under aggregate: `face.size` by max (v1: 50, 120, 130, 140 -> 140; v2: 130)
    /// while the score keeps the run's mean (0.575); the rule is part of the definition hash.
    @Test func perOutputRuleOverridesTheRunAggregate() throws {
        let profile = try Self.profile("frames: {decide: aggregate, outputs: {face.size: max}}")
        #expect(profile.frameOutputs == ["face.size": .max])
        let table = Self.presentations(profile, .mean)
        #expect(table.values[0][0] == 140 && abs(table.values[1][0] - 0.575) < 1e-15)
        #expect(table.values[0][1] == 130)
        #expect(Self.presentations(profile, .min).values[0][0] == 140)
        #expect(try Self.profile().definitionHash != profile.definitionHash)
        #expect(profile.framesText == "aggregate (face.size: max; others: the run's --aggregate, mean by default)")
        let note = ResultNote.presentations(
            rule: .aggregate, aggregate: .mean, outputs: profile.frameOutputs, presentations: 5, frames: 11)
        #expect(note.text.hasSuffix("decided by aggregate (face.size by max, others by mean of assessable frames)"))
    }

    @Test func perOutputRuleErrors() {
        // Only under aggregate; a rule is mean, median, min or max; outputs is a mapping.
        #expect(throws: ProfileError.self) {
            try Self.profile("frames: {decide: best_shot, outputs: {face.size: max}}")
        }
        #expect(throws: ProfileError.self) {
            try Self.profile("frames: {decide: aggregate, outputs: {face.size: top}}")
        }
        #expect(throws: ProfileError.self) { try Self.profile("frames: {decide: aggregate, outputs: [face.size]}") }
    }

    /// luna-id-default on a clip with a face in 6 of its 10 frames (frames 0-3: no face, so no
    /// box, pose or quality; frames 4-9: one face passing every best-shot check, PAD score 0.9).
    /// LUNA ID picks a best shot: frame 4 passes, liveness is decided on it and the clip is
    /// accepted. Averaged, as every output was before, face.count read 0.6 and the clip was
    /// rejected as "1005 No face found".
    @Test func lunaBestShotAcceptsAClipWithAFaceInSixOfTenFrames() throws {
        let profile = try ProfileLoader().builtIn("luna-id-default")
        #expect(profile.frames == .bestShot)
        let columns = [
            "face.count", "face.width", "face.border_px", "head.yaw_deg", "head.pitch_deg", "head.roll_deg",
            "eye_state.open", "quality.blur", "quality.underexposure", "quality.overexposure",
            "quality.illumination_uniformity", "quality.specularity", "pad.score",
        ]
        let face: [Double] = [1, 260, 40, 2, -3, 1, 0.05, 0.2, 0.01, 0.01, 0.8, 0.01, 0.9]
        var noFace = [Double](repeating: .nan, count: columns.count)
        noFace[0] = 0
        var table = MeasurementTable(columns: columns)
        for k in 0..<10 {
            table.append(id: "clip#\(k)", label: .bonaFide, split: .eval, status: .ok, values: k < 4 ? noFace : face)
            table.setLastPresentation("clip", frameIndex: k)
        }
        let compiled = profile.compiled(columns: table.columns)
        let best = PresentationTable.make(
            table, groups: PresentationGroups(table), profile: profile, compiled: compiled, aggregate: .mean)
        #expect(best.values[0][0] == 1 && best.values[12][0] == 0.9)
        #expect(compiled.decide { best.values[$0][0] }.isAccepted)
        var averaged = profile
        averaged.frames = nil
        let mean = PresentationTable.make(
            table, groups: PresentationGroups(table), profile: averaged, compiled: compiled, aggregate: .mean)
        #expect(abs(mean.values[0][0] - 0.6) < 1e-15)
        let rejected = compiled.decide { mean.values[$0][0] }
        #expect(!rejected.isAccepted && profile.gates[rejected.failedGate].code == "1005")
    }

    /// A profile without `frames:` keeps its definition hash (archives stay comparable).
    @Test func definitionHashChangesOnlyWithAWrittenRule() throws {
        #expect(try Self.profile().definitionHash == Self.profile("frames: {decide: aggregate}").definitionHash)
        #expect(try Self.profile().definitionHash != Self.profile("frames: {decide: best_shot}").definitionHash)
    }

    /// Still images: one frame per presentation, every aggregate gives the frame's own values.
    @Test func stillImageTablesHaveNoPresentations() {
        var table = MeasurementTable(columns: ["x"])
        table.append(id: "a", label: .bonaFide, split: .eval, status: .ok, values: [1])
        #expect(!table.hasPresentations)
        for aggregate in FrameAggregate.allCases { #expect(aggregate.combine([0.1]) == 0.1) }
    }
}

import Foundation
import PadVocabulary
import Testing
@testable import PadArchive
@testable import PadBench
@testable import PadDataset
@testable import PadEvaluation
@testable import PadImage
@testable import PadProfiles
@testable import PadReport
@testable import PadRuns

/// issue 30: the analyses count what ISO/IEC 30107-3 counts, presentations, and discard by
/// capture quality only. On main at 8063f82 edc.csv and attributes.csv counted frames, a
/// presentation's group was its first frame's, and EDC discarded by a profile's own score.
@Suite struct RunAnalysesUnitsTests {
    static let rows = RunAnalysesTests.rows

    /// A profile that gates on sharpness and sweeps no score: EDC may discard by sharpness.
    static func gated() throws -> Profile {
        try ProfileLoader(catalogue: EstimatorCatalog.knownOutputs()).load(
            yaml: """
                name: gated
                source: test
                gates:
                  - {output: quality.sharpness, op: ge, value: 50, code: BLUR, message: blurred}
                """, file: "gated.yaml")
    }

    /// 4 bona fide presentations (sharp, 2 frames each) and 4 print presentations (blurred, 2
    /// frames each); `group.sex` alternates by presentation, except presentation b3 whose frames
    /// disagree (female, male) and so has no group; `attr.blurry` is 1 on the attacks.
    static func writePresentations(_ root: String) throws {
        var manifest = "path,label,species,split,subject,presentation,group.sex,attr.blurry\n"
        for p in 0..<4 {
            for f in 0..<2 {
                let sex = p == 3 ? (f == 0 ? "female" : "male") : (p % 2 == 0 ? "female" : "male")
                Fixture.write(
                    try ImageEncoder.jpeg(Fixture.image(contrast: 40 + 4 * p + f, seed: p), quality: 95),
                    root + "/b\(p)_\(f).jpg")
                manifest += "b\(p)_\(f).jpg,bonafide,,,s\(p),b\(p),\(sex),0\n"
                Fixture.write(
                    try ImageEncoder.jpeg(Fixture.image(contrast: 2 + p + f, seed: p), quality: 60),
                    root + "/a\(p)_\(f).jpg")
                manifest += "a\(p)_\(f).jpg,attack,print,,s\(p),a\(p),\(p % 2 == 0 ? "female" : "male"),1\n"
            }
        }
        try manifest.write(toFile: root + "/manifest.csv", atomically: true, encoding: .utf8)
    }

    @Test func presentationsAreCounted() async throws {
        let root = Fixture.folder()
        try Self.writePresentations(root)
        let out = root + "/run"
        let outcome = try await BenchRunner().run(
            BenchJob(
                dataset: try DatasetLoader().load(root), profiles: [try Self.gated()], outputFolder: out,
                concurrency: 2))
        #expect(outcome.table.hasPresentations && outcome.table.count == 16)

        // EDC at 0% discarded: all 4 bona fide presentations, all 4 attack presentations.
        let edc = try Self.rows(out + "/edc.csv")
        let start = edc.filter { $0["output"] == "quality.sharpness" && $0["kind"] == "curve" && $0["x"] == "0" }
        #expect(start.map { "\($0["rate"]!) \($0["n"]!)" } == ["bpcer 4", "apcer_max 4"])
        // The first bona fide point past 0 discards one presentation (the least sharp: the mean of
        // its two frames' sharpness, the run's default aggregate).
        let samples = try Self.rows(out + "/samples.csv")
        func sharpness(_ id: String) -> Double { Double(samples.first { $0["id"] == id }!["quality.sharpness"]!)! }
        let means = (0..<4).map { p in (sharpness("b\(p)_0.jpg") + sharpness("b\(p)_1.jpg")) / 2 }
        let second = try #require(
            edc.first { $0["output"] == "quality.sharpness" && $0["rate"] == "bpcer" && $0["x"] == "0.25" })
        #expect(Double(second["quality_low"]!)! == means.sorted()[1])

        // attributes.csv: 4 presentations without, 4 with the attribute.
        let attributes = try Self.rows(out + "/attributes.csv")
        let sharp = try #require(
            attributes.first { $0["output"] == "quality.sharpness" && $0["attribute"] == "attr.blurry" })
        #expect(sharp["n_without"] == "4" && sharp["n_with"] == "4" && sharp["auc"] == "1")

        // fairness.csv: b3's frames disagree, so it has no group: female b0, b2; male b1.
        let fairness = try Self.rows(out + "/fairness.csv")
        let bpcerN = fairness.filter { $0["metric"] == "bpcer" }.map { "\($0["group"]!) \($0["n"]!)" }
        let apcerN = fairness.filter { $0["metric"] == "apcer" }.map { "\($0["group"]!) \($0["n"]!)" }
        #expect(bpcerN == ["female 2", "male 1"] && apcerN == ["female 2", "male 2"])
        #expect(fairness.allSatisfy { $0["level"] == "presentation" })
    }

    /// `basic` sweeps quality.sharpness and gets no EDC by it (its own score); `gated`, which only
    /// gates on it, does; both get the other capture-quality outputs. PAD scores are never quality
    /// outputs; face geometry is.
    @Test func noErrorDiscardByTheProfilesOwnScore() async throws {
        let root = Fixture.folder()
        _ = try RunAnalysesTests.writeDataset(root)
        let loader = ProfileLoader(catalogue: EstimatorCatalog.knownOutputs())
        let out = root + "/run"
        let outcome = try await BenchRunner().run(
            BenchJob(
                dataset: try DatasetLoader().load(root), profiles: [try loader.builtIn("basic"), try Self.gated()],
                outputFolder: out, concurrency: 2))
        let edc = try Self.rows(out + "/edc.csv")
        // basic sweeps quality.sharpness (`score:`); a profile that only gates on it is discarded by it.
        #expect(!edc.contains { $0["profile"] == "basic" && $0["output"] == "quality.sharpness" })
        #expect(edc.contains { $0["profile"] == "gated" && $0["output"] == "quality.sharpness" })
        #expect(edc.contains { $0["profile"] == "basic" && $0["output"] == "quality.underexposure" })

        var manifest = try StoredRun(path: outcome.archivePath).manifest
        manifest.estimators.append(
            .init(
                name: "pad", version: "1", parameters: [:],
                outputs: [
                    OutputDescriptor(
                        name: "pad.score", unit: "", minimum: 0, maximum: 1, direction: .higherIsBetter, summary: "")
                ], coldStartNanoseconds: 0))
        manifest.estimators.append(
            .init(
                name: "face", version: "1", parameters: [:],
                outputs: [
                    OutputDescriptor(
                        name: "face.border_px", unit: "px", minimum: -.infinity, maximum: .infinity,
                        direction: .higherIsBetter, summary: "")
                ], coldStartNanoseconds: 0))
        var table = MeasurementTable(columns: ["pad.score", "quality.sharpness", "face.border_px"])
        table.append(id: "x", label: .bonaFide, split: .none, status: .ok, values: [1, 1, 1])
        let names = RunAnalyses.qualityOutputs(manifest, table: table).map(\.name)
        #expect(names.contains("quality.sharpness") && names.contains("face.border_px") && !names.contains("pad.score"))
    }
}

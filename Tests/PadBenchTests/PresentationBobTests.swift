import Foundation
import PadArchive
import PadBench
import PadEvaluation
import PadMetrics
import PadReport
import PadRuns
import Testing

/// bob's per-frame score files counted per presentation: every expected value was computed once
/// by bob.measure 6.1.1 on the per-video mean scores (and on the frames themselves):
/// Fixtures/presentations/make_presentations.py, values in expected.json.
@Suite struct PresentationBobTests {
    static let folder = Bundle.module.url(forResource: "Fixtures/presentations", withExtension: nil)!.path

    static func expected() throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/expected.json")))
            as! [String: Any]
    }

    static func number(_ value: Any?) -> Double { Double(value as! String)! }

    static func run(_ file: String, threshold: Double? = nil, out: String = #function) throws
        -> EvalRunner.ScoreOutcome
    {
        try EvalRunner().evaluateScores(
            EvalRunner.ScoreJob(
                scoreFiles: [folder + "/" + file], threshold: threshold, outputFolder: Fixture.folder(out) + "/run"))
    }

    /// per_species.csv rows as species -> (n, apcer).
    static func perSpecies(_ path: String) throws -> [String: (Int, Double)] {
        let table = try CSVTable(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), path: path)
        let s = try table.requireColumn("species"), n = try table.requireColumn("n")
        let a = try table.requireColumn("apcer")
        return Dictionary(
            uniqueKeysWithValues: table.records.map { ($0.fields[s], (Int($0.fields[n])!, Double($0.fields[a])!)) })
    }

    @Test func presentationRatesEqualBobOnPerVideoMeans() throws {
        let expected = try Self.expected()["presentations"] as! [String: Any]
        let outcome = try Self.run("frames_two_species.txt", threshold: 0.25)
        let result = outcome.results[0]
        let headline = try #require(result.reported.headline)
        #expect(result.reported.bonaFideCount == expected["n_bonafide"] as! Int)
        #expect(headline.bpcer.value == Self.number(expected["bpcer"]))
        let apcer = expected["apcer"] as! [String: Any], counts = expected["n_attack"] as! [String: Any]
        for (s, species) in headline.speciesNames.enumerated() {
            #expect(headline.apcer[s].value == Self.number(apcer[species]), "\(species)")
            #expect(headline.apcer[s].total == counts[species] as! Int, "\(species)")
        }
        let rows = try Self.perSpecies(outcome.folder + "/per_species.csv")
        #expect(rows["replay"]!.0 == 7 && rows["replay"]!.1 == Self.number(apcer["replay"]))
    }

    /// Frame-level rows are what padbench counted before presentations: every frame a trial
    /// (bob.measure on the frames, the NaN frame a failure left out).
    @Test func frameRatesEqualBobOnFrames() throws {
        let expected = try Self.expected()["frames"] as! [String: Any]
        let outcome = try Self.run("frames_two_species.txt", threshold: 0.25)
        let rows = try Self.perSpecies(outcome.folder + "/frames/per_species.csv")
        let apcer = expected["apcer"] as! [String: Any], counts = expected["n_attack"] as! [String: Any]
        for species in ["print", "replay"] {
            #expect(rows[species]!.0 == counts[species] as! Int)
            #expect(rows[species]!.1 == Self.number(apcer[species]))
        }
        let summary = try String(contentsOfFile: outcome.folder + "/frames/summary.csv", encoding: .utf8)
        let header = summary.split(separator: "\n")[0].split(separator: ",", omittingEmptySubsequences: false)
        let row = summary.split(separator: "\n")[1].split(separator: ",", omittingEmptySubsequences: false)
        let bpcer = header.firstIndex(of: "bpcer")!, failed = header.firstIndex(of: "n_failed")!
        #expect(Double(row[bpcer])! == Self.number(expected["bpcer"]))
        #expect(row[failed] == "1")
    }

    /// The EER threshold chosen on the per-video means lies in the same gap between scores as
    /// bob.measure's `eer_threshold` there (as GoldenTests compares them), with bob's rates.
    @Test func presentationEERThresholdEqualsBob() throws {
        let expected = try Self.expected()["one_species_eer"] as! [String: Any]
        let outcome = try Self.run("frames_one_species.txt")
        let result = outcome.results[0]
        let threshold = try #require(result.scoreThreshold)
        let curve = try #require(result.scoreMetrics?.curve)
        #expect(curve.pointIndex(for: threshold) == curve.pointIndex(for: Self.number(expected["threshold"])))
        let headline = try #require(result.reported.headline)
        #expect(headline.bpcer.value == Self.number(expected["bpcer"]))
        #expect(headline.apcer[0].value == Self.number(expected["apcer"]))
        #expect(result.reported.attackCount == expected["n_attack"] as! Int)
    }

    /// `--aggregate` is recorded in the manifest; presentation_decisions.csv has one row per video.
    @Test func aggregateIsRecordedAndDecisionsArePerPresentation() throws {
        var job = EvalRunner.ScoreJob(
            scoreFiles: [Self.folder + "/frames_two_species.txt"], threshold: 0.25,
            outputFolder: Fixture.folder() + "/run")
        job.aggregate = .median
        let outcome = try EvalRunner().evaluateScores(job)
        let manifest = try String(contentsOfFile: outcome.folder + "/manifest.json", encoding: .utf8)
        #expect(manifest.contains("\"frame_aggregate\" : \"median\""))
        let decisions = try String(contentsOfFile: outcome.folder + "/presentation_decisions.csv", encoding: .utf8)
        #expect(decisions.split(separator: "\n").count == 1 + 12 + 9 + 7)
        #expect(decisions.contains("\nreal/client00/video00,scores,,bonafide,,ok,"))
    }

    /// compare's paired test pairs presentations: the McNemar counts are videos (12 bona fide, 7
    /// replay), not frames (83, 43): the new run raises every attack frame by 0.6 (threshold fixed
    /// at 0.25), bona fide frames unchanged.
    @Test func compareCountsPresentations() throws {
        let folder = Fixture.folder()
        let raised = folder + "/raised.txt"
        let lines = try String(contentsOfFile: Self.folder + "/frames_two_species.txt", encoding: .utf8)
            .split(separator: "\n").map { line -> String in
                var f = line.split(separator: " ").map(String.init)
                if f[1] == "attack", let s = Double(f[3]) { f[3] = String(s + 0.6) }
                return f.joined(separator: " ")
            }
        try (lines.joined(separator: "\n") + "\n").write(toFile: raised, atomically: true, encoding: .utf8)
        let base = try Self.run("frames_two_species.txt", threshold: 0.25, out: "compareBase").folder
        let new = try EvalRunner().evaluateScores(
            EvalRunner.ScoreJob(scoreFiles: [raised], threshold: 0.25, outputFolder: folder + "/new")
        ).folder
        let comparison = try RunComparison(base: StoredRun(path: base), new: StoredRun(path: new))
        #expect(comparison.paired)
        let replay = try #require(comparison.checks.first { $0.name == "scores apcer[replay]" })
        #expect(replay.test == "mcnemar" && replay.detail.hasPrefix("2/7 -> "))
        let bpcer = try #require(comparison.checks.first { $0.name == "scores bpcer" })
        #expect(bpcer.detail.hasPrefix("1/12 -> 1/12"))
    }

    /// APCER_AP per attack potential level = the highest APCER among the level's species
    /// (ISO/IEC 30107-3:2023): print and replay both level 1 gives replay's 2/7 (bob.measure, see
    /// expected.json), a level of its own each gives each species' APCER.
    @Test func apcerPerAttackPotentialLevel() throws {
        let expected = try Self.expected()["presentations"] as! [String: Any]
        let apcer = expected["apcer"] as! [String: Any]
        for (levels, columns) in [
            (["print": "1", "replay": "1"], ["apcer_ap[1]": Self.number(apcer["replay"])]),
            (
                ["print": "A", "replay": "B"],
                ["apcer_ap[A]": Self.number(apcer["print"]), "apcer_ap[B]": Self.number(apcer["replay"])]
            ),
        ] {
            var job = EvalRunner.ScoreJob(
                scoreFiles: [Self.folder + "/frames_two_species.txt"], threshold: 0.25,
                outputFolder: Fixture.folder() + "/run")
            job.attackPotential = levels
            let outcome = try EvalRunner().evaluateScores(job)
            let path = outcome.folder + "/summary.csv"
            let table = try CSVTable(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), path: path)
            for (column, value) in columns {
                #expect(Double(table.records[0].fields[try table.requireColumn(column)]) == value, "\(column)")
            }
            #expect(table.header.filter { $0.hasPrefix("apcer_ap[") }.count == 2 * columns.count)
            let species = try Self.perSpecies(outcome.folder + "/per_species.csv")
            #expect(species.count == 2)
            let perSpecies = try String(contentsOfFile: outcome.folder + "/per_species.csv", encoding: .utf8)
            #expect(
                perSpecies.hasPrefix(
                    "profile,split,species,n,accepted,apcer,apcer_ci_low,apcer_ci_high,is_max,eer,attack_potential\n"))
        }
    }
}

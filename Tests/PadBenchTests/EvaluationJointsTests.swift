import Foundation
import PadVocabulary
import Testing
@testable import PadArchive
@testable import PadBench
@testable import PadDataset
@testable import PadEvaluation
@testable import PadImage
@testable import PadMetrics
@testable import PadProfiles
@testable import PadReport

/// Where two features meet: curves under other gates, splits in score files, one-class sets,
/// calibration the data cannot resolve, profile isolation, thresholds in the user's polarity.
@Suite struct EvaluationJointsTests {
    static let loader = ProfileLoader(catalogue: EstimatorCatalog.outputs())

    static func scoreRun(
        _ text: String, _ name: String = #function, polarity: ScorePolarity = .bonafideHigh,
        threshold: Double? = nil, criterion: ThresholdCriterion = .eer
    ) throws -> EvalRunner.ScoreOutcome {
        let folder = Fixture.folder(name)
        try text.write(toFile: folder + "/scores.csv", atomically: true, encoding: .utf8)
        return try EvalRunner().evaluateScores(
            .init(
                scoreFiles: [folder + "/scores.csv"], polarity: polarity, threshold: threshold,
                criterion: criterion, outputFolder: folder + "/run"))
    }

    static func summaryRows(_ folder: String) throws -> [[String: String]] {
        let table = try CSVTable(path: folder + "/summary.csv")
        return table.records.map { Dictionary(uniqueKeysWithValues: zip(table.header, $0.fields)) }
    }

    /// A luminance gate plus a sharpness score, by hand. Bona fide sharpness {30, 20, 10} pass the
    /// gate, one more (sharpness 100) is too dark; attacks {25, 15, 5} pass, one (200) is too bright.
    /// Held rejected: APCER over 4 with a ceiling of 3/4, BPCER over 4 with a floor of 1/4.
    /// Points 5, 10, 15, 20, 25, 30, 40: APCER 3/4 2/4 2/4 1/4 1/4 0 0; BPCER 1/4 1/4 2/4 2/4 3/4 3/4 1.
    /// |APCER - BPCER| = 0 only at 15: EER 0.5, threshold between 10 and 15, printed 12. The old
    /// sweep gave rejected samples a score of -inf, a curve row at -inf and the EER there.
    @Test func eerWithAnotherGateHeldFixed() throws {
        var table = MeasurementTable(columns: ["quality.luminance_mean", "quality.sharpness"])
        let rows: [(Label, Double, Double)] = [
            (.bonaFide, 120, 30), (.bonaFide, 120, 20), (.bonaFide, 120, 10), (.bonaFide, 10, 100),
            (.attack(species: "print"), 120, 25), (.attack(species: "print"), 120, 15),
            (.attack(species: "print"), 120, 5), (.attack(species: "print"), 250, 200),
        ]
        for (i, row) in rows.enumerated() {
            table.append(id: "s\(i)", label: row.0, split: .none, status: .ok, values: [row.1, row.2])
        }
        let profile = try Self.loader.load(
            yaml: """
                name: lum-sharp
                source: test
                score: quality.sharpness
                gates:
                  - {output: quality.luminance_mean, op: between, min: 40, max: 220, code: EXPOSURE}
                  - {output: quality.sharpness, op: ge, value: 18, code: BLUR}
                """, file: "p.yaml")
        let result = try ProfileEvaluator(table: table).evaluate([profile])[0]
        let metrics = try #require(result.scoreMetrics)
        #expect(metrics.curve.thresholds == [5, 10, 15, 20, 25, 30, 40])
        // bob's midpoint (10 + 15) / 2 (the shortest decimal 12 before issue 27: same rates here,
        // another threshold on any other set).
        #expect(metrics.eer.threshold == 12.5 && metrics.eer.apcerMax == 0.5 && metrics.eer.bpcer == 0.5)
        let path = Fixture.folder() + "/curves.csv"
        try ReportTables.writeCurves([result], to: path)
        let curves = try CSVTable(path: path)
        #expect(curves.records.map { $0.fields[2] } == ["5", "10", "15", "20", "25", "30", "40"])
        // Blocks of 1 and 2 rows: many batches, formatted while the one before is written, with
        // the two buffer sets taking turns: the same bytes as one block.
        for block in [1, 2, 3] {
            let small = Fixture.folder() + "/curves-\(block).csv"
            try ReportTables.writeCurves([result], into: CSVWriter(path: small), block: block)
            #expect(FileManager.default.contents(atPath: small) == FileManager.default.contents(atPath: path))
        }
        // Headline at the gate threshold 18: bona fide 30, 20 accepted (BPCER 2/4), attack 25 (APCER 1/4).
        #expect(result.headline?.bpcer == Proportion(errors: 2, total: 4))
        #expect(result.headline?.apcerMax == Proportion(errors: 1, total: 4))
    }

    /// A generic file's split column is read: the threshold is chosen on dev and reported on eval,
    /// with both rows in summary.csv (the old reader pooled them into `all`).
    @Test func splitColumnChoosesOnDevAndReportsOnEval() throws {
        var text = "id,label,species,score,split\n"
        // dev: bona fide 0.6..0.9, attacks 0.1..0.4: EER threshold between 0.4 and 0.6 (0.5).
        for i in 0..<4 {
            text += "d\(i),bonafide,,\(0.6 + Double(i) / 10),dev\nda\(i),attack,print,\(0.1 + Double(i) / 10),dev\n"
        }
        // eval: one bona fide below 0.5, one attack above.
        for (i, s) in [0.45, 0.7, 0.8, 0.9].enumerated() { text += "e\(i),bonafide,,\(s),eval\n" }
        for (i, s) in [0.55, 0.2, 0.3, 0.1].enumerated() { text += "ea\(i),attack,print,\(s),test\n" }
        let outcome = try Self.scoreRun(text)
        let rows = try Self.summaryRows(outcome.folder)
        #expect(rows.map { $0["split"]! } == ["eval", "dev"])
        #expect(rows[0]["threshold"] == "0.5" && rows[0]["threshold_source"] == "calibrated eer on dev")
        #expect(rows[0]["bpcer_errors"] == "1" && rows[0]["apcer_max_errors"] == "1")
        #expect(rows[1]["bpcer_errors"] == "0" && rows[1]["apcer_max_errors"] == "0")
    }

    /// Attack-only scores still get APCER per species; BPCER is empty with a note; nothing aborts.
    @Test func attackOnlyScoresKeepAPCERPerSpecies() throws {
        let outcome = try Self.scoreRun(
            "id,label,species,score\na,attack,print,0.7\nb,attack,print,0.2\nc,attack,replay,0.9\n", threshold: 0.5)
        let rows = try Self.summaryRows(outcome.folder)
        #expect(rows[0]["apcer_max"] == "1" && rows[0]["apcer_max_species"] == "replay" && rows[0]["bpcer"] == "")
        #expect(rows[0]["note"]!.contains("no bona fide samples"))
        let species = try CSVTable(path: outcome.folder + "/per_species.csv")
        #expect(species.records.map { [$0.fields[2], $0.fields[4]] } == [["print", "1"], ["replay", "1"]])
        #expect(FileManager.default.fileExists(atPath: outcome.archivePath))
    }

    /// Calibrating APCER <= 1% with 4 attacks of a species cannot mean anything: a warning.
    @Test func calibrationBelowOneOverNWarns() throws {
        var text = "id,label,species,score\n"
        for i in 0..<4 {
            text += "b\(i),bonafide,,\(0.6 + Double(i) / 10)\na\(i),attack,print,\(0.1 + Double(i) / 10)\n"
        }
        let outcome = try Self.scoreRun(text, criterion: .bpcerAtAPCER(0.01))
        let warnings = TerminalTables.warnings(outcome.results)
        #expect(warnings.contains { $0.contains("below 1/n for species print (n = 4") })
        #expect(try Self.summaryRows(outcome.folder)[0]["note"]!.contains("cannot resolve"))
    }

    /// Attack-high files: thresholds are shown in the file's polarity. Negated, bona fide
    /// {-0.1, -0.2} and attacks {-0.8, -0.9}: the EER threshold lies between -0.8 and -0.2 (-0.5),
    /// shown as 0.5 (accepted when score <= 0.5).
    @Test func attackHighThresholdsAreShownAsGiven() throws {
        let outcome = try Self.scoreRun(
            "id,label,species,score\nb1,bonafide,,0.1\nb2,bonafide,,0.2\na1,attack,print,0.8\na2,attack,print,0.9\n",
            polarity: .attackHigh)
        let rows = try Self.summaryRows(outcome.folder)
        #expect(rows[0]["eer_threshold"] == "0.5" && rows[0]["threshold"] == "0.5" && rows[0]["eer"] == "0")
    }

    /// One profile's options do not change what another sees: `basic` next to a profile with
    /// `use_dataset_box` gives exactly the numbers of `basic` alone, and the dataset-box profile
    /// reads its own columns (`...@dataset_box`).
    @Test func profilesWithOptionsAreIsolated() async throws {
        let root = Fixture.folder()
        var manifest = "path,label,species,split,subject,x,y,w,h\n"
        for i in 0..<6 {
            Fixture.write(
                try ImageEncoder.jpeg(Fixture.image(contrast: 45 - i * 5, seed: i), quality: 92), root + "/\(i).jpg")
            manifest += "\(i).jpg,\(i % 2 == 0 ? "bonafide" : "attack"),\(i % 2 == 0 ? "" : "print"),,s\(i),4,4,24,20\n"
        }
        try manifest.write(toFile: root + "/manifest.csv", atomically: true, encoding: .utf8)
        let dataset = try DatasetLoader().load(root)
        let boxed = try Self.loader.load(
            yaml: """
                name: boxed
                source: test
                score: quality.sharpness
                options:
                  face: {use_dataset_box: true}
                gates:
                  - {output: quality.sharpness, op: ge, value: 1}
                """, file: "boxed.yaml")
        let basic = try Self.loader.builtIn("basic")
        let alone = try await BenchRunner().run(
            BenchJob(dataset: dataset, profiles: [basic], outputFolder: root + "/alone", concurrency: 2))
        let both = try await BenchRunner().run(
            BenchJob(dataset: dataset, profiles: [basic, boxed], outputFolder: root + "/both", concurrency: 2))
        #expect(
            both.table.columns.contains("quality.sharpness@dataset_box")
                && both.table.columns.contains("face.source@dataset_box"))
        let a = ReportTables.summary(alone.results).rows[0], b = ReportTables.summary([both.results[0]]).rows[0]
        #expect(a == b, "basic changed when a dataset-box profile ran beside it")
        // The boxed profile measured on the 24 x 20 box, not the whole image: different sharpness.
        let sharp = both.table.column(named: "quality.sharpness")!,
            boxedSharp = both.table.column(named: "quality.sharpness@dataset_box")!
        #expect(sharp != boxedSharp)
        #expect(both.results[1].scoreMetrics?.curve.count ?? 0 > 1)
    }
}

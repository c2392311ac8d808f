import Foundation
import PadArchive
import PadProfiles
import PadVocabulary
import Testing

@testable import PadEvaluation

/// The evaluation layer on its own: a hand-made table decided by one profile, with every count,
/// rate and `decisions.csv` byte worked out by hand (no estimator, no run folder, no report).
@Suite struct ProfileEvaluatorTests {
    /// quality.sharpness >= 10 decides; the `@dataset_box` column belongs to another option set.
    static func table() -> MeasurementTable {
        var table = MeasurementTable(columns: ["quality.sharpness", "quality.sharpness@dataset_box"])
        let rows: [(String, Label, Split, SampleStatus, [Double])] = [
            ("a.jpg", .bonaFide, .eval, .ok, [20, 1]),
            ("b.jpg", .bonaFide, .eval, .ok, [5, 50]),
            ("c.jpg", .attack(species: "print"), .eval, .ok, [30, 2]),
            ("d.jpg", .attack(species: "print"), .eval, .ok, [.nan, 3]),
            ("e.jpg", .attack(species: "replay"), .eval, .failed(code: .decodeError, message: "bad"), [.nan, .nan]),
            ("f.jpg", .bonaFide, .dev, .ok, [1, 1]),
        ]
        for (id, label, split, status, values) in rows {
            table.append(id: id, label: label, split: split, status: status, values: values)
        }
        return table
    }

    static func profile() throws -> Profile {
        try ProfileLoader().load(
            yaml: """
                name: sharp
                source: test
                gates:
                  - {output: quality.sharpness, op: ge, value: 10, code: BLURRED, message: blurred}
                """, file: "sharp.yaml")
    }

    @Test func decidesCountsAndReasonsOnTheReportedSplit() throws {
        let evaluator = ProfileEvaluator(table: Self.table())
        let profile = try Self.profile()
        #expect(evaluator.reportSplit == .eval)
        // The plain profile sees the plain column only; the option set's twin is hidden (nil).
        #expect(evaluator.columnNames(for: profile) == ["quality.sharpness", nil])

        let result = try #require(try evaluator.evaluate([profile]).first)
        // eval: a accepted, b rejected (5 < 10), c accepted, d rejected (NaN: not assessable),
        // e failed (counted, never decided); f is dev and not in the reported set.
        #expect(result.reported.split == "eval")
        #expect(result.reported.bonaFideCount == 2 && result.reported.attackCount == 3)
        #expect(result.reported.failedCount == 1)
        let headline = try #require(result.reported.headline)
        #expect(headline.bpcer.value == 0.5)
        #expect(headline.speciesNames == ["print", "replay"])
        #expect(headline.apcer[0].value == 0.5)
        let reasons = result.reported.rejectReasons.map {
            "\($0.label)/\($0.species)/\($0.code)/\($0.count)/\($0.fraction)"
        }
        #expect(reasons == ["attack/print/BLURRED (not assessable)/1/0.5", "bonafide//BLURRED/1/0.5"])
    }

    @Test func writesOneDecisionRowPerSampleOfEverySplit() throws {
        let path = FileManager.default.temporaryDirectory.path + "/padevaluation-\(UUID().uuidString).csv"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try CSVWriter(path: path)
        _ = try ProfileEvaluator(table: Self.table()).evaluate([try Self.profile()], decisions: writer)
        try writer.close()
        let expected = """
            id,profile,split,label,species,status,accepted,code,message
            a.jpg,sharp,eval,bonafide,,ok,1,,
            b.jpg,sharp,eval,bonafide,,ok,0,BLURRED,blurred
            c.jpg,sharp,eval,attack,print,ok,1,,
            d.jpg,sharp,eval,attack,print,ok,0,BLURRED (not assessable),blurred
            e.jpg,sharp,eval,attack,replay,decode_error,,,
            f.jpg,sharp,dev,bonafide,,ok,0,BLURRED,blurred

            """
        #expect(try String(contentsOfFile: path, encoding: .utf8) == expected)
    }

    /// issue 27 sanity warnings (none existed on main at ea3c17e): an inverted swept score (AUC <
    /// 0.5), failures to process above 5% of a class, an eval species dev never saw, a threshold
    /// calibrated on the train split, and a constant swept score. By hand: eval bona fide {0.1,
    /// 0.2, 0.3} plus one failed (1/4 = 25%), attacks print {0.8, 0.9} and mask {0.7}: every bona
    /// fide below every attack, AUC 0.
    @Test func sanityWarningsNameWhatLooksWrong() throws {
        var table = MeasurementTable(columns: ["x"])
        let rows: [(String, Label, Split, SampleStatus, Double)] = [
            ("d1", .bonaFide, .train, .ok, 0.2), ("d2", .bonaFide, .train, .ok, 0.3),
            ("d3", .attack(species: "print"), .train, .ok, 0.9), ("d4", .attack(species: "print"), .train, .ok, 0.6),
            ("e1", .bonaFide, .eval, .ok, 0.1), ("e2", .bonaFide, .eval, .ok, 0.2), ("e3", .bonaFide, .eval, .ok, 0.3),
            ("e4", .bonaFide, .eval, .failed(code: .decodeError, message: "bad"), .nan),
            ("e5", .attack(species: "print"), .eval, .ok, 0.8), ("e6", .attack(species: "print"), .eval, .ok, 0.9),
            ("e7", .attack(species: "mask"), .eval, .ok, 0.7),
        ]
        for (id, label, split, status, value) in rows {
            table.append(id: id, label: label, split: split, status: status, values: [value])
        }
        let profile = try ProfileLoader().load(
            yaml: """
                name: x
                source: test
                score: x
                gates:
                  - {output: x, calibrate: {criterion: eer, on: train}, code: X, message: low}
                """, file: "x.yaml")
        let checks = try #require(try ProfileEvaluator(table: table).evaluate([profile]).first).notes
            .filter(\.isCheck)
        #expect(
            checks == [
                .check(.invertedScore(score: "x", split: "eval", auc: 0)),
                .check(.failureShare(className: "bona fide", rate: 0.25, errors: 1, total: 4, split: "eval")),
                .check(.unseenSpecies(split: "eval", calibrationSplit: "train", species: ["mask"])),
                .check(.calibratedOnTrainSplit(output: "x")),
            ])
        // The sentences summary.csv stores.
        let notes = checks.map(\.text)
        #expect(notes.contains { $0.contains("swept score x has AUC 0 < 0.5 on eval: scores look attack-high") })
        #expect(notes.contains { $0.contains("25.0% of bona fide (1/4) failed to process on eval (over 5%)") })
        #expect(notes.contains { $0.contains("species on eval never seen on train: mask") })
        #expect(notes.contains { $0.contains("gate on x calibrated on the train split") })

        // The calibration split is checked too: one of its 3 attacks failed (33%), so the threshold
        // was chosen on the attacks that could be processed; flagged on train like eval's.
        var failedDev = table
        failedDev.append(
            id: "d5", label: .attack(species: "print"), split: .train,
            status: .failed(code: .decodeError, message: "x"),
            values: [.nan])
        let devChecks = try #require(try ProfileEvaluator(table: failedDev).evaluate([profile]).first).notes
        #expect(
            devChecks.contains(
                .check(.failureShare(className: "attacks", rate: 1.0 / 3, errors: 1, total: 3, split: "train"))))

        var constant = MeasurementTable(columns: ["x"])
        constant.append(id: "a", label: .bonaFide, split: .none, status: .ok, values: [1])
        constant.append(id: "b", label: .attack(species: "print"), split: .none, status: .ok, values: [1])
        let fixed = try ProfileLoader().load(
            yaml: "name: c\nsource: test\nscore: x\ngates:\n  - {output: x, op: ge, value: 2, code: X, message: low}\n",
            file: "c.yaml")
        let constantNotes = try #require(try ProfileEvaluator(table: constant).evaluate([fixed]).first).notes
        #expect(constantNotes == [.check(.constantScore(score: "x", split: "all", value: 1))])
        #expect(
            constantNotes.map(\.text) == [
                "check: swept score x is constant on all (one value, 1): no threshold separates anything"
            ])
    }

    /// A calibrated `op: le` gate (a lower-is-bona-fide output) is calibrated on the output negated
    /// and accepts value <= t; thresholds are shown in the output's units. By hand: dev bona fide
    /// {0.1, 0.2}, attacks {0.8, 0.9}: EER 0 at bob's midpoint of the negated scores (-0.8 + -0.2) / 2
    /// = -0.5, shown as 0.5; eval bona fide 0.45 (accepted), attack 0.55 (rejected). main at ea3c17e
    /// refused `op` on a calibrated gate.
    @Test func calibratedLowerIsBonaFideGate() throws {
        var table = MeasurementTable(columns: ["x"])
        let rows: [(String, Label, Split, Double)] = [
            ("d1", .bonaFide, .dev, 0.1), ("d2", .bonaFide, .dev, 0.2), ("d3", .attack(species: "print"), .dev, 0.8),
            ("d4", .attack(species: "print"), .dev, 0.9), ("e1", .bonaFide, .eval, 0.45),
            ("e2", .attack(species: "print"), .eval, 0.55),
        ]
        for (id, label, split, value) in rows {
            table.append(id: id, label: label, split: split, status: .ok, values: [value])
        }
        let profile = try ProfileLoader().load(
            yaml: """
                name: low
                source: test
                score: x
                gates:
                  - {output: x, op: le, calibrate: {criterion: eer, on: dev}, code: X, message: high}
                """, file: "low.yaml")
        #expect(profile.gates[0].comparison == .le && profile.sweepsScoreNegated)
        let r = try #require(try ProfileEvaluator(table: table).evaluate([profile]).first)
        #expect(r.thresholdSign == -1 && r.calibrations[0].threshold == -0.5)
        #expect(r.scoreThreshold.map(r.shownThreshold) == 0.5)
        #expect(r.headline?.bpcer.errors == 0 && r.headline?.apcerMax.errors == 0)
        #expect(r.calibrationSet?.scoreMetrics?.eer.value == 0)
        #expect(throws: (any Error).self) {
            try ProfileLoader().load(
                yaml:
                    "name: l\nsource: t\ngates:\n  - {output: x, op: gt, calibrate: {criterion: eer}, code: X, message: m}\n",
                file: "l.yaml")
        }
    }
}

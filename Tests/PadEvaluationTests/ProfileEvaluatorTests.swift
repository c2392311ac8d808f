import Foundation
import PadArchive
import PadDataset
import PadProfiles
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
            ("e.jpg", .attack(species: "replay"), .eval, .failed(code: "decode_error", message: "bad"), [.nan, .nan]),
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
        // The plain profile sees the plain column only; the option set's twin is hidden ("").
        #expect(evaluator.columnNames(for: profile) == ["quality.sharpness", ""])

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
}

import Foundation
import Testing
@testable import PadArchive
@testable import PadEvaluation
@testable import PadProfiles
@testable import PadReport
@testable import PadVocabulary
import TestSupport

/// The run's analyses take each profile's decided units from the decisions it has just made
/// (``DecisionCodes``), no longer from `decisions.csv` read back; a stored run's verification still
/// reads the file. Both must give the same units.
@Suite struct DecidedUnitsTests {
    /// 40 samples over eval and dev, bona fide and two species, four failures, a gate on a score
    /// (some NaN) and one on a quality output.
    static func table() -> MeasurementTable {
        var table = MeasurementTable(columns: ["pad.score", "quality.sharpness"])
        for i in 0..<40 {
            let label: Label = i % 3 == 0 ? .bonaFide : .attack(species: i % 3 == 1 ? "print" : "replay")
            let status: SampleStatus = i % 11 == 5 ? .failed(code: .decodeError, message: "bad") : .ok
            let score = i % 7 == 3 ? Double.nan : Double((i * 37) % 23) / 23
            table.append(
                id: "s\(i).jpg", label: label, split: i < 28 ? .eval : .dev, status: status,
                values: [score, Double(i % 5) * 10])
        }
        return table
    }

    static let profile = Profile(
        name: "pad", description: "", source: "test", score: "pad.score",
        gates: [
            Gate(
                output: "quality.sharpness", comparison: .ge, threshold: 15, code: "BLUR", message: "blurred", line: 1),
            Gate(output: "pad.score", comparison: .ge, threshold: 0.4, code: "PAD", message: "attack", line: 2),
        ])

    @Test func unitsFromTheRunsDecisionsEqualThoseReadFromDecisionsCSV() throws {
        let table = Self.table()
        let folder = TestFolder.root + "/decided-units-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let writer = try CSVWriter(path: folder + "/decisions.csv")
        let result = try ProfileEvaluator(table: table).evaluate([Self.profile], decisions: writer)[0]
        try writer.close()
        let units = try AnalysisUnits(table, aggregate: .mean)
        let decisions = try #require(result.decisions)
        let made = try DecidedUnits(result, decisions: decisions, units: units)
        let empty = DecidedUnits(
            profile: "pad", split: result.split, speciesNames: result.headline!.speciesNames, score: "pad.score")
        let read = try DecidedUnits.read(
            Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/decisions.csv"))), path: "decisions.csv",
            into: [empty], rowOf: units.rowOf)[0]
        #expect(made.rows == read.rows && made.species == read.species && made.accepted == read.accepted)
        // By hand: the eval split (rows 0-27) less its failures (rows 5, 16 and 27): 25 units, in order.
        #expect(made.rows == (0..<28).filter { $0 % 11 != 5 }.map(Int32.init))
        // Row 0: bona fide, sharpness 0 < 15: rejected; row 1: print, sharpness 10: rejected;
        // row 2: replay, sharpness 20, score (74 % 23) / 23 = 5/23 < 0.4: rejected; row 8: replay,
        // sharpness 30, score (296 % 23) / 23 = 20/23: accepted.
        #expect(made.accepted[0] == false && made.accepted[1] == false && made.accepted[2] == false)
        #expect(made.accepted[made.rows.firstIndex(of: 8)!] == true)
        #expect(made.species[0] == -1 && made.species[1] == 0 && made.species[2] == 1)
    }

    @Test func decisionCodesRoundTripEveryDecision() {
        let given: [Decision?] = [
            .accepted, Decision(failedGate: 0), Decision(failedGate: 0, valueWasNaN: true), nil,
            Decision(failedGate: 7, valueWasNaN: false), Decision(failedGate: 7, valueWasNaN: true),
        ]
        let codes = DecisionCodes(given)
        #expect(codes.codes == [0, 1, 2, DecisionCodes.failed, 15, 16])
        #expect((0..<given.count).map { codes.decision($0) } == given)
        #expect((0..<given.count).map { codes.accepted($0) } == [true, false, false, nil, false, false])
    }

    /// Deciles are counted from a byte per unit (no index list per band): every unit is counted
    /// once, in the band of its quality.
    @Test func errorDiscardAnalysesKeepNoMembersPerDecile() {
        let quality = (0..<100).map { Double($0 % 17) }
        let analysis = ErrorDiscardReport.Analysis(
            profile: "p", split: "eval", output: "quality.x", quality: quality,
            species: (0..<100).map { $0 % 2 == 0 ? -1 : 0 }, accepted: (0..<100).map { $0 % 3 == 0 },
            speciesCount: 1)
        #expect(!analysis.deciles.isEmpty)
        // The bands still count every unit: 50 bona fide and 50 attacks over the deciles.
        #expect(analysis.deciles.map(\.bpcer.total).reduce(0, +) == 50)
        #expect(analysis.deciles.map(\.apcerMax.total).reduce(0, +) == 50)
    }
}

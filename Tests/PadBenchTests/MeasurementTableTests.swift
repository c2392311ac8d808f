import Foundation
import Testing
@testable import PadBench
@testable import PadDataset
@testable import PadEvaluation
import PadProfiles

/// The compact table of a bench run: only the columns the profiles read stay in memory, the
/// others go to spill files; every value and the outputs fingerprint stay what a full table gives.
@Suite struct MeasurementTableTests {
    static let columns = ["face.count", "quality.sharpness", "quality.blur", "quality.sharpness@dataset_box"]
    static let rows: [(id: String, label: Label, split: Split, status: SampleStatus, values: [Double])] = [
        ("a.jpg", .bonaFide, .eval, .ok, [1, 412.5, 0.25, 400]),
        ("b.jpg", .attack(species: "print"), .dev, .ok, [0, .nan, 0.5, -1.5]),
        (
            "c.jpg", .attack(species: "replay"), .eval, .failed(code: "decode_error", message: "bad"),
            [.nan, .nan, .nan, .nan]
        ),
        ("d,e.jpg", .bonaFide, .train, .ok, [2, 1e-7, .infinity, 3]),
    ]

    static func fill(_ table: inout MeasurementTable) {
        for row in rows {
            table.append(id: row.id, label: row.label, split: row.split, status: row.status, values: row.values)
        }
    }

    @Test func spilledColumnsReadBackTheSameValuesAndFingerprint() throws {
        var full = MeasurementTable(columns: Self.columns)
        Self.fill(&full)
        var compact = try BenchRunner.table(columns: Self.columns, profiles: [try Self.profile()])
        Self.fill(&compact)
        // basic reads quality.sharpness (gate and score): it and its option-set twin stay in memory.
        #expect((0..<4).map(compact.isInMemory) == [false, true, false, true])
        #expect(compact.values[0].isEmpty && compact.values[2].isEmpty)
        #expect(compact.values[1].count == 4)
        for c in Self.columns.indices {
            let expected = full.values[c].map(\.bitPattern), got = try compact.column(c).map(\.bitPattern)
            #expect(got == expected, "column \(Self.columns[c])")
        }
        #expect(compact.column(named: "quality.blur")!.map(\.bitPattern) == full.values[2].map(\.bitPattern))
        #expect(compact.outputsHashSum != nil && full.outputsHashSum == nil)
        #expect(DatasetFingerprint.outputs(compact) == DatasetFingerprint.outputs(full))
        #expect(try RunStatistics.outputSeparation(compact) == RunStatistics.outputSeparation(full))
    }

    static func profile() throws -> PadProfiles.Profile {
        try ProfileLoader().load(
            yaml: """
                name: sharp
                description: sharpness only
                source: test
                score: quality.sharpness
                gates:
                  - {output: quality.sharpness, op: ge, value: 15, code: BLURRED, message: blurred}
                """, file: "sharp.yaml")
    }
}

import Foundation
import PadVocabulary
import Testing
@testable import PadBench
@testable import PadSamples
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
            "c.jpg", .attack(species: "replay"), .eval, .failed(code: .decodeError, message: "bad"),
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
        var compact = try BenchRunner.table(
            keys: Self.columns.map(ColumnKey.init(header:)), profiles: [try Self.profile()], scratch: Fixture.folder())
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

    /// bench: the table's ids, species, splits and subjects are the sample list's own arrays (the
    /// same bytes in memory, not a copy); only statuses and values are appended. Every value,
    /// label and fingerprint equals a table built row by row.
    @Test func aBenchTableSharesTheSampleColumns() throws {
        var samples = SampleList(root: "data")
        for (k, row) in Self.rows.enumerated() {
            samples.append(
                Sample(id: row.id, path: "data/" + row.id, label: row.label, split: row.split, subject: "s\(k % 2)"))
        }
        var shared = try BenchRunner.table(
            keys: Self.columns.map(ColumnKey.init(header:)), profiles: [try Self.profile()], samples: samples,
            scratch: Fixture.folder())
        shared.reserveCapacity(samples.count)
        var copied = MeasurementTable(columns: Self.columns)
        for (k, row) in Self.rows.enumerated() {
            #expect(shared.count == k)
            shared.append(status: row.status, values: row.values)
            copied.append(
                id: row.id, label: row.label, split: row.split, status: row.status, values: row.values,
                subject: "s\(k % 2)")
        }
        func address(_ column: StringColumn) -> UnsafePointer<UInt8>? { column.withUTF8(0) { $0.baseAddress } }
        #expect(address(shared.ids) == address(samples.idColumn))
        #expect(
            shared.speciesIndex.withUnsafeBufferPointer(\.baseAddress)
                == samples.speciesCodes.withUnsafeBufferPointer(\.baseAddress))
        #expect(
            shared.splits.withUnsafeBufferPointer(\.baseAddress)
                == samples.splits.withUnsafeBufferPointer(\.baseAddress))
        #expect(shared.count == 4 && Array(shared.ids) == Array(copied.ids))
        #expect(Array(shared.labels) == Array(copied.labels) && shared.speciesNames == ["print", "replay"])
        #expect(shared.splits == copied.splits && Array(shared.subjects) == ["s0", "s1", "s0", "s1"])
        #expect(shared.statuses.map(\.field) == ["ok", "ok", "decode_error", "ok"] && shared.failedCount == 1)
        #expect(try shared.column(1).map(\.bitPattern) == copied.values[1].map(\.bitPattern))
        #expect(DatasetFingerprint.of(shared) == DatasetFingerprint.of(copied))
        #expect(DatasetFingerprint.outputs(shared) == DatasetFingerprint.outputs(copied))
    }

    /// `outputs.csv` reads only the reported samples of a column: a spilled column is read block
    /// by block (8192 values) and the chosen values are those of the whole column, across blocks.
    @Test func spilledColumnsReadOnlyTheChosenRows() throws {
        var table = try BenchRunner.table(
            keys: ["face.count", "quality.sharpness"].map(ColumnKey.init(header:)), profiles: [try Self.profile()],
            scratch: Fixture.folder())
        for i in 0..<20_000 {
            table.append(id: "\(i).jpg", label: .bonaFide, split: .eval, status: .ok, values: [Double(i) * 0.5, -1])
        }
        #expect(!table.isInMemory(0) && table.isInMemory(1))
        let rows: [Int32] = [0, 1, 8191, 8192, 8193, 16_383, 16_384, 19_999]
        #expect(try table.column(0, rows: rows) == [0, 0.5, 4095.5, 4096, 4096.5, 8191.5, 8192, 9999.5])
        #expect(try table.column(1, rows: [3, 19_999]) == [-1, -1])
        #expect(try table.column(0, rows: []) == [])
    }

    /// 1,500 spilled outputs (an external model's, an import's) are written through one
    /// descriptor, not one per column (before: 1,500 files held open, so `ulimit -n 1024` failed),
    /// into the scratch folder given (the run's work folder, not /tmp); reordering and reading back
    /// across blocks give every value.
    @Test func fifteenHundredSpilledColumnsUseOneDescriptorInTheWorkFolder() throws {
        let scratch = Fixture.folder() + "/run.partial/.scratch"
        // Descriptors open on files of this table's scratch folder (other tests run in parallel in
        // this process, so the process's total is no measure).
        func openDescriptors() -> Int {
            let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
            return fds.filter {
                ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)) ?? "")
                    .contains(scratch)
            }.count
        }
        let columns = ["quality.sharpness"] + (0..<1500).map { "mine.o\($0)" }
        let before = openDescriptors()
        var table = try BenchRunner.table(
            keys: columns.map(ColumnKey.init(header:)), profiles: [try Self.profile()], scratch: scratch)
        let rows = 3000
        for i in 0..<rows {
            let values = [Double(i)] + (0..<1500).map { Double(i * 10_000 + $0) }
            table.append(id: "\(i).jpg", label: .bonaFide, split: .eval, status: .ok, values: values)
        }
        #expect(openDescriptors() - before <= 2)
        let folders = try FileManager.default.contentsOfDirectory(atPath: scratch)
        #expect(folders.count == 1 && folders[0].hasPrefix("columns-"))
        try table.reorder((0..<rows).reversed())
        #expect(try table.column(1500) == (0..<rows).reversed().map { Double($0 * 10_000 + 1499) })
        #expect(try table.column(7, rows: [0, 2999]) == [Double(2999 * 10_000 + 6), 6])
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

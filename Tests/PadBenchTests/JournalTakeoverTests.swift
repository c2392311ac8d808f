import Foundation
import Testing
@testable import PadBench
@testable import PadEvaluation
@testable import PadText

/// Resume reads the journal in chunks and batches (``JournalTakeover``): what it takes over must
/// not depend on where a batch ends, a torn last row is cut off the file, and a row that is not
/// the dataset's next sample is refused in whichever batch it falls.
@Suite struct JournalTakeoverTests {
    /// The journal's rows as taken over with batches of `batchRows`: each row's status and values.
    static func takeOver(_ path: String, _ job: BenchJob, batchRows: Int, scratch: String) throws -> (
        count: Int, rows: [String]
    ) {
        let prepared = try BenchRunner().prepare(job)
        var table = try BenchRunner.table(
            keys: prepared.measurer.keys, profiles: job.profiles, samples: prepared.samples, scratch: scratch)
        var timing = BenchRunner.StepTiming(
            steps: prepared.measurer.estimators.count, cpuTimed: prepared.measurer.cpuTimed)
        let count = try JournalTakeover.takeOver(
            path, schema: prepared.schema, samples: prepared.samples, into: &table, timing: &timing,
            batchRows: batchRows)
        let rows = try (0..<table.count).map { i in
            "\(table.statuses[i].field) " + (try table.columns.indices.map { try table.column($0)[i] }).description
        }
        return (count, rows)
    }

    @Test func batchesOfTwoTakeOverWhatOneBatchDoesAndCutTheTornRow() async throws {
        let (root, data, _, journal) = try await RunFolderTests.wholeRunAndItsJournal()
        // Nine whole rows (a header and eight samples) and a torn tenth.
        let whole = journal[0...8].joined(separator: "\n") + "\n"
        let job = try RunFolderTests.job(data, root + "/unused")
        var taken: [[String]] = []
        for batch in [2, 3, 4096] {
            let path = root + "/journal-\(batch).csv"
            try (whole + journal[9].prefix(15)).write(toFile: path, atomically: true, encoding: .utf8)
            let (count, rows) = try Self.takeOver(path, job, batchRows: batch, scratch: root + "/scratch-\(batch)")
            #expect(count == 8)
            taken.append(rows)
            #expect(try String(contentsOfFile: path, encoding: .utf8) == whole, "the torn row is cut off")
        }
        #expect(taken[0] == taken[2] && taken[1] == taken[2])
        #expect(taken[2].count == 8)
    }

    @Test func aForeignRowInALaterBatchIsRefused() async throws {
        let (root, data, _, journal) = try await RunFolderTests.wholeRunAndItsJournal()
        // Rows 1-4 in order, then sample 6 where sample 5 belongs: the third batch of two.
        let rows = [journal[0]] + journal[1...4] + [journal[6]]
        let path = root + "/foreign.csv"
        try (rows.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let job = try RunFolderTests.job(data, root + "/unused")
        #expect {
            _ = try Self.takeOver(path, job, batchRows: 2, scratch: root + "/scratch")
        } throws: { error in
            "\(error)".contains("not this dataset's first samples in order")
        }
    }
}

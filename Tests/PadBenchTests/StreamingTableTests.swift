import Foundation
import PadVocabulary
import Testing
@testable import PadArchive
@testable import PadBench
@testable import PadEvaluation
import PadText

/// The pieces that keep a million rows flat: statuses and subjects as codes, a table reordered
/// column by column (merge), and `samples.csv` read record by record as it decompresses.
@Suite struct StreamingTableTests {
    typealias Rows = MeasurementTableTests

    @Test func statusesKeepCodesAndMessages() {
        let statuses: [SampleStatus] = [
            .ok, .failed(code: .decodeError, message: "bad"), .ok, .failed(code: .missingFile, message: ""),
            .failed(code: .timeout, message: ""),
        ]
        let column = StatusColumn(statuses)
        #expect(Array(column) == statuses)
        #expect(column.failedCount == 3)
        #expect(Array(column.reordered([4, 3, 2, 1, 0])) == statuses.reversed())
    }

    /// A score file's statuses appended in bulk (`ok`, or `no_score` where the score is NaN)
    /// equal those appended one by one, after rows already there, messages and counts included.
    @Test func statusesOfScoresInBulkEqualOneByOne() {
        let failure = SampleStatus.failed(code: .noScore, message: "no score in the file")
        let before: [SampleStatus] = [.failed(code: .decodeError, message: "bad"), .ok]
        for scores in [[], [0.5], [.nan], [0.5, .nan, -.infinity, .nan, 0, .infinity, .nan]] as [[Double]] {
            var bulk = StatusColumn(before), single = StatusColumn(before)
            bulk.append(okUnlessNaN: scores, failure: failure)
            for score in scores { single.append(score.isNaN ? failure : .ok) }
            #expect(Array(bulk) == Array(single) && bulk.failedCount == single.failedCount, "\(scores)")
            #expect(bulk.failedCount == 1 + scores.filter(\.isNaN).count)
        }
    }

    /// Reordering (what merge does to the shards' rows) equals appending the rows in the new
    /// order: ids, labels, species numbering, statuses, subjects, kept and spilled columns.
    @Test func reorderEqualsAppendingInTheNewOrder() throws {
        let subjects = ["p1", "", "p2", "p1"]
        let order = [2, 0, 3, 1]
        var reordered = try BenchRunner.table(
            keys: Rows.columns.map(ColumnKey.init(header:)), profiles: [try Rows.profile()], scratch: Fixture.folder())
        var expected = MeasurementTable(columns: Rows.columns)
        for (row, subject) in zip(Rows.rows, subjects) {
            reordered.append(
                id: row.id, label: row.label, split: row.split, status: row.status, values: row.values, subject: subject
            )
        }
        for i in order {
            let row = Rows.rows[i]
            expected.append(
                id: row.id, label: row.label, split: row.split, status: row.status, values: row.values,
                subject: subjects[i])
        }
        try reordered.reorder(order)
        #expect(Array(reordered.ids) == Array(expected.ids))
        #expect(Array(reordered.labels) == Array(expected.labels))
        #expect(reordered.speciesNames == ["replay", "print"] && reordered.speciesIndex == expected.speciesIndex)
        #expect(Array(reordered.statuses) == Array(expected.statuses) && reordered.splits == expected.splits)
        #expect((0..<4).map(reordered.subject) == ["p2", "p1", "p1", ""])
        for c in Rows.columns.indices {
            #expect(try reordered.column(c).map(\.bitPattern) == expected.values[c].map(\.bitPattern))
        }
        #expect(DatasetFingerprint.outputs(reordered) == DatasetFingerprint.outputs(expected))
    }

    /// Fed in chunks of any size, the stream gives the records, lines and byte ranges of reading
    /// the whole text at once (quoted commas and line breaks, CRLF, blank lines, no final newline).
    @Test func recordStreamMatchesWholeFileParsing() throws {
        let text = "id,error\r\na,\"x, \"\"y\"\"\"\r\n\r\nb,\"two\nlines\"\nc,\"\"\n\nd,last"
        let bytes = Array(text.utf8)
        let whole = try CSVReader.parse(bytes)
        for size in [1, 2, 3, 7, bytes.count] {
            var stream = CSVRecordStream(path: "t.csv")
            var got: [CSVRecordStream.Record] = []
            for start in stride(from: 0, to: bytes.count, by: size) {
                try bytes[start..<min(start + size, bytes.count)].withUnsafeBytes { chunk in
                    try stream.feed(chunk) { got.append($0) }
                }
            }
            try stream.finish { got.append($0) }
            #expect(got.map(\.fields) == whole.map(\.fields), "chunks of \(size)")
            #expect(got.map(\.line) == [1, 2, 4, 6, 8], "chunks of \(size)")
            // Each record's bytes, cut out of the text, parse to the record again.
            for record in got {
                let cut = Array(bytes[record.offset..<(record.offset + record.length)])
                #expect(try CSVReader.parse(cut).first?.fields == record.fields)
            }
        }
        var broken = CSVRecordStream(path: "t.csv")
        #expect(throws: ArchiveError.csv(path: "t.csv", line: 2, message: "unterminated quoted field")) {
            try Array("id\n\"open\n".utf8).withUnsafeBytes { try broken.feed($0) { _ in } }
            try broken.finish { _ in }
        }
    }
}

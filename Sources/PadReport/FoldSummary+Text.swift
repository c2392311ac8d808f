import PadArchive
import PadText

extension FoldSummary {
    /// One metric of one profile as `folds --json` prints it: the statistics (fractions; std, min
    /// and max absent when undefined) and each fold's value, with errors and total for a rate of
    /// counts.
    struct JSONRow: Encodable {
        var profile: String, metric: String, folds: Int
        var mean: Double?, std: Double?, min: Double?, max: Double?
        /// Each fold's value, with errors and total for a rate of counts.
        var values: [JSONFoldValue]
    }

    struct JSONFoldValue: Encodable {
        var value: Double
        var errors: Int?, total: Int?
    }

    /// `folds --json`: every statistic, numbers as numbers (``JSONCoding``).
    package func json() throws -> String {
        let rows = statistics.map { s in
            JSONRow(
                profile: s.profile, metric: s.metric, folds: s.folds.count, mean: s.mean,
                std: s.std.isNaN ? nil : s.std, min: s.min.value, max: s.max.value,
                values: s.folds.map { JSONFoldValue(value: $0.value, errors: $0.errors, total: $0.total) })
        }
        let encoder = JSONCoding.encoder()
        return String(decoding: try encoder.encode(rows), as: UTF8.self)
    }

    /// The terminal's table: rates as percent for people (folds.csv keeps fractions), std in
    /// percentage points, min and max with the counts of the fold they come from.
    package var terminalTable: TextTable { TextTable(header: Self.header, rows: statistics.map(\.terminalRow)) }

    /// `folds.csv`: ``rows`` under ``header``, fractions with every digit.
    package var csv: [UInt8] { CSVWriter.encode(header: Self.header, rows: rows) }
}

import PadText

/// The columns of `decisions.csv` and `presentation_decisions.csv`: one row per sample (or
/// presentation) and profile, the profile's decision on it. Every writer takes the header from
/// here and every reader resolves its columns here (``Columns``) and reads typed rows
/// (``forEachRow(_:path:_:)``), as `samples.csv` has ``SamplesSchema``.
///
/// - `id`, `profile`, `split` (`train`, `dev`, `eval` or empty), `label` (`bonafide`, `attack`),
///   `species` (empty for bona fide);
/// - `status`: the sample's measurement status (`ok` or its failure code, whatever the profile);
/// - `accepted`: `1` or `0`, empty for a failed sample or a profile that could not be calibrated;
/// - `code` and `message`: why it was rejected (the first failing gate's), or `NOT_CALIBRATED`.
package enum DecisionsSchema {
    package enum Column: Int, CaseIterable, Sendable {
        case id, profile, split, label, species, status, accepted, code, message

        package var name: String {
            switch self {
            case .id: "id"
            case .profile: "profile"
            case .split: "split"
            case .label: "label"
            case .species: "species"
            case .status: "status"
            case .accepted: "accepted"
            case .code: "code"
            case .message: "message"
            }
        }
    }

    /// The header every writer writes.
    package static let header = Column.allCases.map(\.name)

    /// The code of a row whose profile could not be calibrated (no decision, `accepted` empty).
    package static let notCalibratedCode = "NOT_CALIBRATED"

    /// The column positions of a file's header; a header without one of the columns is refused
    /// (`problem` gives the message, so each reader throws its own error type).
    package struct Columns: Sendable {
        let positions: [Int]
        /// The largest position: a row needs more fields than this.
        package let last: Int

        package init(header: [String], problem: (String) -> any Error) throws {
            var positions: [Int] = []
            for column in Column.allCases {
                guard let index = header.firstIndex(of: column.name) else {
                    throw problem("no '\(column.name)' column")
                }
                positions.append(index)
            }
            self.positions = positions
            last = positions.max()!
        }

        package subscript(_ column: Column) -> Int { positions[column.rawValue] }
    }

    /// One row, typed.
    package struct Row: Sendable {
        package var line: Int
        package var id: String
        package var profile: String
        package var split: String
        package var isBonaFide: Bool
        /// Empty for bona fide.
        package var species: String
        package var status: String
        /// nil for a failed sample or an uncalibrated profile (the field is empty).
        package var accepted: Bool?
        package var code: String
    }

    /// Calls `body` with every row of a decisions file's bytes (read from `path`, named in errors),
    /// after checking its header. A row with too few fields, or a label or `accepted` no writer
    /// writes, is refused naming its line.
    package static func forEachRow(_ bytes: [UInt8], path: String, _ body: (Row) throws -> Void) throws {
        var columns: Columns?
        var failure: (any Error)?
        try CSVReader.forEachRecord(bytes) { record in
            guard failure == nil else { return }
            do {
                guard let c = columns else {
                    columns = try Columns(header: record.fields) { EvaluationError("\(path): \($0)") }
                    return
                }
                let f = record.fields
                let at = "\(path):\(record.line)"
                guard f.count > c.last else { throw EvaluationError("\(at): \(f.count) fields, the header has more") }
                let label = f[c[.label]]
                guard label == "bonafide" || label == "attack" else {
                    throw EvaluationError("\(at): label '\(TextBytes.quote(label))' (bonafide or attack)")
                }
                let accepted: Bool?
                switch f[c[.accepted]] {
                case "1": accepted = true
                case "0": accepted = false
                case "": accepted = nil
                default: throw EvaluationError("\(at): accepted '\(TextBytes.quote(f[c[.accepted]]))' (1, 0 or empty)")
                }
                try body(
                    Row(
                        line: record.line, id: f[c[.id]], profile: f[c[.profile]], split: f[c[.split]],
                        isBonaFide: label == "bonafide", species: label == "bonafide" ? "" : f[c[.species]],
                        status: f[c[.status]], accepted: accepted, code: f[c[.code]]))
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }
}

import PadText

/// A face comparator's scores for the presentations a PAD run decided, to judge the whole system
/// (ISO/IEC 30107-3 full-system rates: IAPMR, IAPAR). Each comparison is one probe against an
/// enrolled reference:
/// - `genuine`: a bona fide probe of the reference's own subject (mated);
/// - `zero_effort`: a bona fide probe of another subject (a zero-effort impostor, non-mated);
/// - `attack`: a presentation attack aimed at the reference's subject.
///
/// Two layouts are read, told apart by their header:
/// - **generic**: `id,type,score` with optional `species` (an attack's; else the PAD run's
///   species of that id is used) and `split` (`dev`, `eval`, `train`, empty); `type` is
///   `genuine`, `zero_effort` (or `impostor`) or `attack`;
/// - **bob's vulnerability CSV** (bob.bio.base's `split_csv_vuln`): `probe_subject_id`,
///   `bio_ref_subject_id`, `probe_attack_type`, `score`, the probe named by `probe_key` (else
///   `probe_reference_id`): a row with an attack type is an attack of that species, else genuine
///   when the two subjects are the same and zero-effort otherwise.
///
/// Scores are "higher = more similar" (a score >= the threshold is a match, as bob.measure
/// counts); NaN or empty is a failure to compare. Ids are the PAD run's sample or presentation
/// ids, so that an attack's comparison meets its PAD decision (IAPAR).
package struct ComparisonScores: Sendable, Equatable {
    package enum Kind: String, Sendable, CaseIterable {
        case genuine
        case zeroEffort = "zero_effort"
        case attack
    }

    package struct Row: Sendable, Equatable {
        package var id: String
        package var kind: Kind
        /// The attack's species ("" when the file names none, and for bona fide probes).
        package var species: String
        /// `dev`, `eval`, `train` or "" (no split).
        package var split: String
        package var score: Double
    }

    package var rows: [Row] = []

    package init(rows: [Row] = []) {
        self.rows = rows
    }

    /// The file at `path`, read and checked; every error names the file and line.
    package static func read(path: String) throws -> ComparisonScores {
        let bytes: [UInt8]
        do { bytes = try RegularFile.read(path, limit: 4 << 30) } catch {
            throw ComparisonScoreError("\(path): cannot read the comparison scores: \(error.message)")
        }
        return try parse(bytes, path: path)
    }

    package static func parse(_ bytes: [UInt8], path: String) throws -> ComparisonScores {
        let records: [CSVReader.Record]
        do { records = try CSVReader.parse(bytes) } catch {
            throw ComparisonScoreError("\(path):\(error.line): \(error.message)")
        }
        guard let header = records.first?.fields else {
            throw ComparisonScoreError("\(path): empty, expected a header")
        }
        let bob = header.contains("probe_attack_type") && header.contains("bio_ref_subject_id")
        let columns = try Columns(header, bob: bob, path: path)
        var scores = ComparisonScores()
        scores.rows.reserveCapacity(records.count - 1)
        for record in records.dropFirst() {
            scores.rows.append(try columns.row(record, bob: bob, path: path))
        }
        guard !scores.rows.isEmpty else { throw ComparisonScoreError("\(path): no comparison rows") }
        return scores
    }

    /// Column positions of either layout.
    struct Columns {
        var id: Int, score: Int
        var kind: Int?, species: Int?, split: Int?
        var probeSubject: Int?, referenceSubject: Int?

        init(_ header: [String], bob: Bool, path: String) throws {
            func column(_ names: [String]) throws -> Int {
                guard let index = names.lazy.compactMap({ header.firstIndex(of: $0) }).first else {
                    throw ComparisonScoreError(
                        "\(path):1: no '\(names[0])' column (the \(bob ? "bob vulnerability" : "generic") layout: "
                            + (bob
                                ? "probe_key, probe_subject_id, bio_ref_subject_id, probe_attack_type, score"
                                : "id, type, score, optional species and split")
                            + ")")
                }
                return index
            }
            score = try column(["score"])
            split = header.firstIndex(of: "split")
            if bob {
                id = try column(["probe_key", "probe_reference_id"])
                species = try column(["probe_attack_type"])
                probeSubject = try column(["probe_subject_id"])
                referenceSubject = try column(["bio_ref_subject_id"])
            } else {
                id = try column(["id"])
                kind = try column(["type"])
                species = header.firstIndex(of: "species")
            }
        }

        func row(_ record: CSVReader.Record, bob: Bool, path: String) throws -> Row {
            let f = record.fields
            let at = "\(path):\(record.line)"
            guard
                f.count > [id, score, kind ?? 0, species ?? 0, split ?? 0, probeSubject ?? 0, referenceSubject ?? 0]
                    .max()!
            else {
                throw ComparisonScoreError("\(at): \(f.count) fields, fewer than the header's columns")
            }
            let scoreText = f[score].trimmingCharacters(in: .whitespaces)
            guard let value = scoreText.isEmpty ? .nan : Double(scoreText) else {
                throw ComparisonScoreError("\(at): score '\(TextBytes.quote(f[score]))' is not a number")
            }
            let speciesText = species.map { f[$0] } ?? ""
            let kind: Kind
            if bob {
                kind =
                    !speciesText.isEmpty ? .attack : (f[probeSubject!] == f[referenceSubject!] ? .genuine : .zeroEffort)
            } else {
                let text = f[self.kind!].lowercased()
                guard let parsed = Kind(rawValue: text == "impostor" ? "zero_effort" : text) else {
                    throw ComparisonScoreError(
                        "\(at): type '\(TextBytes.quote(f[self.kind!]))' is not genuine, zero_effort (impostor) or attack"
                    )
                }
                kind = parsed
            }
            let splitText = split.map { f[$0].lowercased() } ?? ""
            guard ["", "dev", "eval", "test", "train"].contains(splitText) else {
                throw ComparisonScoreError("\(at): split '\(TextBytes.quote(splitText))' is not dev, eval or train")
            }
            guard !f[id].isEmpty else { throw ComparisonScoreError("\(at): an empty id") }
            return Row(
                id: f[id], kind: kind, species: kind == .attack ? speciesText : "",
                split: splitText == "test" ? "eval" : splitText, score: value)
        }
    }
}

/// A comparison score file that cannot be read, naming the file and line.
package struct ComparisonScoreError: Error, Sendable, Equatable, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

import PadArchive
import PadDataset
import PadEvaluation
import PadMetrics

/// What a stored `decisions.csv` says, counted again: per profile its rows and their sample
/// fingerprint, and per split the decision counts every headline rate is computed from.
/// Read as the member decompresses (memory grows with profiles, splits and species, never with
/// samples), so `show`, `compare` and `folds` can check `results.json` against the decisions.
///
/// Example: `StoredRunCheckTests.decisionsEditedToRejectEveryBonaFideAreNamed`
/// in `Tests/PadBenchTests/StoredRunCheckTests.swift` (compiled and run by `swift test`).
/// A row that no writer of padbench produces (an unknown profile or label, a decision on a failed
/// sample, an `accepted` other than 1, 0 or empty) is a ``StoredRunMismatch`` naming its line.
struct DecisionTally {
    /// Decisions of one profile on one split, as ``OperatingPoint/Counts`` counts them.
    struct SplitCounts: Equatable {
        var bonaFide = 0, bonaFideRejected = 0, bonaFideFailed = 0
        var attacks: [String: Int] = [:], attacksAccepted: [String: Int] = [:], attacksFailed: [String: Int] = [:]
        /// Processed samples with no decision (`NOT_CALIBRATED`): the profile then has no rates.
        var undecided = 0

        var attackCount: Int { attacks.values.reduce(0, +) + attacksFailed.values.reduce(0, +) }
        var failed: Int { bonaFideFailed + attacksFailed.values.reduce(0, +) }
        var processed: Int { bonaFide + attacks.values.reduce(0, +) }

        mutating func add(_ other: SplitCounts) {
            bonaFide += other.bonaFide
            bonaFideRejected += other.bonaFideRejected
            bonaFideFailed += other.bonaFideFailed
            attacks.merge(other.attacks, uniquingKeysWith: +)
            attacksAccepted.merge(other.attacksAccepted, uniquingKeysWith: +)
            attacksFailed.merge(other.attacksFailed, uniquingKeysWith: +)
            undecided += other.undecided
        }

        /// The counts in the evaluator's form: species in name order.
        var counts: OperatingPoint.Counts {
            let names = Set(attacks.keys).union(attacksFailed.keys).sorted()
            return OperatingPoint.Counts(
                speciesNames: names, bonaFide: bonaFide, bonaFideRejected: bonaFideRejected,
                attacks: names.map { attacks[$0] ?? 0 }, attacksAccepted: names.map { attacksAccepted[$0] ?? 0 },
                bonaFideFailed: bonaFideFailed, attacksFailed: names.map { attacksFailed[$0] ?? 0 })
        }
    }

    struct ProfileRows {
        var rows = 0
        /// Wrapping sum of ``FNV1a/sampleHash(id:label:species:split:)`` over the rows: the
        /// manifest's sample fingerprint when the rows are exactly the run's samples, once each.
        var fingerprint: UInt64 = 0
        var splits: [String: SplitCounts] = [:]

        /// The counts of one split, or of all of them (`all`).
        func counts(split: String) -> SplitCounts {
            guard split == "all" else { return splits[split] ?? SplitCounts() }
            return splits.values.reduce(into: SplitCounts()) { $0.add($1) }
        }
    }

    /// Columns of `decisions.csv` as ``ProfileEvaluator`` writes it.
    struct Columns {
        let id: Int, profile: Int, split: Int, label: Int, species: Int, status: Int, accepted: Int, code: Int
        init(_ header: [String], path: String) throws {
            func column(_ name: String) throws -> Int {
                guard let index = header.firstIndex(of: name) else {
                    throw StoredRunMismatch("\(path): no '\(name)' column")
                }
                return index
            }
            (id, profile, split) = (try column("id"), try column("profile"), try column("split"))
            (label, species, status) = (try column("label"), try column("species"), try column("status"))
            (accepted, code) = (try column("accepted"), try column("code"))
        }
    }

    let path: String
    var profiles: [String: ProfileRows]

    /// Streams the run's `decisions.csv`; `profiles` are the names `results.json` holds.
    static func read(_ run: StoredRun, profiles names: [String]) throws -> DecisionTally {
        var tally = DecisionTally(
            path: run.path + ":decisions.csv",
            profiles: Dictionary(names.map { ($0, ProfileRows()) }, uniquingKeysWith: { a, _ in a }))
        guard run.contains("decisions.csv") else { throw StoredRunMismatch("\(run.path): no decisions.csv") }
        var stream = CSVRecordStream(path: tally.path)
        var columns: Columns?
        func count(_ record: CSVRecordStream.Record) throws {
            guard let known = columns else {
                columns = try Columns(record.fields, path: tally.path)
                return
            }
            try tally.count(record, known)
        }
        try run.archive.streamEntry(named: "decisions.csv") { chunk in try stream.feed(chunk, count) }
        try stream.finish(count)
        if columns == nil { throw StoredRunMismatch("\(tally.path): empty, not even a header") }
        return tally
    }

    /// One row counted, or the reason no padbench writer would have written it.
    mutating func count(_ record: CSVRecordStream.Record, _ c: Columns) throws {
        let f = record.fields, at = "\(path) line \(record.line)"
        guard f.count > max(c.id, c.profile, c.split, c.label, c.species, c.status, c.accepted, c.code) else {
            throw StoredRunMismatch("\(at): \(f.count) fields")
        }
        guard profiles[f[c.profile]] != nil else {
            throw StoredRunMismatch("\(at): profile '\(f[c.profile])' is not in results.json")
        }
        let bonaFide = f[c.label] == "bonafide"
        guard bonaFide || f[c.label] == "attack" else {
            throw StoredRunMismatch("\(at): label '\(f[c.label])' (bonafide or attack)")
        }
        let species = bonaFide ? "" : f[c.species], accepted = f[c.accepted]
        var split = profiles[f[c.profile]]!.splits[f[c.split], default: SplitCounts()]
        if f[c.status] != "ok" {
            guard accepted.isEmpty else { throw StoredRunMismatch("\(at): a failed sample with a decision") }
            if bonaFide { split.bonaFideFailed += 1 } else { split.attacksFailed[species, default: 0] += 1 }
        } else if accepted.isEmpty && f[c.code] == "NOT_CALIBRATED" {
            split.undecided += 1
        } else {
            guard accepted == "1" || accepted == "0" else {
                throw StoredRunMismatch("\(at): accepted '\(accepted)' (1, 0, or empty for a failed sample)")
            }
            if bonaFide {
                split.bonaFide += 1
                if accepted == "0" { split.bonaFideRejected += 1 }
            } else {
                split.attacks[species, default: 0] += 1
                if accepted == "1" { split.attacksAccepted[species, default: 0] += 1 }
            }
        }
        profiles[f[c.profile]]!.splits[f[c.split]] = split
        profiles[f[c.profile]]!.rows += 1
        profiles[f[c.profile]]!.fingerprint &+= FNV1a.sampleHash(
            id: f[c.id], label: f[c.label], species: species, split: f[c.split])
    }
}

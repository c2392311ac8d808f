import Foundation
import PadArchive
import PadEvaluation
import PadMetrics
import PadText
import PadVocabulary

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

    typealias Columns = DecisionsSchema.Columns

    /// One kind of row: everything after the id (profile, split, class, outcome), which a run
    /// has a few of (``PadEvaluation/ProfileEvaluator`` writes each row as its id and one of a
    /// few fixed texts): each is parsed and checked once, then counted.
    struct Kind {
        enum Outcome { case failed, undecided, accepted, rejected }
        var profile: String, split: String, bonaFide: Bool, species: String, outcome: Outcome
        /// What ``FNV1a/sampleHash(id:label:species:split:)`` hashes after the id.
        var hashSuffix: [UInt8]
    }

    let path: String
    /// `decisions.csv` (frames) or `presentation_decisions.csv`.
    var member = RunFile.decisions.name
    var profiles: [String: ProfileRows]
    var columns: Columns?
    /// The header is the one padbench writes (id first): rows without quotes take the fast path.
    var standardHeader = false
    var kinds: [Kind] = [], kindRows: [Int] = [], kindFingerprints: [UInt64] = []
    var kindTexts: [[UInt8]] = []
    /// Kinds by the FNV-1a hash of their text after the id.
    var kindIndex: [UInt64: [Int]] = [:]
    var pending: [UInt8] = []
    var line = 1
    /// The kind of the row before (rows of one kind come in runs).
    var lastKind = -1

    /// Streams the run's `decisions.csv`; `profiles` are the names `results.json` holds.
    static func read(_ run: StoredRun, member: String, profiles names: [String]) throws -> DecisionTally {
        var tally = DecisionTally(
            path: run.path + ":" + member,
            profiles: Dictionary(names.map { ($0, ProfileRows()) }, uniquingKeysWith: { a, _ in a }))
        tally.member = member
        guard run.contains(member) else { throw StoredRunMismatch("\(run.path): no \(member)") }
        try run.archive.streamEntry(named: member) { chunk in try tally.feed(chunk) }
        try tally.finish()
        return tally
    }

    init(path: String, profiles: [String: ProfileRows]) {
        self.path = path
        self.profiles = profiles
    }

    /// Cuts the stream into records at line ends outside quotes (a line without a quote is a
    /// record: found with memchr, as fast as the archive decompresses).
    mutating func feed(_ chunk: UnsafeRawBufferPointer) throws {
        pending.append(contentsOf: chunk)
        let bytes = pending
        pending = []
        var start = 0
        try bytes.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress!, n = buffer.count
            while start < n, let newline = memchr(base + start, 0x0A, n - start) {
                var end = UnsafeRawPointer(newline) - UnsafeRawPointer(base)
                let quoted = memchr(base + start, Int32(UInt8(ascii: "\"")), end - start) != nil
                if quoted {
                    guard let quotedEnd = Self.recordEnd(buffer, from: start) else { break }
                    end = quotedEnd
                }
                try record(UnsafeBufferPointer(rebasing: buffer[start..<end]), quoted: quoted)
                start = end + 1
            }
        }
        pending = Array(bytes[start...])
    }

    /// The line end after `start` that is outside quotes, nil when the buffer ends first.
    static func recordEnd(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var inQuotes = false
        for i in start..<buffer.count {
            if buffer[i] == UInt8(ascii: "\"") {
                inQuotes.toggle()
            } else if buffer[i] == 0x0A && !inQuotes {
                return i
            }
        }
        return nil
    }

    mutating func finish() throws {
        if !pending.isEmpty {
            let last = pending
            try last.withUnsafeBufferPointer { try record($0, quoted: last.contains(UInt8(ascii: "\""))) }
        }
        if columns == nil { throw StoredRunMismatch("\(path): empty, not even a header") }
        for (k, kind) in kinds.enumerated() where kindRows[k] > 0 {
            add(kind, rows: kindRows[k], fingerprint: kindFingerprints[k])
        }
    }

    /// One record (without its line end): the header, a fast row (no quotes: the id up to the
    /// first comma, then a known kind), or any other row through the RFC 4180 reader.
    mutating func record(_ bytes: UnsafeBufferPointer<UInt8>, quoted: Bool) throws {
        let at = line
        if quoted { for byte in bytes where byte == 0x0A { line += 1 } }
        line += 1
        var end = bytes.count
        if end > 0 && bytes[end - 1] == 0x0D { end -= 1 }
        guard end > 0 else { return }
        let text = UnsafeBufferPointer(rebasing: bytes[0..<end])
        if standardHeader && !quoted, let comma = text.firstIndex(of: UInt8(ascii: ",")) {
            let k = try kind(UnsafeBufferPointer(rebasing: text[(comma + 1)...]), line: at)
            let idHash = FNV1a.hash(UnsafeBufferPointer(rebasing: text[..<comma]))
            let h = kinds[k].hashSuffix.withUnsafeBufferPointer { FNV1a.hash($0, seed: idHash) }
            kindRows[k] += 1
            kindFingerprints[k] &+= h
            return
        }
        let fields: [String]
        do { fields = try CSVReader.parse(Array(text)).first?.fields ?? [] } catch {
            throw StoredRunMismatch("\(path) line \(at): \(error.message)")
        }
        guard let known = columns else {
            columns = try Columns(header: fields) { StoredRunMismatch("\(path): \($0)") }
            standardHeader = fields.first == DecisionsSchema.Column.id.name
            return
        }
        guard fields.count > known.last else { throw StoredRunMismatch("\(path) line \(at): \(fields.count) fields") }
        let kind = try Self.kind(fields, known, profiles: profiles, at: "\(path) line \(at)")
        let h = FNV1a.sampleHash(
            id: fields[known[.id]], label: kind.bonaFide ? "bonafide" : "attack", species: kind.species,
            split: kind.split
        )
        add(kind, rows: 1, fingerprint: h)
    }

    /// The kind of a fast row from its text after the id, parsed and checked the first time.
    mutating func kind(_ rest: UnsafeBufferPointer<UInt8>, line: Int) throws -> Int {
        if rest.count > 0 {
            // The kind before, then every kind (a run has a few dozen at most) by memcmp.
            if lastKind >= 0 && Self.equal(kindTexts[lastKind], rest) { return lastKind }
            // A few kinds are compared in turn; many (thousands of species) looked up by hash.
            let found =
                kinds.count <= 16
                ? kindTexts.indices.first { Self.equal(kindTexts[$0], rest) }
                : kindIndex[FNV1a.hash(rest)]?.first { Self.equal(kindTexts[$0], rest) }
            if let found {
                lastKind = found
                return found
            }
        }
        lastKind = try newKind(rest, line: line)
        kindIndex[FNV1a.hash(rest), default: []].append(lastKind)
        return lastKind
    }

    static func equal(_ text: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        text.count == bytes.count
            && text.withUnsafeBufferPointer { memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) } == 0
    }

    mutating func newKind(_ rest: UnsafeBufferPointer<UInt8>, line: Int) throws -> Int {
        let fields =
            [""]
            + rest.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map {
                String(decoding: $0, as: UTF8.self)
            }
        guard let columns, fields.count > columns.last else {
            throw StoredRunMismatch("\(path) line \(line): \(fields.count) fields")
        }
        kinds.append(try Self.kind(fields, columns, profiles: profiles, at: "\(path) line \(line)"))
        kindRows.append(0)
        kindFingerprints.append(0)
        kindTexts.append(Array(rest))
        return kinds.count - 1
    }

    /// A row's kind, or the reason no padbench writer would have written it.
    static func kind(_ f: [String], _ c: Columns, profiles: [String: ProfileRows], at: String) throws -> Kind {
        guard profiles[f[c[.profile]]] != nil else {
            throw StoredRunMismatch("\(at): profile '\(f[c[.profile]])' is not in results.json")
        }
        let bonaFide = f[c[.label]] == "bonafide"
        guard bonaFide || f[c[.label]] == "attack" else {
            throw StoredRunMismatch("\(at): label '\(f[c[.label]])' (bonafide or attack)")
        }
        let accepted = f[c[.accepted]], outcome: Kind.Outcome
        guard let status = SampleStatus(field: f[c[.status]], message: "") else {
            throw StoredRunMismatch("\(at): status '\(f[c[.status]])' is neither ok nor a failure code")
        }
        if !status.isOK {
            guard accepted.isEmpty else { throw StoredRunMismatch("\(at): a failed sample with a decision") }
            outcome = .failed
        } else if accepted.isEmpty && f[c[.code]] == DecisionsSchema.notCalibratedCode {
            outcome = .undecided
        } else {
            guard accepted == "1" || accepted == "0" else {
                throw StoredRunMismatch("\(at): accepted '\(accepted)' (1, 0, or empty for a failed sample)")
            }
            outcome = accepted == "1" ? .accepted : .rejected
        }
        let species = bonaFide ? "" : f[c[.species]]
        var suffix: [UInt8] = []
        for part in [f[c[.label]], species, f[c[.split]]] { suffix += [9] + Array(part.utf8) }
        return Kind(
            profile: f[c[.profile]], split: f[c[.split]], bonaFide: bonaFide, species: species, outcome: outcome,
            hashSuffix: suffix + [10])
    }

    /// `rows` rows of one kind counted, their sample hashes summing to `fingerprint`.
    mutating func add(_ kind: Kind, rows: Int, fingerprint: UInt64) {
        var split = profiles[kind.profile]!.splits[kind.split, default: SplitCounts()]
        switch (kind.outcome, kind.bonaFide) {
        case (.failed, true): split.bonaFideFailed += rows
        case (.failed, false): split.attacksFailed[kind.species, default: 0] += rows
        case (.undecided, _): split.undecided += rows
        case (.accepted, true): split.bonaFide += rows
        case (.rejected, true):
            split.bonaFide += rows
            split.bonaFideRejected += rows
        case (.accepted, false):
            split.attacks[kind.species, default: 0] += rows
            split.attacksAccepted[kind.species, default: 0] += rows
        case (.rejected, false): split.attacks[kind.species, default: 0] += rows
        }
        profiles[kind.profile]!.splits[kind.split] = split
        profiles[kind.profile]!.rows += rows
        profiles[kind.profile]!.fingerprint &+= fingerprint
    }
}

import Dispatch
import Foundation
import PadArchive
import PadEvaluation
import PadMetrics
import PadText

/// The CSV reports of a run as header + rows, shared by `bench`, `eval` and `merge` so that the
/// same columns mean the same thing everywhere.
///
/// Example: `EvaluationJointsTests.eerWithAnotherGateHeldFixed`
/// in `Tests/PadBenchTests/EvaluationJointsTests.swift` (compiled and run by `swift test`).
package enum ReportTables {
    package typealias Table = (header: [String], rows: [[String]])
    static func n(_ v: Double) -> String { CSVFormat.number(v) }

    /// One row per profile and reported split (a calibrated profile also gets a row for its
    /// calibration split, with the same thresholds). Rates are fractions; CI columns are 95%
    /// Clopper-Pearson. Thresholds are in the score file's own polarity.
    package static func summary(_ results: [ProfileResult], attackPotential: AttackPotential? = nil) -> Table {
        var header = [
            "profile", "source", "split", "n_bonafide", "n_attack", "n_failed",
            "apcer_max", "apcer_max_species", "apcer_max_errors", "apcer_max_n", "apcer_max_ci_low",
            "apcer_max_ci_high",
            "apcer_pooled", "bpcer", "bpcer_errors", "bpcer_n", "bpcer_ci_low", "bpcer_ci_high",
            "acer_nonconformant", "bpnrr", "apnrr", "bpcer_system", "apcer_max_system",
            "score", "threshold", "criterion", "threshold_source", "target_met", "eer", "eer_threshold",
            "eer_apcer_max", "eer_bpcer",
        ]
        header +=
            ProfileResult.targets.map { "bpcer@apcer=\(n($0))" } + [
                "auc", "calibration", "gates_left_out", "liveness_decision", "note",
            ]
        header += operatingPointHeader
        header += subjectHeader
        header += separationHeader
        // 1: a capture check (no liveness gate or score): its rates are capture reject rates.
        header += ["capture_only"]
        let species = results.flatMap { $0.sets.compactMap(\.headline).flatMap(\.speciesNames) }
        let levels = attackPotential.map { $0.levelNames(for: species) }
        var rows: [[String]] = []
        for r in results {
            for set in r.sets {
                rows.append(summaryRow(r, set) + attackPotentialColumns(set, attackPotential, levels: levels ?? []))
            }
        }
        if let levels { header += levels.flatMap { ["apcer_ap[\($0)]", "apcer_ap[\($0)]_species"] } }
        return (header, rows)
    }

    /// APCER_AP per attack potential level (ISO/IEC 30107-3:2023: the highest APCER among the
    /// level's species) and the species attaining it; empty for a level with no processed attack.
    static func attackPotentialColumns(
        _ set: ProfileResult.SetResult, _ attackPotential: AttackPotential?, levels: [String]
    ) -> [String] {
        guard let attackPotential else { return [] }
        let found =
            set.headline.map {
                attackPotential.apcerPerLevel(speciesNames: $0.speciesNames, apcer: $0.apcer)
            } ?? []
        return levels.flatMap { level in
            found.first { $0.level == level }.map { [n($0.apcer.value), $0.species] } ?? ["", ""]
        }
    }

    static func summaryRow(_ r: ProfileResult, _ set: ProfileResult.SetResult) -> [String] {
        var row = [
            r.profile.name, r.profile.source, set.split, String(set.bonaFideCount), String(set.attackCount),
            String(set.failedCount),
        ]
        if let p = set.headline {
            let ci = p.apcerMax.interval, bci = p.bpcer.interval
            row += [
                n(p.apcerMax.value), p.apcerMaxSpecies, count(p.apcerMax.errors, p.apcerMax.total),
                count(p.apcerMax.total, p.apcerMax.total),
                n(ci.low), n(ci.high), n(p.apcerPooled.value), n(p.bpcer.value), count(p.bpcer.errors, p.bpcer.total),
                count(p.bpcer.total, p.bpcer.total), n(bci.low), n(bci.high),
                n(p.acer), n(p.bpnrr.value), n(p.apnrr.value), n(p.bpcerSystem.value), n(p.apcerMaxSystem.value),
            ]
        } else {
            row += Array(repeating: "", count: 17)
        }
        let thresholdText = r.scoreThreshold.map { n(r.shownThreshold($0)) } ?? ""
        let criterion = r.calibrations.first.map { "calibrated \($0.target) on \($0.split)" } ?? "profile gates"
        let met = r.calibrations.isEmpty ? "" : (r.calibrations.allSatisfy(\.targetMet) ? "1" : "0")
        var notes = [set.headlineError, set.scoreError].compactMap { $0 } + r.notes.map(\.text)
        if let m = set.scoreMetrics {
            row += [
                m.score, thresholdText, criterion, r.thresholdSource.text, met, n(m.eer.value),
                n(r.shownThreshold(m.eer.threshold)),
                n(m.eer.apcerMax), n(m.eer.bpcer),
            ]
            row += m.bpcerAtAPCER.map { $0.targetMet ? n($0.rate) : "" }
            notes += m.bpcerAtAPCER.filter { !$0.targetMet }.map {
                "bpcer@apcer=\(n($0.target)) not met: some species stays above the target at every threshold"
            }
            row += [n(m.auc)]
        } else {
            row +=
                [r.profile.score ?? "", thresholdText, criterion, r.thresholdSource.text, met, "", "", "", ""]
                + ProfileResult.targets.map { _ in "" } + [""]
        }
        row += [
            r.calibrations.map {
                "\($0.output) t=\(n(r.shownThreshold($0.threshold))) on \($0.split): "
                    + "apcer_max=\(n($0.calibrationAPCERMax)) bpcer=\(n($0.calibrationBPCER))"
            }.joined(separator: "; ")
        ]
        row += [r.gatesLeftOut.joined(separator: ";"), r.isLivenessDecision ? "1" : "0", notes.joined(separator: "; ")]
        return row + operatingPointColumns(r, set) + subjectColumns(set.subjectIntervals)
            + separationColumns(r, set) + [r.profile.isCaptureOnly ? "1" : "0"]
    }

    /// pyeer 0.5.6's measures of the swept score (`get_eer_stats`; genuine = bona fide, impostors =
    /// every attack species pooled, so FMR = pooled APCER and FNMR = BPCER), after the subject
    /// columns and before `capture_only`, which stays last: `d_prime` (d' = |mean_bf - mean_attack| /
    /// sqrt((var_bf + var_attack) / 2), population variances), `bpcer@apcer=0` (pyeer's ZeroFMR:
    /// BPCER at the lowest threshold where pooled APCER is at its lowest) with its threshold and
    /// that pooled APCER (not 0 when an attack holds the highest score), `apcer@bpcer=0` (ZeroFNMR:
    /// pooled APCER at the highest threshold where BPCER is at its lowest) with its threshold and
    /// that BPCER. metrics.csv has the counts and intervals.
    static let separationHeader = [
        "d_prime", "bpcer@apcer=0", "bpcer@apcer=0_threshold", "bpcer@apcer=0_apcer_pooled", "apcer@bpcer=0",
        "apcer@bpcer=0_threshold", "apcer@bpcer=0_bpcer",
    ]

    static func separationColumns(_ r: ProfileResult, _ set: ProfileResult.SetResult) -> [String] {
        let m = set.scoreMetrics
        let d = m?.decidability.map { $0.value.isNaN ? "" : n($0.value) } ?? ""
        guard let zero = m?.zeroErrorPoints else { return [d] + Array(repeating: "", count: 6) }
        let (a, b) = (zero.bpcerAtZeroAPCER, zero.apcerAtZeroBPCER)
        return [
            d, n(a.bpcer.value), n(r.shownThreshold(a.threshold)), n(a.apcerPooled.value), n(b.apcerPooled.value),
            n(r.shownThreshold(b.threshold)), n(b.bpcer.value),
        ]
    }

    /// FATE PAD / ISO/IEC 30107-3 operating points of the split's swept score (thresholds chosen
    /// on the split itself): BPCER100, BPCER20, BPCER10 = the best BPCER with APCER_max <= 1%,
    /// 5%, 10% (the lowest threshold meeting the target) and their thresholds; APCER_max at BPCER
    /// <= 1%, 5%, 10%; the EER over pooled attacks (bob.pad.base); and bob's HTER of the profile's
    /// decision ((APCER pooled + BPCER) / 2 at the profile's thresholds: on eval, the dev ones).
    static let operatingPointHeader =
        ProfileResult.targets.flatMap { [ProfileResult.isoName($0), ProfileResult.isoName($0) + "_threshold"] }
        + ProfileResult.targets.map { "apcer@bpcer=\(n($0))" } + ["eer_pooled", "hter_pooled"]

    static func operatingPointColumns(_ r: ProfileResult, _ set: ProfileResult.SetResult) -> [String] {
        var row: [String] = []
        let m = set.scoreMetrics
        for k in ProfileResult.targets.indices {
            let best = m.flatMap { $0.bestBPCERAtAPCER.indices.contains(k) ? $0.bestBPCERAtAPCER[k] : nil }
            row += best.map { $0.targetMet ? [n($0.rate), n(r.shownThreshold($0.threshold))] : ["", ""] } ?? ["", ""]
        }
        for k in ProfileResult.targets.indices {
            let target = m.flatMap { $0.apcerAtBPCER.indices.contains(k) ? $0.apcerAtBPCER[k] : nil }
            row.append(target.map { $0.targetMet ? n($0.rate) : "" } ?? "")
        }
        row.append(m?.pooledEER.map { n($0.value) } ?? "")
        row.append(set.headline.map { n(Proportion.mean($0.apcerPooled, $0.bpcer)) } ?? "")
        return row
    }

    /// Subject-clustered bootstrap columns (``SubjectBootstrap``), empty without subjects; the
    /// `*_ci_*` columns before them are Clopper-Pearson over samples.
    static let subjectHeader =
        [
            "n_subjects_bonafide", "n_subjects_attack", "apcer_max_subject_ci_low", "apcer_max_subject_ci_high",
            "bpcer_subject_ci_low", "bpcer_subject_ci_high", "eer_subject_ci_low", "eer_subject_ci_high",
        ]
        + ProfileResult.targets.flatMap {
            ["bpcer@apcer=\(n($0))_subject_ci_low", "bpcer@apcer=\(n($0))_subject_ci_high"]
        }

    static func subjectColumns(_ b: ProfileResult.SubjectIntervals?) -> [String] {
        guard let b else { return Array(repeating: "", count: subjectHeader.count) }
        // A class with one subject shows no between-subject variation: intervals left empty (the
        // subject counts say why), never a degenerate [1, 1].
        let single = b.hasSingleSubjectStratum
        func pair(_ i: ProfileResult.Interval?) -> [String] {
            single ? ["", ""] : i.map { [n($0.low), n($0.high)] } ?? ["", ""]
        }
        let attackSubjects = b.attackSubjects.map { "\($0.species):\($0.subjects)" }.joined(separator: ";")
        var row = [String(b.bonaFideSubjects), attackSubjects] + pair(b.apcerMax) + pair(b.bpcer) + pair(b.eer)
        for x in ProfileResult.targets { row += pair(b.bpcerAtAPCER.first { $0.target == x }?.interval) }
        return row
    }

    /// A count, empty when its rate is undefined (no samples of the class).
    static func count(_ value: Int, _ total: Int) -> String { total > 0 ? String(value) : "" }

    /// One row per profile and species at the profile's decisions; `eer` is the EER of the swept
    /// score for bona fide against that species alone (bob.measure's rule, chosen on the split
    /// itself), empty without a swept score.
    package static func perSpecies(_ results: [ProfileResult], attackPotential: AttackPotential? = nil) -> Table {
        var header = [
            "profile", "split", "species", "n", "accepted", "apcer", "apcer_ci_low", "apcer_ci_high", "is_max", "eer",
        ]
        if attackPotential != nil { header.append("attack_potential") }
        var rows: [[String]] = []
        for r in results {
            for set in r.sets {
                guard let p = set.headline else { continue }
                for s in p.speciesNames.indices.sorted(by: { p.speciesNames[$0] < p.speciesNames[$1] }) {
                    let rate = p.apcer[s], ci = rate.interval
                    let eer = set.scoreMetrics.flatMap { m in
                        m.curve.speciesNames.firstIndex(of: p.speciesNames[s]).flatMap {
                            m.speciesEER.indices.contains($0) ? m.speciesEER[$0] : nil
                        }
                    }
                    rows.append(
                        [
                            r.profile.name, set.split, p.speciesNames[s], String(rate.total), String(rate.errors),
                            n(rate.value),
                            n(ci.low), n(ci.high), p.speciesNames[s] == p.apcerMaxSpecies ? "1" : "0",
                            eer.map { $0.isNaN ? "" : n($0) } ?? "",
                        ] + (attackPotential.map { [$0.level(of: p.speciesNames[s])] } ?? []))
                }
            }
        }
        return (header, rows)
    }

    package static func rejectReasons(_ results: [ProfileResult]) -> Table {
        let header = ["profile", "label", "species", "code", "message", "count", "fraction"]
        var rows: [[String]] = []
        for r in results {
            for reason in r.rejectReasons {
                rows.append([
                    r.profile.name, reason.label, reason.species, reason.code, reason.message,
                    String(reason.count), n(reason.fraction),
                ])
            }
        }
        return (header, rows)
    }

    /// The exact curve of every profile's swept score, one row per distinct threshold:
    /// `profile,score,threshold,bpcer,apcer_max,apcer_pooled,apcer[<species>]...` (species columns
    /// cover the union; empty where a profile lacks one). Streamed to a file with rows formatted
    /// in blocks on all cores: a curve of ten million points takes seconds, not a table in memory.
    package static func writeCurves(_ results: [ProfileResult], to path: String) throws {
        try writeCurves(results, into: CSVWriter(path: path))
    }

    /// ``writeCurves(_:to:)`` into a writer (a file also compressed for the archive); closes it.
    /// `block`: rows per formatting block (tests make it tiny to run many batches).
    package static func writeCurves(_ results: [ProfileResult], into writer: CSVWriter, block: Int = 250_000) throws {
        try writeCurves(results, into: writer, block: block, blockBytes: Self.curveBlockBytes)
    }

    /// Most text one formatting buffer of `curves.csv` holds: 48 MiB (the 250,000-row blocks of a
    /// curve with a few species); with two buffers per worker the writer holds at most
    /// 4 x 48 MiB on two cores, 96 MiB per core, however many species there are.
    package static let curveBlockBytes = 48 << 20

    static func writeCurves(_ results: [ProfileResult], into writer: CSVWriter, block: Int, blockBytes: Int) throws {
        var species = Set<String>()
        for r in results { r.scoreMetrics.map { species.formUnion($0.curve.speciesNames) } }
        let names = species.sorted()
        try writer.writeRow(
            ["profile", "score", "threshold", "bpcer", "apcer_max", "apcer_pooled"] + names.map { "apcer[\($0)]" })
        let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
        for r in results {
            guard let m = r.scoreMetrics else { continue }
            var prefix: [UInt8] = []
            CSVFormat.appendField(r.profile.name, to: &prefix)
            prefix.append(UInt8(ascii: ","))
            CSVFormat.appendField(m.score, to: &prefix)
            let columns = 4 + names.count
            // One text buffer per worker, allocated once for the longest rows a block can have and
            // reused for every block: growing (and freeing) tens of megabytes per block faulted in
            // fresh pages each time (ten million curve points are 800 MB of text).
            let rowBytes = prefix.count + columns * (NumberText.maximumLength + 1) + 1
            let rows = CurveRows(result: r, metrics: m, names: names, prefix: prefix)
            // Blocks hold at most `blockBytes` of text, whatever the number of species columns
            // (6,000 species made a 250,000-row block ask for 37 GB).
            let rowsPerBlock = max(1, min(block, blockBytes / rowBytes))
            try writeBlocks(
                of: rows, count: m.curve.count, rowBytes: rowBytes, workers: workers, block: rowsPerBlock,
                into: writer)
        }
        try writer.close()
    }

    /// Writes `count` curve rows in blocks of `block` rows: each batch of blocks (one per worker) is
    /// formatted on the workers into one of two sets of buffers while the previous batch is
    /// written (file and compressor) on a ``BackgroundLane`` that owns the writer, so formatting
    /// and writing overlap instead of taking turns. Batches are written in order; a write error
    /// stops the loop and is rethrown. The buffers (one per worker per set, sized once for the
    /// longest rows and reused: growing and freeing tens of megabytes per block faulted in fresh
    /// pages each time) are freed when all writes have finished.
    static func writeBlocks(
        of rows: CurveRows, count: Int, rowBytes: Int, workers: Int, block: Int, into writer: CSVWriter
    ) throws {
        let sets = (0..<2).map { _ in
            (0..<workers).map { _ in UnsafeMutablePointer<UInt8>.allocate(capacity: block * rowBytes) }
        }
        let lengths = (0..<2).map { _ in UnsafeMutablePointer<Int>.allocate(capacity: workers) }
        // Safety: the writer is used by the lane's items alone until the last `lane.wait()`, after which the caller has it.
        nonisolated(unsafe) let output = writer
        let lane = BackgroundLane(output)
        defer {
            try? lane.wait()
            for set in sets { for chunk in set { chunk.deallocate() } }
            for set in lengths { set.deallocate() }
        }
        let blocks = (count + block - 1) / block
        var next = 0, turn = 0
        while next < blocks {
            let batch = min(workers, blocks - next), firstBlock = next
            // Safety: step j writes only chunks[j] and sizes[j]; a set is reused or freed only after `lane.wait()`.
            nonisolated(unsafe) let chunks = sets[turn % 2], sizes = lengths[turn % 2]
            DispatchQueue.concurrentPerform(iterations: batch) { j in
                let first = (firstBlock + j) * block
                sizes[j] = rows.write(
                    first..<min(count, first + block),
                    to: UnsafeMutableBufferPointer(start: chunks[j], count: block * rowBytes))
            }
            try lane.wait() // the previous batch is written: its buffers are free, its error thrown
            lane.enqueue { output in
                for j in 0..<batch {
                    try output.writeRaw(UnsafeRawBufferPointer(start: chunks[j], count: sizes[j]))
                }
            }
            next += batch
            turn += 1
        }
        try lane.wait()
    }

    /// One row per timed step: decode, each estimator, and the whole sample.
    /// `timing.csv`: per step the wall-clock statistics, then the measuring thread's CPU time
    /// (empty for an external program, whose work is in its own process), then the cold start.
    /// Throughput is one figure of the run, so it is written once, on the `sample_total` row (and
    /// `presentation_total`'s, per presentation), not repeated on every step.
    package static func timing(_ steps: [TimingStep]) -> Table {
        let header = [
            "step", "count", "mean_us", "p50_us", "p90_us", "p99_us", "max_us", "cpu_mean_us", "cpu_p50_us",
            "cpu_p90_us", "cpu_p99_us", "cpu_max_us", "throughput_per_s", "cold_start_us",
        ]
        func us(_ ns: Double) -> String { n((ns / 1000 * 1000).rounded() / 1000) }
        func quantiles(_ s: TimingSummary) -> [String] {
            [
                us(s.meanNanoseconds), us(Double(s.p50Nanoseconds)), us(Double(s.p90Nanoseconds)),
                us(Double(s.p99Nanoseconds)), us(Double(s.maxNanoseconds)),
            ]
        }
        let rows = steps.map { step -> [String] in
            let s = step.summary
            let total = step.name == "sample_total" || step.name == "presentation_total"
            return [step.name, String(s.count)] + quantiles(s)
                + (step.cpu.map(quantiles) ?? Array(repeating: "", count: 5))
                + [total ? n((s.throughput * 100).rounded() / 100) : "", us(Double(step.coldStartNanoseconds))]
        }
        return (header, rows)
    }
}

/// The rows of one profile's curve in `curves.csv`: `profile,score,threshold,bpcer,apcer_max,
/// apcer_pooled` and one APCER per species of the run's union (empty where this curve lacks it).
struct CurveRows: Sendable {
    let curve: ErrorCurve
    let sign: Double
    let prefix: [UInt8]
    /// Per union species, its index in this curve.
    let columns: [Int?]

    init(result: ProfileResult, metrics: ProfileResult.ScoreMetrics, names: [String], prefix: [UInt8]) {
        curve = metrics.curve
        sign = result.thresholdSign
        self.prefix = prefix
        let columnOf = Dictionary(uniqueKeysWithValues: curve.speciesNames.enumerated().map { ($1, $0) })
        columns = names.map { columnOf[$0] }
    }

    /// Writes the rows of `points` at the start of `out` (room for their longest possible text,
    /// checked row by row) and returns the number of bytes.
    func write(_ points: Range<Int>, to out: UnsafeMutableBufferPointer<UInt8>) -> Int {
        let row = RepeatedNumberRow(columns: 4 + columns.count)
        var values = [Double](repeating: .nan, count: 4 + columns.count)
        // One cursor per species column: each species' rate is read from its steps in point
        // order, not searched for at every point (6,000 species columns).
        var cursors = columns.map { $0.map { curve.cursor(species: $0, at: points.lowerBound) } }
        var n = 0
        prefix.withUnsafeBufferPointer { prefix in
            values.withUnsafeMutableBufferPointer { values in
                for k in points {
                    values[0] = curve.thresholds[k] * sign
                    values[1] = curve.bpcer(k)
                    values[2] = curve.apcerMax(k).value
                    values[3] = curve.apcerPooled(k)
                    for c in cursors.indices {
                        if cursors[c] != nil { values[4 + c] = curve.apcer(&cursors[c]!, at: k) }
                    }
                    n += row.write(
                        prefix: prefix, UnsafeBufferPointer(values), to: UnsafeMutableBufferPointer(rebasing: out[n...])
                    )
                }
            }
        }
        return n
    }
}

/// CSV rows of numbers where most columns repeat the row above (a curve point moves one class's
/// rate): a value bit-equal to the previous row's in its column reuses that column's text, so
/// only the numbers that changed are formatted. The bytes are exactly
/// `CSVFormat.appendRawPrefixNumberRow`'s. Its state is plain memory of its own, so a row touches
/// no array (ten million rows).
final class RepeatedNumberRow {
    static let slot = NumberText.maximumLength
    private let columns: Int
    private let previous: UnsafeMutablePointer<UInt64>
    /// -1: nothing formatted yet.
    private let lengths: UnsafeMutablePointer<Int>
    private let text: UnsafeMutablePointer<UInt8>

    init(columns: Int) {
        self.columns = columns
        previous = .allocate(capacity: columns)
        previous.initialize(repeating: 0, count: columns)
        lengths = .allocate(capacity: columns)
        lengths.initialize(repeating: -1, count: columns)
        text = .allocate(capacity: columns * Self.slot)
    }

    deinit {
        previous.deallocate()
        lengths.deallocate()
        text.deallocate()
    }

    /// Writes `prefix`, each value after a comma, and a newline at the start of `room` (at least
    /// `prefix.count + values.count * (slot + 1) + 1` bytes, checked); returns the bytes written.
    func write(
        prefix: UnsafeBufferPointer<UInt8>, _ values: UnsafeBufferPointer<Double>,
        to room: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
        precondition(room.count >= prefix.count + values.count * (Self.slot + 1) + 1, "curve row longer than its room")
        // Safety: the precondition above bounds every store below.
        let out = room.baseAddress!
        if prefix.count > 0 { out.update(from: prefix.baseAddress!, count: prefix.count) }
        var n = prefix.count
        for c in 0..<min(columns, values.count) {
            out[n] = UInt8(ascii: ",")
            n += 1
            let bits = values[c].bitPattern, slot = text + c * Self.slot
            if lengths[c] >= 0 && previous[c] == bits {
                (out + n).update(from: slot, count: lengths[c])
                n += lengths[c]
                continue
            }
            let length = NumberText.write(values[c], into: UnsafeMutableBufferPointer(rebasing: room[n...]))
            slot.update(from: out + n, count: length)
            previous[c] = bits
            lengths[c] = length
            n += length
        }
        out[n] = 0x0A
        return n + 1
    }

    /// The same appended to an array.
    func append(prefix: [UInt8], _ values: [Double], to buffer: inout [UInt8]) {
        let room = prefix.count + values.count * (Self.slot + 1) + 1
        var row = [UInt8](repeating: 0, count: room)
        let n = prefix.withUnsafeBufferPointer { prefix in
            values.withUnsafeBufferPointer { values in
                row.withUnsafeMutableBufferPointer { write(prefix: prefix, values, to: $0) }
            }
        }
        buffer += row[0..<n]
    }
}

import Dispatch
import Foundation
import PadArchive
import PadEvaluation
import PadMetrics

/// The CSV reports of a run as header + rows, shared by `bench`, `eval` and `merge` so that the
/// same columns mean the same thing everywhere.
///
/// Example: `EvaluationJointsTests.eerWithAnotherGateHeldFixed`
/// in `Tests/PadBenchTests/EvaluationJointsTests.swift` (compiled and run by `swift test`).
public enum ReportTables {
    public typealias Table = (header: [String], rows: [[String]])
    static func n(_ v: Double) -> String { CSVFormat.number(v) }

    /// One row per profile and reported split (a calibrated profile also gets a row for its
    /// calibration split, with the same thresholds). Rates are fractions; CI columns are 95%
    /// Clopper-Pearson. Thresholds are in the score file's own polarity.
    public static func summary(_ results: [ProfileResult]) -> Table {
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
        header += subjectHeader
        var rows: [[String]] = []
        for r in results {
            for set in r.sets {
                rows.append(summaryRow(r, set))
            }
        }
        return (header, rows)
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
        var notes = [set.headlineError, set.scoreError].compactMap { $0 } + r.notes
        if let m = set.scoreMetrics {
            row += [
                m.score, thresholdText, criterion, r.thresholdSource, met, n(m.eer.value),
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
                [r.profile.score ?? "", thresholdText, criterion, r.thresholdSource, met, "", "", "", ""]
                + ProfileResult.targets.map { _ in "" } + [""]
        }
        row += [
            r.calibrations.map {
                "\($0.output) t=\(n(r.shownThreshold($0.threshold))) on \($0.split): "
                    + "apcer_max=\(n($0.calibrationAPCERMax)) bpcer=\(n($0.calibrationBPCER))"
            }.joined(separator: "; ")
        ]
        row += [r.gatesLeftOut.joined(separator: ";"), r.isLivenessDecision ? "1" : "0", notes.joined(separator: "; ")]
        return row + subjectColumns(set.subjectIntervals)
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
        func pair(_ i: ProfileResult.Interval?) -> [String] { i.map { [n($0.low), n($0.high)] } ?? ["", ""] }
        let attackSubjects = b.attackSubjects.map { "\($0.species):\($0.subjects)" }.joined(separator: ";")
        var row = [String(b.bonaFideSubjects), attackSubjects] + pair(b.apcerMax) + pair(b.bpcer) + pair(b.eer)
        for x in ProfileResult.targets { row += pair(b.bpcerAtAPCER.first { $0.target == x }?.interval) }
        return row
    }

    /// A count, empty when its rate is undefined (no samples of the class).
    static func count(_ value: Int, _ total: Int) -> String { total > 0 ? String(value) : "" }

    /// One row per profile and species at the profile's decisions.
    public static func perSpecies(_ results: [ProfileResult]) -> Table {
        let header = [
            "profile", "split", "species", "n", "accepted", "apcer", "apcer_ci_low", "apcer_ci_high", "is_max",
        ]
        var rows: [[String]] = []
        for r in results {
            for set in r.sets {
                guard let p = set.headline else { continue }
                for s in p.speciesNames.indices.sorted(by: { p.speciesNames[$0] < p.speciesNames[$1] }) {
                    let rate = p.apcer[s], ci = rate.interval
                    rows.append([
                        r.profile.name, set.split, p.speciesNames[s], String(rate.total), String(rate.errors),
                        n(rate.value),
                        n(ci.low), n(ci.high), p.speciesNames[s] == p.apcerMaxSpecies ? "1" : "0",
                    ])
                }
            }
        }
        return (header, rows)
    }

    public static func rejectReasons(_ results: [ProfileResult]) -> Table {
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
    public static func writeCurves(_ results: [ProfileResult], to path: String) throws {
        try writeCurves(results, into: CSVWriter(path: path))
    }

    /// ``writeCurves(_:to:)`` into a writer (a file also compressed for the archive); closes it.
    public static func writeCurves(_ results: [ProfileResult], into writer: CSVWriter) throws {
        var species = Set<String>()
        for r in results { r.scoreMetrics.map { species.formUnion($0.curve.speciesNames) } }
        let names = species.sorted()
        try writer.writeRow(
            ["profile", "score", "threshold", "bpcer", "apcer_max", "apcer_pooled"] + names.map { "apcer[\($0)]" })
        let block = 250_000
        let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
        // One text buffer per worker, sized once for the longest rows a block can have and reused
        // for every block: growing (and freeing) tens of megabytes per block faulted in fresh pages
        // each time (ten million curve points are 800 MB of text).
        var chunks = Array(repeating: [UInt8](), count: workers)
        for r in results {
            guard let m = r.scoreMetrics else { continue }
            let c = m.curve, sign = r.thresholdSign
            let columnOf = Dictionary(uniqueKeysWithValues: c.speciesNames.enumerated().map { ($1, $0) })
            let columns = names.map { columnOf[$0] }
            var prefix: [UInt8] = []
            CSVFormat.appendField(r.profile.name, to: &prefix)
            prefix.append(UInt8(ascii: ","))
            CSVFormat.appendField(m.score, to: &prefix)
            let rowPrefix = prefix
            // A number is at most 24 characters (shortest round-trip form), plus its comma.
            let rowBytes = rowPrefix.count + (4 + names.count) * 25 + 1
            let blocks = (c.count + block - 1) / block
            var next = 0
            while next < blocks {
                let batch = min(workers, blocks - next)
                let firstBlock = next
                chunks.withUnsafeMutableBufferPointer { buffer in
                    nonisolated(unsafe) let out = buffer
                    DispatchQueue.concurrentPerform(iterations: batch) { j in
                        let first = (firstBlock + j) * block, last = min(c.count, first + block)
                        var bytes = out[j]
                        out[j] = []
                        bytes.removeAll(keepingCapacity: true)
                        bytes.reserveCapacity((last - first) * rowBytes)
                        var values = [Double](repeating: .nan, count: 4 + names.count)
                        var row = RepeatedNumberRow(columns: values.count)
                        for k in first..<last {
                            values[0] = c.thresholds[k] * sign
                            values[1] = c.bpcer(k)
                            values[2] = c.apcerMax(k).value
                            values[3] = c.apcerPooled(k)
                            for (n, column) in columns.enumerated() {
                                values[4 + n] = column.map { c.apcer($0, k) } ?? .nan
                            }
                            row.append(prefix: rowPrefix, values, to: &bytes)
                        }
                        out[j] = bytes
                    }
                }
                for chunk in chunks.prefix(batch) { try writer.writeRaw(chunk) }
                next += batch
            }
        }
        try writer.close()
    }

    /// One row per timed step: decode, each estimator, and the whole sample.
    public static func timing(_ steps: [(name: String, summary: TimingSummary, coldStartNanoseconds: UInt64)]) -> Table
    {
        let header = [
            "step", "count", "mean_us", "p50_us", "p90_us", "p99_us", "max_us", "throughput_per_s", "cold_start_us",
        ]
        func us(_ ns: Double) -> String { n((ns / 1000 * 1000).rounded() / 1000) }
        let rows = steps.map { step -> [String] in
            let s = step.summary
            return [
                step.name, String(s.count), us(s.meanNanoseconds), us(Double(s.p50Nanoseconds)),
                us(Double(s.p90Nanoseconds)),
                us(Double(s.p99Nanoseconds)), us(Double(s.maxNanoseconds)), n((s.throughput * 100).rounded() / 100),
                us(Double(step.coldStartNanoseconds)),
            ]
        }
        return (header, rows)
    }
}

/// CSV rows of numbers where most columns repeat the row above (a curve point moves one class's
/// rate): a value bit-equal to the previous row's in its column reuses that column's text, so
/// only the numbers that changed are formatted. The bytes are exactly
/// `CSVFormat.appendRawPrefixNumberRow`'s.
struct RepeatedNumberRow {
    static let slot = 32
    private var previous: [UInt64]
    private var lengths: [Int]
    private var text: [UInt8]

    init(columns: Int) {
        previous = [UInt64](repeating: 0, count: columns)
        lengths = [Int](repeating: -1, count: columns) // -1: nothing formatted yet
        text = [UInt8](repeating: 0, count: columns * Self.slot)
    }

    mutating func append(prefix: [UInt8], _ values: [Double], to buffer: inout [UInt8]) {
        buffer.append(contentsOf: prefix)
        for n in values.indices {
            buffer.append(UInt8(ascii: ","))
            let bits = values[n].bitPattern
            if lengths[n] >= 0 && previous[n] == bits {
                buffer.append(contentsOf: text[(n * Self.slot)..<(n * Self.slot + lengths[n])])
                continue
            }
            let start = buffer.count
            CSVFormat.appendNumber(values[n], to: &buffer)
            let length = buffer.count - start
            guard length <= Self.slot else {
                lengths[n] = -1
                continue
            }
            for b in 0..<length { text[n * Self.slot + b] = buffer[start + b] }
            previous[n] = bits
            lengths[n] = length
        }
        buffer.append(0x0A)
    }
}

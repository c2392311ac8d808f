import Dispatch
import Foundation
import PadArchive
import PadMetrics

/// The report of `padbench eval --scores`: one score set (or a dev set that chose the threshold
/// and an eval set it was applied to), as summary, per-species and curve tables.
public struct ScoreReport: Sendable {
    public struct SetResult: Sendable {
        /// `dev`, `eval`, or `all`.
        public var name: String
        public var curve: ErrorCurve
        public var point: OperatingPoint
        public var eer: EqualErrorRate
        public var bpcerAtAPCER: [(target: Double, threshold: Double, bpcer: Double)]
        public var auc: Double

        public init(name: String, curve: ErrorCurve, threshold: Double) {
            self.name = name
            self.curve = curve
            point = OperatingPoint(curve: curve, threshold: threshold)
            eer = EqualErrorRate(curve)
            bpcerAtAPCER = ReportTables.targets.map { x in
                let t = ThresholdSearch.lowestAttackScore(curve, apcerAtMost: x)
                return (x, t, curve.bpcer(curve.pointIndex(for: t)))
            }
            auc = areaUnderROC(curve)
        }
    }

    public var criterion: String
    public var threshold: Double
    /// Where the threshold came from: `fixed`, `dev`, or `eval (not calibrated: chosen on the reported set)`.
    public var thresholdSource: String
    public var sets: [SetResult]

    public init(criterion: String, threshold: Double, thresholdSource: String, sets: [SetResult]) {
        self.criterion = criterion
        self.threshold = threshold
        self.thresholdSource = thresholdSource
        self.sets = sets
    }

    static func n(_ v: Double) -> String { CSVFormat.number(v) }
    func n(_ v: Double) -> String { CSVFormat.number(v) }

    public var summary: ReportTables.Table {
        let header = ["set", "threshold", "criterion", "threshold_source", "n_bonafide", "n_attack", "n_failed",
                      "apcer_max", "apcer_max_species", "apcer_max_ci_low", "apcer_max_ci_high", "apcer_pooled",
                      "bpcer", "bpcer_ci_low", "bpcer_ci_high", "acer_nonconformant", "bpnrr", "apnrr", "bpcer_system",
                      "apcer_max_system", "eer", "eer_threshold", "eer_apcer_max", "eer_bpcer"]
            + ReportTables.targets.map { "bpcer@apcer=\(n($0))" } + ["auc"]
        let rows = sets.map { s -> [String] in
            let p = s.point, c = s.curve
            let failed = c.bonaFideFailed + c.attackFailed.reduce(0, +)
            return [s.name, n(threshold), criterion, thresholdSource, String(c.bonaFideCount + c.bonaFideFailed),
                    String(c.attackCount + c.attackFailed.reduce(0, +)), String(failed),
                    n(p.apcerMax.value), p.apcerMaxSpecies, n(p.apcerMax.interval.low), n(p.apcerMax.interval.high),
                    n(p.apcerPooled.value), n(p.bpcer.value), n(p.bpcer.interval.low), n(p.bpcer.interval.high), n(p.acer),
                    n(p.bpnrr.value), n(p.apnrr.value), n(p.bpcerSystem.value), n(p.apcerMaxSystem.value),
                    n(s.eer.value), n(s.eer.threshold), n(s.eer.apcerMax), n(s.eer.bpcer)]
                + s.bpcerAtAPCER.map { n($0.bpcer) } + [n(s.auc)]
        }
        return (header, rows)
    }

    public var perSpecies: ReportTables.Table {
        let header = ["set", "species", "n", "accepted", "apcer", "apcer_ci_low", "apcer_ci_high", "n_failed"]
        var rows: [[String]] = []
        for s in sets {
            let p = s.point
            for k in p.speciesNames.indices.sorted(by: { p.speciesNames[$0] < p.speciesNames[$1] }) {
                let rate = p.apcer[k], ci = rate.interval
                rows.append([s.name, p.speciesNames[k], String(rate.total), String(rate.errors), n(rate.value), n(ci.low), n(ci.high),
                             String(s.curve.attackFailed[k])])
            }
        }
        return (header, rows)
    }

    /// Streams the exact curve of every set: one row per distinct score (plus +inf).
    public func writeCurves(to path: String) throws {
        var species = Set<String>()
        for s in sets { species.formUnion(s.curve.speciesNames) }
        let names = species.sorted()
        let writer = try CSVWriter(path: path)
        try writer.writeRow(["set", "threshold", "bpcer", "apcer_max", "apcer_pooled"] + names.map { "apcer[\($0)]" })
        // Rows are formatted in blocks on all cores (number formatting dominates), then written in order.
        let block = 250_000
        let workers = max(1, ProcessInfo.processInfo.activeProcessorCount)
        for s in sets {
            let c = s.curve
            let columnOf = Dictionary(uniqueKeysWithValues: c.speciesNames.enumerated().map { ($1, $0) })
            let columns = names.map { columnOf[$0] }
            let blocks = (c.count + block - 1) / block
            var next = 0
            while next < blocks {
                let batch = min(workers, blocks - next)
                var chunks = Array(repeating: [UInt8](), count: batch)
                let firstBlock = next
                chunks.withUnsafeMutableBufferPointer { buffer in
                    nonisolated(unsafe) let out = buffer
                    DispatchQueue.concurrentPerform(iterations: batch) { j in
                        let first = (firstBlock + j) * block, last = min(c.count, first + block)
                        var bytes: [UInt8] = []
                        bytes.reserveCapacity((last - first) * 64)
                        var values = [Double](repeating: .nan, count: 4 + names.count)
                        for k in first..<last {
                            values[0] = c.thresholds[k]
                            values[1] = c.bpcer(k)
                            values[2] = c.apcerMax(k).value
                            values[3] = c.apcerPooled(k)
                            for (m, column) in columns.enumerated() { values[4 + m] = column.map { c.apcer($0, k) } ?? .nan }
                            values.withUnsafeBufferPointer { CSVFormat.appendNumberRow(prefix: s.name, $0, to: &bytes) }
                        }
                        out[j] = bytes
                    }
                }
                for chunk in chunks { try writer.writeRaw(chunk) }
                next += batch
            }
        }
        try writer.close()
    }
}

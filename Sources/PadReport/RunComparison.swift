import PadArchive
import PadMetrics

/// `padbench compare BASE NEW`: what changed between two runs on the same data, and whether it is
/// a regression that should fail CI.
///
/// ```swift
/// let comparison = try RunComparison(base: try StoredRun(path: a), new: try StoredRun(path: b))
/// exit(comparison.regressed ? 1 : 0)
/// ```
/// Accuracy (APCER_max and BPCER of every profile, each from its errors/N): a regression when the
/// rate rises by more than the tolerance (default 0.005, i.e. 0.5 percentage points) **and** the rise
/// is significant at 95%: the new rate's Clopper-Pearson interval lies entirely above the base
/// rate's (non-overlapping exact intervals, a conservative test). EER is reported, not gated (it has
/// no single count to test). Latency: a regression when a step's p50 grows by more than the ratio
/// (default 1.15) with at least `minSamples` timed samples on both sides. Profiles, species or
/// steps present on one side only are listed as missing, never read as zero.
public struct RunComparison: Sendable {
    public struct Check: Sendable {
        public var name: String          // "basic apcer_max", "timing face p50"
        public var base: Double
        public var new: Double
        public var regressed: Bool
        public var detail: String
    }

    public struct Settings: Sendable {
        public var rateTolerance: Double = 0.005
        public var latencyRatio: Double = 1.15
        public var minSamples: Int = 30
        public var allowDifferentDataset = false
        public init() {}
    }

    public let checks: [Check]
    public let missing: [String]
    public var regressed: Bool { checks.contains { $0.regressed } }

    public init(base: StoredRun, new: StoredRun, settings: Settings = Settings()) throws(ComparisonError) {
        if base.manifest.dataset.fingerprint != new.manifest.dataset.fingerprint && !settings.allowDifferentDataset {
            throw ComparisonError("archives are on different data (fingerprint \(base.manifest.dataset.fingerprint) vs \(new.manifest.dataset.fingerprint)); pass --allow-different-dataset to compare anyway")
        }
        let conventionKeys = ["polarity", "tie_rule", "apcer_headline", "target_rule", "eer_rule", "fta", "report_split"]
        for key in conventionKeys where base.manifest.conventions[key] != new.manifest.conventions[key] {
            throw ComparisonError("archives use different conventions for \(key): '\(base.manifest.conventions[key] ?? "none")' vs '\(new.manifest.conventions[key] ?? "none")'")
        }
        var checks: [Check] = []
        var missing: [String] = []
        let baseRows = base.rowsByKey, newRows = new.rowsByKey
        for key in Set(baseRows.keys).union(newRows.keys).sorted() {
            guard let b = baseRows[key], let n = newRows[key] else {
                missing.append("profile \(key): only in \(baseRows[key] == nil ? "NEW" : "BASE")")
                continue
            }
            for (rate, errors, total) in [("apcer_max", "apcer_max_errors", "apcer_max_n"), ("bpcer", "bpcer_errors", "bpcer_n")] {
                guard let be = Int(b[errors] ?? ""), let bn = Int(b[total] ?? ""), let ne = Int(n[errors] ?? ""), let nn = Int(n[total] ?? "") else {
                    missing.append("\(key) \(rate): counts missing on one side")
                    continue
                }
                let bp = Proportion(errors: be, total: bn), np = Proportion(errors: ne, total: nn)
                let rise = np.value - bp.value
                let significant = np.interval.low > bp.interval.high
                let regressed = rise > settings.rateTolerance && significant
                checks.append(Check(name: "\(key) \(rate)", base: bp.value, new: np.value, regressed: regressed,
                                    detail: "\(be)/\(bn) -> \(ne)/\(nn); new 95% CI [\(RateText.fixed(np.interval.low, 4)), \(RateText.fixed(np.interval.high, 4))] vs base [\(RateText.fixed(bp.interval.low, 4)), \(RateText.fixed(bp.interval.high, 4))]\(rise > settings.rateTolerance && !significant ? "; rise not significant" : "")"))
            }
            if let be = Double(b["eer"] ?? ""), let ne = Double(n["eer"] ?? "") {
                checks.append(Check(name: "\(key) eer", base: be, new: ne, regressed: false, detail: "reported, not gated"))
            }
        }
        if let bt = base.timing, let nt = new.timing {
            func rows(_ t: CSVTable) -> [String: [String]] { Dictionary(t.records.map { ($0.fields[0], $0.fields) }, uniquingKeysWith: { a, _ in a }) }
            let br = rows(bt), nr = rows(nt)
            let p50 = bt.column("p50_us") ?? 3, p99 = bt.column("p99_us") ?? 5, count = bt.column("count") ?? 1
            for step in Set(br.keys).union(nr.keys).sorted() {
                guard let b = br[step], let n = nr[step] else {
                    missing.append("timing \(step): only in \(br[step] == nil ? "NEW" : "BASE")")
                    continue
                }
                let bc = Int(b[count]) ?? 0, nc = Int(n[count]) ?? 0
                if let b50 = Double(b[p50]), let n50 = Double(n[p50]), b50 > 0 {
                    let enough = bc >= settings.minSamples && nc >= settings.minSamples
                    let ratio = n50 / b50
                    checks.append(Check(name: "timing \(step) p50_us", base: b50, new: n50, regressed: enough && ratio > settings.latencyRatio,
                                        detail: "x\(RateText.fixed(ratio, 3)) (limit x\(settings.latencyRatio))\(enough ? "" : "; fewer than \(settings.minSamples) samples, not gated")"))
                }
                if let b99 = Double(b[p99]), let n99 = Double(n[p99]), b99 > 0 {
                    checks.append(Check(name: "timing \(step) p99_us", base: b99, new: n99, regressed: false,
                                        detail: "x\(RateText.fixed(n99 / b99, 3)); reported, not gated"))
                }
            }
        } else if (base.timing == nil) != (new.timing == nil) {
            missing.append("timing.csv: only in \(base.timing == nil ? "NEW" : "BASE")")
        }
        self.checks = checks
        self.missing = missing
    }

    /// JUnit XML: one test case per check; a regression is a failure.
    public var junit: String {
        func escape(_ s: String) -> String {
            s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        }
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuite name=\"padbench compare\" tests=\"\(checks.count)\" failures=\"\(checks.filter(\.regressed).count)\">\n"
        for check in checks {
            xml += "  <testcase classname=\"padbench\" name=\"\(escape(check.name))\">"
            if check.regressed {
                xml += "<failure message=\"\(escape("\(check.base) -> \(check.new)"))\">\(escape(check.detail))</failure>"
            } else {
                xml += "<system-out>\(escape("\(check.base) -> \(check.new); \(check.detail)"))</system-out>"
            }
            xml += "</testcase>\n"
        }
        return xml + "</testsuite>\n"
    }
}

/// Archives that cannot be compared (exit code 2).
public struct ComparisonError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

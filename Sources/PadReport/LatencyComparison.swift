import PadArchive
import PadEvaluation
import PadMetrics

/// The latency half of ``RunComparison``: per timed step, every sample's stored nanoseconds on
/// both sides; the p50 and p99 ratios new / base with a distribution-free 95% interval. Each
/// quantile's interval is taken at 97.5% (``QuantileInterval``) and the ratio interval is
/// [new low / base high, new high / base low], so it covers the true ratio with at least 95%
/// (Bonferroni). A regression only when that whole interval lies above the limit, so one noisy
/// run does not fail CI.
struct LatencyComparison {
    var checks: [RunComparison.Check] = []
    var notes: [String] = []

    init(
        base: StoredRun, new: StoredRun, baseSamples: CSVTable?, newSamples: CSVTable?, settings: RunComparison.Settings
    ) throws {
        let baseTimes = try Self.times(baseSamples ?? (base.contains("samples.csv") ? base.table("samples.csv") : nil))
        let newTimes = try Self.times(newSamples ?? (new.contains("samples.csv") ? new.table("samples.csv") : nil))
        if baseTimes.isEmpty && newTimes.isEmpty {
            notes.append("no per-sample timing in either run (score or import runs): latency not gated")
            return
        }
        for step in Set(baseTimes.keys).union(newTimes.keys).sorted() {
            guard let b = baseTimes[step], let n = newTimes[step] else {
                notes.append("timing \(step): only in \(baseTimes[step] == nil ? "NEW" : "BASE"); not gated")
                continue
            }
            guard b.count >= settings.minSamples && n.count >= settings.minSamples else {
                notes.append(
                    "timing \(step): \(b.count) and \(n.count) timed samples, "
                        + "fewer than \(settings.minSamples); not gated"
                )
                continue
            }
            for (quantile, name) in [(0.5, "p50"), (0.99, "p99")] {
                let bq = QuantileInterval(sorted: b, quantile: quantile, confidence: 0.975)
                let nq = QuantileInterval(sorted: n, quantile: quantile, confidence: 0.975)
                guard bq.estimate > 0, bq.low > 0 else { continue }
                let ratio = nq.estimate / bq.estimate
                let low = nq.low / bq.high, high = nq.high / bq.low
                // A quantile the sample cannot bound (p99 needs n >= 436) is reported, not gated.
                let gated = bq.isBounded && nq.isBounded
                let regressed = gated && low > settings.latencyRatio
                checks.append(
                    .init(
                        name: "timing \(step) \(name)_us", base: bq.estimate / 1000, new: nq.estimate / 1000,
                        regressed: regressed,
                        gated: gated, test: gated ? "quantile-interval" : "reported",
                        detail:
                            "x\(RateText.fixed(ratio, 3)), 95% interval [x\(RateText.fixed(low, 3)), "
                            + "x\(RateText.fixed(high, 3))] (limit x\(settings.latencyRatio); n \(b.count)/"
                            + "\(n.count))\(gated ? "" : "; too few samples to bound this quantile, not gated")"
                    ))
            }
        }
    }

    /// Sorted per-sample nanoseconds by step (`decode`, each estimator, `sample_total`) from
    /// `samples.csv`'s timing columns (``SamplesSchema/timing``; an output whose name ends in `_ns`
    /// is no timing): only samples whose step ran (time > 0; decode of any sample).
    static func times(_ samples: CSVTable?) throws -> [String: [Double]] {
        guard let samples else { return [:] }
        var result: [String: [Double]] = [:]
        let schema = try SamplesSchema(header: samples.header, path: samples.path)
        guard !schema.timing.isEmpty else { return [:] }
        var total: [Double] = []
        for record in samples.records {
            var sum = 0.0
            var any = false
            for (step, nanoseconds) in schema.nanoseconds(record.fields) {
                guard let ns = nanoseconds, ns > 0 else { continue }
                result[step, default: []].append(Double(ns))
                sum += Double(ns)
                any = true
            }
            if any { total.append(sum) }
        }
        if !total.isEmpty { result["sample_total"] = total }
        return result.mapValues { $0.sorted() }
    }
}

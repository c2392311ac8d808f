import PadArchive
import PadEvaluation
import PadMetrics
import PadReport
import PadVocabulary

/// The latency half of ``RunComparison``: per timed step, every sample's stored nanoseconds on
/// both sides; the p50 and p99 ratios new / base with a distribution-free 95% interval. Each
/// quantile's interval is taken at 97.5% (``QuantileInterval``) and the ratio interval is
/// [new low / base high, new high / base low], so it covers the true ratio with at least 95%
/// (Bonferroni). A regression only when that whole interval lies above the limit, so one noisy
/// run does not fail CI.
///
/// Which clock: by default (``RunComparison/LatencyClock/cpu``) a step with CPU time on both
/// sides (`cpu.<step>_ns`: the measuring thread's `CLOCK_THREAD_CPUTIME_ID`) is gated on it and
/// its wall time is shown, not gated: wall time on a shared machine moves with the neighbours
/// (identical work read x2.04 then x0.64 on two runs); CPU time leaves out the waiting for a core,
/// though not a host that slows every instruction (see below). A step without CPU
/// time on both sides (an external program, a batched network, a run written before the
/// columns existed) is gated on wall time. `--latency-clock wall` gates wall time everywhere.
///
/// The machine's speed: each bench run times a fixed piece of work now and then (`timing.csv`'s
/// `reference` row, `SpeedProbe`). When the two runs' reference CPU p50 differ by more than
/// ``RunComparison/Settings/machineSpeedTolerance`` either way, the machine itself ran at another
/// speed (other tenants of a shared host slow every instruction, on every clock) and no step's
/// ratio can be told from it: every latency check is shown, not gated, with the reference's ratio.
/// Runs without the row (score, import and merged runs, older runs) are gated as they are.
struct LatencyComparison {
    var checks: [RunComparison.Check] = []
    var notes: [String] = []

    /// One run's per-sample times: per step, one entry per `samples.csv` row in file order (NaN
    /// where the step did not run), on the wall clock and on the CPU clock; and a hash of each
    /// row's id, to tell whether two runs hold the same samples in the same order.
    struct RowTimes {
        var ids: [UInt64] = []
        var wall: [String: [Double]] = [:]
        var cpu: [String: [Double]] = [:]

        /// The step's times that ran, sorted (for the quantiles).
        static func sorted(_ times: [Double]) -> [Double] { times.filter { !$0.isNaN }.sorted() }
    }

    /// `baseSamples`/`newSamples` and `baseTiming`/`newTiming`: the runs' `samples.csv` and
    /// `timing.csv` when already read (nil: read from the run).
    init(
        base: StoredRun, new: StoredRun, baseSamples: CSVTable?, newSamples: CSVTable?,
        baseTiming: CSVTable? = nil, newTiming: CSVTable? = nil, settings: RunComparison.Settings
    ) throws {
        let baseRows =
            try baseSamples ?? (base.contains(RunFile.samples.name) ? try base.table(RunFile.samples.name) : nil)
        let newRows = try newSamples ?? (new.contains(RunFile.samples.name) ? try new.table(RunFile.samples.name) : nil)
        let baseTimes = try Self.times(baseRows), newTimes = try Self.times(newRows)
        if baseTimes.wall.isEmpty && newTimes.wall.isEmpty {
            notes.append("no per-sample timing in either run (score or import runs): latency not gated")
            return
        }
        var speedNote = ""
        if let b = Self.referenceNanoseconds(baseTiming ?? base.timing),
            let n = Self.referenceNanoseconds(newTiming ?? new.timing)
        {
            let speed = n / b
            let tolerance = settings.machineSpeedTolerance
            if speed > tolerance || speed < 1 / tolerance {
                speedNote =
                    "not gated: the machine ran at another speed (reference work x\(RateText.fixed(speed, 3)) "
                    + "new / base, beyond x\(tolerance)); rerun"
                notes.append("latency \(speedNote)")
            }
        }
        let paired = !baseTimes.ids.isEmpty && baseTimes.ids == newTimes.ids
        for step in Set(baseTimes.wall.keys).union(newTimes.wall.keys).sorted() {
            guard let bRows = baseTimes.wall[step], let nRows = newTimes.wall[step] else {
                notes.append("timing \(step): only in \(baseTimes.wall[step] == nil ? "NEW" : "BASE"); not gated")
                continue
            }
            let b = RowTimes.sorted(bRows), n = RowTimes.sorted(nRows)
            guard b.count >= settings.minSamples && n.count >= settings.minSamples else {
                notes.append(
                    "timing \(step): \(b.count) and \(n.count) timed samples, "
                        + "fewer than \(settings.minSamples); not gated"
                )
                continue
            }
            var cpuGated = false
            let speedKnown = speedNote.isEmpty
            if settings.latencyClock == .cpu, let bc = baseTimes.cpu[step], let nc = newTimes.cpu[step],
                RowTimes.sorted(bc).count >= settings.minSamples && RowTimes.sorted(nc).count >= settings.minSamples
            {
                cpuGated = true
                quantileChecks(
                    step, clock: "cpu_", b: bc, n: nc, paired: paired, gate: speedKnown, settings: settings,
                    note: speedNote)
            }
            var why =
                cpuGated
                ? "wall clock, shown; gated on CPU time"
                : (settings.latencyClock == .cpu ? "wall clock: no CPU time of this step in both runs" : "")
            if !speedKnown && !cpuGated { why = [why, speedNote].filter { !$0.isEmpty }.joined(separator: "; ") }
            quantileChecks(
                step, clock: "", b: bRows, n: nRows, paired: paired, gate: !cpuGated && speedKnown, settings: settings,
                note: why)
        }
    }

    /// The p50 and p99 checks of one step on one clock (`clock` "cpu_" or "" for wall), from the
    /// per-row times of both runs.
    ///
    /// p50 of runs on the same samples in the same order (`paired`): the per-sample ratios
    /// r_i = new_i / base_i of the samples timed in both, their median with its distribution-free
    /// 95% interval (order statistics, ``QuantileInterval``). Pairing takes out how much samples
    /// differ from each other (a large image against a small one), which the unpaired interval
    /// carries: on the sample's 144 rows a step 1.5x slower gives a paired interval a few percent
    /// wide where the unpaired one spans about x1.2-x1.6.
    /// Otherwise, and for p99 always (a tail is not a per-sample property): each run's quantile
    /// with its 97.5% interval, the ratio interval [new low / base high, new high / base low]
    /// (Bonferroni: at least 95%).
    mutating func quantileChecks(
        _ step: String, clock: String, b bRows: [Double], n nRows: [Double], paired: Bool, gate: Bool,
        settings: RunComparison.Settings, note: String
    ) {
        let b = RowTimes.sorted(bRows), n = RowTimes.sorted(nRows)
        for (quantile, name) in [(0.5, "p50"), (0.99, "p99")] {
            let bq = QuantileInterval(sorted: b, quantile: quantile, confidence: 0.975)
            let nq = QuantileInterval(sorted: n, quantile: quantile, confidence: 0.975)
            guard bq.estimate > 0, bq.low > 0 else { continue }
            var ratio = nq.estimate / bq.estimate
            var low = nq.low / bq.high, high = nq.high / bq.low
            var bounded = bq.isBounded && nq.isBounded
            var how = ""
            if paired && quantile == 0.5 {
                let ratios = zip(bRows, nRows).compactMap { pair -> Double? in
                    pair.0 > 0 && pair.1 > 0 && !pair.0.isNaN && !pair.1.isNaN ? pair.1 / pair.0 : nil
                }.sorted()
                if ratios.count >= settings.minSamples {
                    let r = QuantileInterval(sorted: ratios, quantile: 0.5, confidence: 0.95)
                    (ratio, low, high, bounded) = (r.estimate, r.low, r.high, r.isBounded)
                    how = "median of \(ratios.count) per-sample ratios "
                }
            }
            // A quantile the sample cannot bound (p99 needs n >= 436) is reported, not gated.
            let gated = gate && bounded
            let regressed = gated && low > settings.latencyRatio
            var detail =
                "\(how)x\(RateText.fixed(ratio, 3)), 95% interval [x\(RateText.fixed(low, 3)), "
                + "x\(RateText.fixed(high, 3))] (limit x\(settings.latencyRatio); n \(b.count)/\(n.count))"
            if !bounded { detail += "; too few samples to bound this quantile, not gated" }
            if !note.isEmpty { detail += "; \(note)" }
            checks.append(
                .init(
                    name: "timing \(step) \(clock)\(name)_us", base: bq.estimate / 1000, new: nq.estimate / 1000,
                    regressed: regressed, gated: gated, test: gated ? "quantile-interval" : "reported", detail: detail))
        }
    }

    /// The reference work's CPU p50 in nanoseconds from `timing.csv`'s `reference` row, if any.
    static func referenceNanoseconds(_ timing: CSVTable?) -> Double? {
        guard let timing, let step = timing.header.firstIndex(of: "step"),
            let p50 = timing.header.firstIndex(of: "cpu_p50_us"),
            let row = timing.records.first(where: { $0.fields[step] == "reference" }),
            let us = Double(row.fields[p50]), us > 0
        else { return nil }
        return us * 1000
    }

    /// Per-row nanoseconds by step (`decode`, each estimator, `sample_total`) from `samples.csv`'s
    /// timing columns (``SamplesSchema/timing``; an output whose name ends in `_ns` is no timing):
    /// NaN where the step did not run (time 0; decode counts for any sample). `cpu`: the same from
    /// the `cpu.<step>_ns` columns; its `sample_total` only when every step has CPU time.
    static func times(_ samples: CSVTable?) throws -> RowTimes {
        guard let samples else { return RowTimes() }
        let schema = try SamplesSchema(header: samples.header, path: samples.path)
        guard !schema.timing.isEmpty else { return RowTimes() }
        let cpuColumn = Dictionary(
            schema.cpuTiming.map { c in
                (
                    String(
                        schema.header[c].dropFirst(SamplesSchema.cpuPrefix.count)
                            .dropLast(SamplesSchema.nanosecondsSuffix.count)), c
                )
            }, uniquingKeysWith: { a, _ in a })
        let everyCPU = schema.timing.count == cpuColumn.count
        var times = RowTimes()
        times.ids.reserveCapacity(samples.records.count)
        var total: [Double] = [], cpuTotal: [Double] = []
        for (row, record) in samples.records.enumerated() {
            let f = record.fields
            times.ids.append(FNV1a.hash(f[schema.id]))
            var sum = 0.0, cpuSum = 0.0
            var any = false
            for (step, nanoseconds) in schema.nanoseconds(f) {
                if times.wall[step] == nil { times.wall[step] = [Double](repeating: .nan, count: row) }
                if cpuColumn[step] != nil, times.cpu[step] == nil {
                    times.cpu[step] = [Double](repeating: .nan, count: row)
                }
                guard let ns = nanoseconds, ns > 0 else {
                    times.wall[step]!.append(.nan)
                    if cpuColumn[step] != nil { times.cpu[step]!.append(.nan) }
                    continue
                }
                times.wall[step]!.append(Double(ns))
                sum += Double(ns)
                any = true
                if let c = cpuColumn[step] {
                    let t = UInt64(f[c]).map { Double($0) } ?? .nan
                    times.cpu[step]!.append(t)
                    cpuSum += t.isNaN ? 0 : t
                }
            }
            total.append(any ? sum : .nan)
            cpuTotal.append(any && everyCPU ? cpuSum : .nan)
        }
        times.wall["sample_total"] = total
        times.cpu["sample_total"] = cpuTotal
        // A step that never ran (a score run's empty decode) has no timing.
        times.wall = times.wall.filter { $0.value.contains { !$0.isNaN } }
        times.cpu = times.cpu.filter { $0.value.contains { !$0.isNaN } }
        return times
    }
}

import PadArchive
import PadReport

/// What `bench` and `eval` print when they finish.
public enum TerminalTables {
    public static func profileTable(_ results: [ProfileResult]) -> String {
        let rows = results.flatMap { r in r.sets.map { (r, $0) } }.map { r, set -> [String] in
            let p = set.headline
            let apcer = p.map { RateText.proportion($0.apcerMax.value, low: $0.apcerMax.interval.low, high: $0.apcerMax.interval.high,
                                                    errors: $0.apcerMax.errors, total: $0.apcerMax.total) } ?? "n/a"
            let bpcer = p.map { RateText.proportion($0.bpcer.value, low: $0.bpcer.interval.low, high: $0.bpcer.interval.high,
                                                    errors: $0.bpcer.errors, total: $0.bpcer.total) } ?? "n/a"
            let eer = r.scoreMetrics.map { "\(RateText.fixed($0.eer.value, 4)) @ \(CSVFormat.number(r.shownThreshold($0.eer.threshold)))" } ?? "-"
            let threshold = r.scoreThreshold.map { CSVFormat.number(r.shownThreshold($0)) } ?? ""
            return [r.profile.name, set.split, "\(set.bonaFideCount)/\(set.attackCount)/\(set.failedCount)", apcer,
                    p?.apcerMaxSpecies ?? "", bpcer, threshold, eer]
        }
        return TextTable(header: ["profile", "split", "bf/att/failed", "APCER_max [95% CI] n", "species", "BPCER [95% CI] n",
                                  "threshold", "EER @ t (score)"], rows: rows).render()
    }

    public static func benchSummary(_ outcome: BenchRunner.Outcome) -> String {
        let timingRows = outcome.timing.map { step in
            [step.name, String(step.summary.count), RateText.fixed(step.summary.meanNanoseconds / 1e6, 2),
             RateText.fixed(Double(step.summary.p50Nanoseconds) / 1e6, 2), RateText.fixed(Double(step.summary.p99Nanoseconds) / 1e6, 2),
             RateText.fixed(Double(step.coldStartNanoseconds) / 1e6, 1)]
        }
        let n = outcome.table.count, failed = outcome.table.failedCount
        return """
            \(profileTable(outcome.results))

            \(TextTable(header: ["step", "count", "mean ms", "p50 ms", "p99 ms", "cold start ms"], rows: timingRows).render())

            samples \(n) = ok \(n - failed) + failed \(failed); wall \(RateText.fixed(outcome.wallSeconds, 2)) s, \
            \(RateText.fixed(Double(n - outcome.resumedSamples) / outcome.wallSeconds, 1)) images/s measured in this session
            run folder: \(outcome.folder)
            archive:    \(outcome.archivePath)
            """
    }
}


extension TerminalTables {
    /// Notes worth a person's attention, for standard error: one line per profile naming the gates
    /// left out or replaced by an approximation (and saying when the rates are therefore not a
    /// liveness decision), then one line per other note (calibration that cannot resolve its target
    /// or could not run, targets not met).
    public static func warnings(_ results: [ProfileResult]) -> [String] {
        results.flatMap { r -> [String] in
            let gateNotes = r.notes.filter { $0.hasPrefix("gates left out") || $0.hasPrefix("approximated on") }
            var lines: [String] = []
            if !gateNotes.isEmpty || !r.isLivenessDecision {
                let verdict = r.isLivenessDecision ? "" : "; its rates are not a liveness decision"
                lines.append("profile \(r.profile.name): \(gateNotes.joined(separator: "; "))\(verdict)")
            }
            lines += r.notes.filter { !gateNotes.contains($0) && !$0.hasPrefix("skipped (not measurable") && !$0.hasPrefix("scores are attack-high") }
                .map { "profile \(r.profile.name): \($0)" }
            return lines
        }
    }
}

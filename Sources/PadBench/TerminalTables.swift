import PadReport

/// What `bench` and `eval` print when they finish.
public enum TerminalTables {
    public static func profileTable(_ results: [ProfileResult]) -> String {
        let rows = results.map { r -> [String] in
            let p = r.headline
            let apcer = p.map { RateText.proportion($0.apcerMax.value, low: $0.apcerMax.interval.low, high: $0.apcerMax.interval.high,
                                                    errors: $0.apcerMax.errors, total: $0.apcerMax.total) } ?? "n/a"
            let bpcer = p.map { RateText.proportion($0.bpcer.value, low: $0.bpcer.interval.low, high: $0.bpcer.interval.high,
                                                    errors: $0.bpcer.errors, total: $0.bpcer.total) } ?? "n/a"
            let eer = r.scoreMetrics.map { "\(RateText.fixed($0.eer.value, 4)) @ \(RateText.fixed($0.eer.threshold, 4))" } ?? "-"
            return [r.profile.name, r.split, "\(r.bonaFideCount)/\(r.attackCount)/\(r.failedCount)", apcer,
                    p?.apcerMaxSpecies ?? "", bpcer, eer]
        }
        return TextTable(header: ["profile", "split", "bf/att/failed", "APCER_max [95% CI] n", "species", "BPCER [95% CI] n",
                                  "EER @ t (score)"], rows: rows).render()
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
            \(RateText.fixed(Double(n) / outcome.wallSeconds, 1)) images/s
            run folder: \(outcome.folder)
            archive:    \(outcome.archivePath)
            """
    }
}

extension TerminalTables {
    public static func scoreTable(_ report: ScoreReport) -> String {
        let rows = report.sets.map { s -> [String] in
            let p = s.point
            return [s.name, "\(p.bpcer.total)/\(p.apcerPooled.total)",
                    RateText.proportion(p.apcerMax.value, low: p.apcerMax.interval.low, high: p.apcerMax.interval.high,
                                        errors: p.apcerMax.errors, total: p.apcerMax.total), p.apcerMaxSpecies,
                    RateText.proportion(p.bpcer.value, low: p.bpcer.interval.low, high: p.bpcer.interval.high,
                                        errors: p.bpcer.errors, total: p.bpcer.total),
                    "\(RateText.fixed(s.eer.value, 4)) @ \(RateText.fixed(s.eer.threshold, 4))",
                    RateText.fixed(s.bpcerAtAPCER[0].bpcer, 4), RateText.fixed(s.auc, 4)]
        }
        return "threshold \(report.threshold) (\(report.criterion), chosen on \(report.thresholdSource))\n"
            + TextTable(header: ["set", "bf/att", "APCER_max [95% CI] n", "species", "BPCER [95% CI] n", "EER @ t",
                                 "BPCER@APCER=1%", "AUC"], rows: rows).render()
    }
}

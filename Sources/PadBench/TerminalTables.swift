import PadArchive
import PadEvaluation
import PadMetrics
import PadReport

/// What `bench` and `eval` print when they finish.
package enum TerminalTables {
    /// One row per profile and split; rates as percent with the count and the 95% Clopper-Pearson
    /// interval, `25.0% (5/20) [8.7%, 49.1%]` (the unit report.html uses).
    /// Capture checks (``PadProfiles/Profile/isCaptureOnly``) get a table of their own, of capture
    /// reject rates: an APCER headline on a profile without a liveness gate reads as liveness.
    package static func profileTable(_ results: [ProfileResult]) -> String {
        let liveness = results.filter { !$0.profile.isCaptureOnly }
        let capture = results.filter(\.profile.isCaptureOnly)
        return ([liveness.isEmpty ? nil : livenessTable(liveness), capture.isEmpty ? nil : captureTable(capture)])
            .compactMap { $0 }.joined(separator: "\n\n")
    }

    /// `capture checks (no liveness gate): ...`: per capture profile and split, the share of bona fide
    /// presentations and of attacks the checks reject, and the EER of its swept score if any.
    static func captureTable(_ results: [ProfileResult]) -> String {
        let rows = results.flatMap { r in r.sets.map { (r, $0) } }.map { r, set -> [String] in
            let p = set.headline
            let bonaFide = p.map { rate($0.bpcer) } ?? "n/a"
            let attacks =
                p.map {
                    rate(Proportion(errors: $0.apcerPooled.total - $0.apcerPooled.errors, total: $0.apcerPooled.total))
                } ?? "n/a"
            let metrics = set.split == r.reported.split ? r.scoreMetrics : nil
            let eer = metrics.map { "\(RateText.percent($0.eer.value)) (\(r.profile.score ?? ""))" } ?? "-"
            let marks = r.gatesLeftOut.isEmpty ? "" : "left out: \(r.gatesLeftOut.joined(separator: ","))"
            return [r.profile.name, set.split, partition(set), bonaFide, attacks, eer, marks]
        }
        return "capture checks (no liveness gate: the share each class's checks reject, not APCER / BPCER):\n"
            + TextTable(
                header: [
                    "profile", "split", "bf+att+failed", "bona fide rejected (n) [95% CI]",
                    "attacks rejected (n) [95% CI]", "EER of score", "marks",
                ], rows: rows
            ).render()
    }

    static func livenessTable(_ results: [ProfileResult]) -> String {
        let rows = results.flatMap { r in r.sets.map { (r, $0) } }.map { r, set -> [String] in
            let p = set.headline
            let apcer = p.map { rate($0.apcerMax) } ?? "n/a"
            let bpcer = p.map { rate($0.bpcer) } ?? "n/a"
            let metrics = set.split == r.reported.split ? r.scoreMetrics : nil
            let eer =
                metrics.map {
                    "\(RateText.percent($0.eer.value)) at \(RateText.threshold(r.shownThreshold($0.eer.threshold)))"
                } ?? "-"
            // A left-out gate's threshold is not the profile's: it decided nothing.
            let scoreLeftOut = r.profile.score.map(r.gatesLeftOut.contains) ?? false
            let threshold =
                scoreLeftOut ? "left out" : r.scoreThreshold.map { RateText.threshold(r.shownThreshold($0)) } ?? ""
            return [
                r.profile.name, set.split, partition(set), apcer, p?.apcerMaxSpecies ?? "", bpcer, threshold, eer,
                marks(r),
            ]
        }
        return TextTable(
            header: [
                "profile", "split", "bf+att+failed", "APCER_max (n) [95% CI]", "species", "BPCER (n) [95% CI]",
                "threshold", "EER at t (score)", "marks",
            ], rows: rows
        ).render()
    }

    /// Processed bona fide + processed attacks + failed: three parts that add up to the split.
    static func partition(_ set: ProfileResult.SetResult) -> String {
        let failedBonaFide = set.bonaFideFailedCount
        let bonaFide = set.bonaFideCount - failedBonaFide
        let attacks = set.attackCount - (set.failedCount - failedBonaFide)
        return "\(bonaFide)+\(attacks)+\(set.failedCount)"
    }

    /// Gates left out and "not a liveness decision", on the row itself.
    static func marks(_ r: ProfileResult) -> String {
        var marks: [String] = []
        if !r.isLivenessDecision { marks.append("NOT a liveness decision") }
        if !r.gatesLeftOut.isEmpty { marks.append("left out: \(r.gatesLeftOut.joined(separator: ","))") }
        if r.notes.contains(where: \.isCheck) { marks.append("see warnings") }
        return marks.joined(separator: "; ")
    }

    /// `25.0% (5/20) [8.7%, 49.1%]`, or "n/a" without samples.
    static func rate(_ p: Proportion) -> String {
        guard p.total > 0 else { return "n/a" }
        return
            "\(RateText.percentWithCount(errors: p.errors, total: p.total)) "
            + "\(RateText.percentInterval(p.interval.low, p.interval.high))"
    }

    package static func benchSummary(_ outcome: BenchRunner.Outcome) -> String {
        let timingRows = outcome.timing.map { step in
            [
                step.name, String(step.summary.count), RateText.fixed(step.summary.meanNanoseconds / 1e6, 2),
                RateText.fixed(Double(step.summary.p50Nanoseconds) / 1e6, 2),
                RateText.fixed(Double(step.summary.p99Nanoseconds) / 1e6, 2),
                RateText.fixed(Double(step.coldStartNanoseconds) / 1e6, 1),
            ]
        }
        let n = outcome.table.count, failed = outcome.table.failedCount
        let timingTable = TextTable(
            header: ["step", "count", "mean ms", "p50 ms", "p99 ms", "cold start ms"], rows: timingRows
        ).render()
        return """
            \(profileTable(outcome.results))

            \(timingTable)

            samples \(n) = ok \(n - failed) + failed \(failed); wall \(RateText.fixed(outcome.wallSeconds, 2)) s, \
            \(sessionRate(outcome))
            run folder: \(outcome.folder)
            archive:    \(outcome.archivePath)
            """
    }
}

extension TerminalTables {
    /// The speed of this session, true for a resumed run too: a fresh run's images/s over its whole
    /// wall time (as before); a resumed run's over the samples it measured itself and the seconds it
    /// spent measuring them (its wall time also takes over the journal and decides every sample), and
    /// how many samples the journal gave; a resume that had nothing left to measure says so.
    static func sessionRate(_ outcome: BenchRunner.Outcome) -> String {
        let measured = outcome.table.count - outcome.resumedSamples
        guard outcome.resumedSamples > 0 else {
            return "\(RateText.fixed(Double(measured) / outcome.wallSeconds, 1)) images/s measured in this session"
        }
        let takenOver = "\(outcome.resumedSamples) taken over from the journal"
        guard measured > 0 else { return "no samples measured in this session; \(takenOver)" }
        let rate = Double(measured) / max(outcome.measureSeconds, 1e-9)
        // Three decimals below 1 image/s: a slow resume of a few samples never reads "0.0 images/s".
        return
            "\(measured) samples measured in this session (\(RateText.fixed(rate, rate < 1 ? 3 : 1)) "
            + "images/s over \(RateText.fixed(outcome.measureSeconds, 3)) s of measuring), \(takenOver)"
    }

    /// Notes worth a person's attention, for standard error: one line per profile naming the gates
    /// left out or replaced by an approximation (and saying when the rates are therefore not a
    /// liveness decision), then one line per other note (calibration that cannot resolve its target
    /// or could not run, targets not met).
    package static func warnings(_ results: [ProfileResult]) -> [String] {
        results.flatMap { r -> [String] in
            let gateNotes = r.notes.filter(\.isAboutGates).map(\.text)
            var lines: [String] = []
            // A capture check is no liveness decision by design: its own table says so.
            let notLiveness = !r.isLivenessDecision && !r.profile.isCaptureOnly
            if !gateNotes.isEmpty || notLiveness {
                let verdict = notLiveness ? "its rates are not a liveness decision" : ""
                lines.append(
                    "profile \(r.profile.name): "
                        + (gateNotes + [verdict]).filter { !$0.isEmpty }.joined(separator: "; "))
            }
            lines += r.notes.filter { note in
                switch note {
                case .gatesLeftOut, .approximated, .skipped, .attackHighScores, .presentations: false
                // A fused score that trained is information; one that could not train is a warning.
                case .fusion(_, let outcome): outcome.trained == nil
                default: true
                }
            }
            .map { "profile \(r.profile.name): \($0.text)" }
            return lines
        }
    }

    /// What a normal run's rates count (a video dataset's presentations and their frame rule) and
    /// the weights a fused score was trained with: information, not a warning; one line per note.
    package static func information(_ results: [ProfileResult]) -> [String] {
        results.flatMap { r in
            r.notes.filter { note in
                switch note {
                case .presentations: true
                case .fusion(_, let outcome): outcome.trained != nil
                default: false
                }
            }.map { "profile \(r.profile.name): \($0.text)" }
        }
    }
}

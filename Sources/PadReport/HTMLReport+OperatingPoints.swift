import PadEvaluation
import PadMetrics

extension HTMLReport {
    /// The operating points of each profile's swept score on the reported split, each with its
    /// threshold (chosen on that split): bob.pad.base's BPCER@APCER (a species' attack score), the
    /// best BPCER with APCER_max <= x (BPCER100/20/10: the lowest threshold meeting x, what the DET
    /// marker shows), APCER_max at BPCER <= x, the EER (APCER_max and pooled), and bob's HTER of the
    /// profile's decision ((APCER pooled + BPCER) / 2 at its thresholds: on eval, the dev ones).
    func operatingPointsTable() -> String {
        var rows: [[String]] = []
        for r in results {
            guard let m = r.scoreMetrics else { continue }
            func add(_ name: String, _ value: String, _ threshold: Double?) {
                rows.append([
                    r.profile.name, name, value, threshold.map { RateText.threshold(r.shownThreshold($0)) } ?? "-",
                ])
            }
            func rate(_ t: ProfileResult.Target) -> String { t.targetMet ? Self.pct(t.rate) : "out of reach" }
            for (bob, best) in zip(m.bpcerAtAPCER, m.bestBPCERAtAPCER) {
                add(
                    "\(ProfileResult.isoName(best.target).uppercased()): best BPCER, APCER_max <= \(Self.pct(best.target))",
                    rate(best), best.targetMet ? best.threshold : nil)
                add(
                    "BPCER@APCER=\(Self.pct(bob.target)), bob.pad.base rule", rate(bob),
                    bob.targetMet ? bob.threshold : nil)
            }
            for t in m.apcerAtBPCER {
                add("APCER_max @ BPCER <= \(Self.pct(t.target))", rate(t), t.targetMet ? t.threshold : nil)
            }
            add("EER (APCER_max)", Self.pct(m.eer.value), m.eer.threshold)
            if let pooled = m.pooledEER {
                add("EER (pooled attacks, bob.pad.base)", Self.pct(pooled.value), pooled.threshold)
            }
            add("AUC (ROC area, sklearn roc_auc_score)", RateText.fixed(m.auc, 4), nil)
            if let d = m.decidability, !d.value.isNaN {
                add("d' (decidability, pyeer)", RateText.fixed(d.value, 3), nil)
            }
            if let zero = m.zeroErrorPoints {
                let (a, b) = (zero.bpcerAtZeroAPCER, zero.apcerAtZeroBPCER)
                add(
                    "BPCER @ APCER pooled = \(Self.pct(a.apcerPooled.value)) (pyeer ZeroFMR)", Self.rate(a.bpcer),
                    a.threshold)
                add(
                    "APCER pooled @ BPCER = \(Self.pct(b.bpcer.value)) (pyeer ZeroFNMR)", Self.rate(b.apcerPooled),
                    b.threshold)
            }
            if let p = r.headline {
                add(
                    "HTER of the decision, pooled attacks (bob)", Self.pct(Proportion.mean(p.apcerPooled, p.bpcer)), nil
                )
            }
        }
        guard !rows.isEmpty else { return "" }
        return
            "<h2>Operating points</h2>\n<p class=\"meta\">On split \(Self.e(results[0].split)), each threshold "
            + "chosen on that split's swept score (the decision's HTER uses the profile's own thresholds). "
            + "BPCER100, BPCER20 and BPCER10 are the best BPCER with APCER_max at most 1%, 5% and 10% (the lowest "
            + "threshold meeting the target, the DET marker); bob.pad.base's BPCER@APCER puts the threshold on a "
            + "species' attack score and can be higher at the same APCER. d' = |mean bona fide - mean attack| / "
            + "sqrt((var bona fide + var attack) / 2), population variances, attacks pooled (pyeer). pyeer's "
            + "ZeroFMR is the BPCER where pooled APCER first reaches its lowest value (0 unless an attack holds "
            + "the highest score), its ZeroFNMR the pooled APCER where BPCER is last at its lowest.</p>\n"
            + HTMLPage.table(["profile", "operating point", "value", "threshold"], rows, numeric: [2, 3])
    }
}

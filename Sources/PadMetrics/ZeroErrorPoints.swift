/// pyeer's ZeroFMR and ZeroFNMR operating points in PAD terms, with pyeer 0.5.6's exact rules
/// (`pyeer.eer_info.get_eer_stats`, `pyeer.eer_stats.calculate_roc`, `get_fmr_op`,
/// `get_fnmr_op`). pyeer's genuine class is bona fide and its impostors are every attack species
/// pooled, so FMR reads as pooled APCER and FNMR as BPCER:
///
/// - ``bpcerAtZeroAPCER`` (pyeer's ZeroFMR, "the lowest FNMR at which no false matches occur"):
///   `argmin |FMR - 0|`, the first index on ties, over pyeer's thresholds in ascending order. FMR
///   only falls as the threshold rises, so this is the lowest threshold at which pooled APCER
///   reaches its minimum over those thresholds, where BPCER is the lowest.
/// - ``apcerAtZeroBPCER`` (pyeer's ZeroFNMR, "the lowest FMR at which no non-false matches
///   occur"): `argmin |FNMR - 0|`, the last index on ties: the highest threshold with the lowest
///   BPCER, i.e. the lowest bona fide score, where pooled APCER is the lowest.
///
/// ```swift
/// let zero = try ZeroErrorPoints(try ErrorCurve(set))
/// print(zero.bpcerAtZeroAPCER.bpcer.value, zero.bpcerAtZeroAPCER.threshold)
/// ```
/// pyeer's thresholds are the distinct scores (`np.unique`), a sample accepted when score >= t
/// (`calculate_roc` counts FNM as genuine scores < t, FM as impostor scores >= t), padbench's rule;
/// tied scores move together. They are the ``ErrorCurve``'s points without its terminal one (the
/// threshold above the highest score, where nothing is accepted). So where the wording of pyeer's
/// definition and its code part:
/// - when the highest score is an attack's (alone or tied with bona fide), no threshold pyeer scans
///   accepts no attack: pyeer reports the point at the highest score, with its pooled APCER above 0
///   (1/45 on Fixtures/golden/roc_ties_nan), not "BPCER at APCER = 0" (which would be BPCER = 1 at
///   the terminal threshold). ``Point/apcerPooled`` says which: `errors == 0` when APCER 0 is
///   reached. The same holds for BPCER: with samples rejected at every threshold
///   (``ScoreSet/appendRejectedAtEveryThreshold(species:)``, which pyeer does not have) BPCER never
///   reaches 0 and the minimum is taken, by the same rule.
/// - at BPCER = 0 the pooled APCER is reported (pyeer has one impostor class); APCER_max at the
///   threshold is ``ErrorCurve/apcerMax(_:)`` at ``Point/point``. At APCER = 0 pooled and max are
///   both 0.
/// NaN scores (failures to process) are left out, as the curve leaves them out.
package struct ZeroErrorPoints: Sendable, Equatable {
    package struct Point: Sendable, Equatable {
        /// The score the point's threshold is (a sample is accepted when score >= threshold).
        package let threshold: Double
        /// The point's index in the ``ErrorCurve``.
        package let point: Int
        /// Attacks of every species accepted, of processed attacks (pyeer's FMR).
        package let apcerPooled: Proportion
        /// Bona fide rejected, of processed bona fide (pyeer's FNMR).
        package let bpcer: Proportion
    }

    /// pyeer's ZeroFMR point (`fmr0`, `fmr0_th`): BPCER is ``Point/bpcer``.
    package let bpcerAtZeroAPCER: Point
    /// pyeer's ZeroFNMR point (`fnmr0`, `fnmr0_th`): APCER is ``Point/apcerPooled``.
    package let apcerAtZeroBPCER: Point

    /// - Throws: ``MetricsError/noBonaFide`` or ``MetricsError/noAttacks`` when a class has no
    ///   processed sample (pyeer's rates are then 0 / 0).
    package init(_ curve: ErrorCurve) throws(MetricsError) {
        try curve.requireBothClasses()
        let scorePoints = curve.hasTerminalPoint ? curve.count - 1 : curve.count
        // Rates are counts over one fixed denominator each, so the argmin over rates is the argmin
        // over counts. Accepted attacks never rise and rejected bona fide never fall with k.
        let fewestAccepted = curve.pooledAccepted[scorePoints - 1]
        let zeroAPCER = (0..<scorePoints).first { curve.pooledAccepted[$0] == fewestAccepted }!
        let fewestRejected = curve.bonaFideRejected[0]
        let zeroBPCER = (0..<scorePoints).last { curve.bonaFideRejected[$0] == fewestRejected }!
        func point(_ k: Int) -> Point {
            Point(
                threshold: curve.thresholds[k], point: k,
                apcerPooled: Proportion(errors: curve.pooledAccepted[k], total: curve.attackCount),
                bpcer: Proportion(errors: curve.bonaFideRejected[k], total: curve.bonaFideCount))
        }
        bpcerAtZeroAPCER = point(zeroAPCER)
        apcerAtZeroBPCER = point(zeroBPCER)
    }
}

/// Every ISO/IEC 30107-3 rate of a score set at one threshold, with counts and 95% Clopper-Pearson
/// intervals, and the failure (non-response) view beside it.
///
/// ```swift
/// let point = OperatingPoint(curve: try ErrorCurve(set), threshold: 0.5)
/// let (apcerMax, worstSpecies, bpcer) = (point.apcerMax.value, point.apcerMaxSpecies, point.bpcer.value)
/// ```
/// Headline rates (`apcer`, `apcerMax`, `apcerPooled`, `bpcer`) are over processed samples
/// (failures left out, as bob.measure does after dropping NaN scores). Non-response rates:
/// `bpnrr` = failed bona fide / all bona fide, `apnrr` = failed attacks / all attacks. System view:
/// `bpcerSystem` = (failed + rejected bona fide) / all bona fide; `apcerMaxSystem` = max over
/// species of accepted / all attacks of the species (a failed attack is not accepted).
/// ACER = (APCER_max + BPCER) / 2 is reported but is not part of the current standard
/// (ISO/IEC 30107-3:2023 removed it).
package struct OperatingPoint: Sendable {
    package var threshold: Double
    package var bpcer: Proportion
    /// Per species, in the order of `speciesNames`.
    package var apcer: [Proportion]
    package var speciesNames: [String]
    package var apcerMax: Proportion
    /// The species attaining APCER_max (the first in name order on ties); empty if none.
    package var apcerMaxSpecies: String
    /// Over all attacks together: labelled "pooled", not the ISO headline.
    package var apcerPooled: Proportion
    package var acer: Double
    package var bpnrr: Proportion
    package var apnrr: Proportion
    package var bpcerSystem: Proportion
    package var apcerMaxSystem: Proportion
    package var apcerMaxSystemSpecies: String

    package init(curve: ErrorCurve, threshold: Double) {
        let k = curve.pointIndex(for: threshold)
        self.init(
            threshold: threshold,
            counts: Counts(
                speciesNames: curve.speciesNames, bonaFide: curve.bonaFideCount,
                bonaFideRejected: curve.bonaFideRejected[k],
                attacks: curve.attackCounts, attacksAccepted: curve.speciesNames.indices.map { curve.accepted($0, k) },
                bonaFideFailed: curve.bonaFideFailed, attacksFailed: curve.attackFailed))
    }

    /// What an operating point is computed from: processed counts by class and the errors at the
    /// threshold, plus failures. A profile's accept/reject decisions give these directly, with no
    /// curve to sort.
    package struct Counts: Sendable, Equatable {
        package var speciesNames: [String]
        package var bonaFide: Int
        package var bonaFideRejected: Int
        /// Processed attacks and those accepted, by species (parallel to `speciesNames`).
        package var attacks: [Int]
        package var attacksAccepted: [Int]
        package var bonaFideFailed: Int
        package var attacksFailed: [Int]

        package init(
            speciesNames: [String], bonaFide: Int = 0, bonaFideRejected: Int = 0, attacks: [Int]? = nil,
            attacksAccepted: [Int]? = nil, bonaFideFailed: Int = 0, attacksFailed: [Int]? = nil
        ) {
            let zeros = [Int](repeating: 0, count: speciesNames.count)
            self.speciesNames = speciesNames
            self.bonaFide = bonaFide
            self.bonaFideRejected = bonaFideRejected
            self.attacks = attacks ?? zeros
            self.attacksAccepted = attacksAccepted ?? zeros
            self.bonaFideFailed = bonaFideFailed
            self.attacksFailed = attacksFailed ?? zeros
        }

        /// Processed samples of both classes.
        package var processed: Int { bonaFide + attacks.reduce(0, +) }
    }

    package init(threshold: Double, counts c: Counts) {
        self.threshold = threshold
        bpcer = Proportion(errors: c.bonaFideRejected, total: c.bonaFide)
        speciesNames = c.speciesNames
        apcer = c.speciesNames.indices.map { Proportion(errors: c.attacksAccepted[$0], total: c.attacks[$0]) }
        // Max by value, ties broken by species name so that reports are stable.
        let order = c.speciesNames.indices.sorted { c.speciesNames[$0] < c.speciesNames[$1] }
        var best: Int?
        for s in order where c.attacks[s] > 0 {
            if best == nil || apcer[s].value > apcer[best!].value { best = s }
        }
        let rates = apcer
        apcerMax = best.map { rates[$0] } ?? Proportion(errors: 0, total: 0)
        apcerMaxSpecies = best.map { c.speciesNames[$0] } ?? ""
        let attackCount = c.attacks.reduce(0, +)
        apcerPooled = Proportion(errors: c.attacksAccepted.reduce(0, +), total: attackCount)
        acer = Proportion.mean(apcerMax, bpcer)
        let allBonaFide = c.bonaFide + c.bonaFideFailed
        let failedAttacks = c.attacksFailed.reduce(0, +)
        bpnrr = Proportion(errors: c.bonaFideFailed, total: allBonaFide)
        apnrr = Proportion(errors: failedAttacks, total: attackCount + failedAttacks)
        bpcerSystem = Proportion(errors: c.bonaFideRejected + c.bonaFideFailed, total: allBonaFide)
        var bestSystem: Int?
        let systemRates = c.speciesNames.indices.map {
            Proportion(errors: c.attacksAccepted[$0], total: c.attacks[$0] + c.attacksFailed[$0])
        }
        for s in order where systemRates[s].total > 0 {
            if bestSystem == nil || systemRates[s].value > systemRates[bestSystem!].value { bestSystem = s }
        }
        apcerMaxSystem = bestSystem.map { systemRates[$0] } ?? Proportion(errors: 0, total: 0)
        apcerMaxSystemSpecies = bestSystem.map { c.speciesNames[$0] } ?? ""
    }
}

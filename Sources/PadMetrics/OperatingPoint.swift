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
public struct OperatingPoint: Sendable {
    public var threshold: Double
    public var bpcer: Proportion
    /// Per species, in the order of `speciesNames`.
    public var apcer: [Proportion]
    public var speciesNames: [String]
    public var apcerMax: Proportion
    /// The species attaining APCER_max (the first in name order on ties); empty if none.
    public var apcerMaxSpecies: String
    /// Over all attacks together: labelled "pooled", not the ISO headline.
    public var apcerPooled: Proportion
    public var acer: Double
    public var bpnrr: Proportion
    public var apnrr: Proportion
    public var bpcerSystem: Proportion
    public var apcerMaxSystem: Proportion
    public var apcerMaxSystemSpecies: String

    public init(curve: ErrorCurve, threshold: Double) {
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
    public struct Counts: Sendable, Equatable {
        public var speciesNames: [String]
        public var bonaFide: Int
        public var bonaFideRejected: Int
        /// Processed attacks and those accepted, by species (parallel to `speciesNames`).
        public var attacks: [Int]
        public var attacksAccepted: [Int]
        public var bonaFideFailed: Int
        public var attacksFailed: [Int]

        public init(
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
        public var processed: Int { bonaFide + attacks.reduce(0, +) }
    }

    public init(threshold: Double, counts c: Counts) {
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

/// Every ISO/IEC 30107-3 rate of a score set at one threshold, with counts and 95% Clopper-Pearson
/// intervals, and the failure (non-response) view beside it.
///
/// ```swift
/// let point = OperatingPoint(curve: try ErrorCurve(set), threshold: 0.5)
/// point.apcerMax.value, point.apcerMaxSpecies, point.bpcer.value
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
        self.threshold = threshold
        bpcer = Proportion(errors: curve.bonaFideRejected[k], total: curve.bonaFideCount)
        speciesNames = curve.speciesNames
        apcer = curve.speciesNames.indices.map { Proportion(errors: curve.accepted($0, k), total: curve.attackCounts[$0]) }
        // Max by value, ties broken by species name so that reports are stable.
        let order = curve.speciesNames.indices.sorted { curve.speciesNames[$0] < curve.speciesNames[$1] }
        var best: Int?
        for s in order where curve.attackCounts[s] > 0 {
            if best == nil || apcer[s].value > apcer[best!].value { best = s }
        }
        let rates = apcer
        apcerMax = best.map { rates[$0] } ?? Proportion(errors: 0, total: 0)
        apcerMaxSpecies = best.map { curve.speciesNames[$0] } ?? ""
        apcerPooled = Proportion(errors: curve.pooledAccepted[k], total: curve.attackCount)
        acer = (apcerMax.value + bpcer.value) / 2
        let allBonaFide = curve.bonaFideCount + curve.bonaFideFailed
        let failedAttacks = curve.attackFailed.reduce(0, +)
        bpnrr = Proportion(errors: curve.bonaFideFailed, total: allBonaFide)
        apnrr = Proportion(errors: failedAttacks, total: curve.attackCount + failedAttacks)
        bpcerSystem = Proportion(errors: curve.bonaFideRejected[k] + curve.bonaFideFailed, total: allBonaFide)
        var bestSystem: Int?
        var systemRates: [Proportion] = []
        for s in curve.speciesNames.indices {
            systemRates.append(Proportion(errors: curve.accepted(s, k), total: curve.attackCounts[s] + curve.attackFailed[s]))
        }
        for s in order where systemRates[s].total > 0 {
            if bestSystem == nil || systemRates[s].value > systemRates[bestSystem!].value { bestSystem = s }
        }
        apcerMaxSystem = bestSystem.map { systemRates[$0] } ?? Proportion(errors: 0, total: 0)
        apcerMaxSystemSpecies = bestSystem.map { curve.speciesNames[$0] } ?? ""
    }
}

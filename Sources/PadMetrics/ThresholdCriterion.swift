import Foundation

/// How a threshold is chosen on a score set.
///
/// ```swift
/// let criterion = try ThresholdCriterion(parsing: "bpcer@apcer=0.01")
/// let t = try criterion.threshold(on: curve)
/// ```
/// - `eer`: ``EqualErrorRate`` (bob.measure rule).
/// - `bpcer@apcer=x`: bob.pad.base's `apcer_threshold`: the maximum over species of bob.measure's
///   `far_threshold` on each species (``ThresholdSearch/apcerThreshold(_:apcerAtMost:)``).
/// - `apcer@bpcer=x`: the highest bona fide score t with BPCER(t) <= x (bob.measure
///   `frr_threshold`, without its tie quirk: ties at t are accepted, so they do not count as
///   rejected).
/// - `min-hter`: the candidate of the EER sweep minimising (APCER_max + BPCER) / 2.
/// - a number: that fixed threshold.
public enum ThresholdCriterion: Sendable, Equatable, CustomStringConvertible {
    case eer
    case bpcerAtAPCER(Double)
    case apcerAtBPCER(Double)
    case minHTER
    case fixed(Double)

    public init(parsing text: String) throws(MetricsError) {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        func target(_ prefix: String) throws(MetricsError) -> Double {
            guard let x = Double(t.dropFirst(prefix.count)), x >= 0, x <= 1 else {
                throw .badTarget("bad target in '\(text)': expected a fraction in [0, 1], e.g. \(prefix)0.01")
            }
            return x
        }
        if t == "eer" {
            self = .eer
        } else if t == "min-hter" || t == "minhter" {
            self = .minHTER
        } else if t.hasPrefix("bpcer@apcer=") {
            self = .bpcerAtAPCER(try target("bpcer@apcer="))
        } else if t.hasPrefix("apcer@bpcer=") {
            self = .apcerAtBPCER(try target("apcer@bpcer="))
        } else if let value = Double(t), !value.isNaN {
            self = .fixed(value)
        } else {
            throw .badTarget("unknown criterion '\(text)' (eer, min-hter, bpcer@apcer=X, apcer@bpcer=X, or a number)")
        }
    }

    public var description: String {
        switch self {
        case .eer: return "eer"
        case .minHTER: return "min-hter"
        case .bpcerAtAPCER(let x): return "bpcer@apcer=\(x)"
        case .apcerAtBPCER(let x): return "apcer@bpcer=\(x)"
        case .fixed(let t): return "fixed=\(t)"
        }
    }

    /// The threshold this criterion chooses on a curve. EER and min-HTER need both classes.
    public func threshold(on curve: ErrorCurve) throws(MetricsError) -> Double {
        try choose(on: curve).threshold
    }

    /// The threshold, its curve point, and whether a target rate was met there (a target can be
    /// out of reach: an attack scored +inf is accepted at every threshold).
    public func choose(on curve: ErrorCurve) throws(MetricsError) -> ThresholdChoice {
        switch self {
        case .eer:
            let t = try EqualErrorRate(curve).threshold
            return ThresholdChoice(threshold: t, point: curve.pointIndex(for: t), targetMet: true)
        case .minHTER:
            let t = try EqualErrorRate(curve).minHTERThreshold
            return ThresholdChoice(threshold: t, point: curve.pointIndex(for: t), targetMet: true)
        case .fixed(let t):
            return ThresholdChoice(threshold: t, point: curve.pointIndex(for: t), targetMet: true)
        case .bpcerAtAPCER(let x):
            guard curve.hasAttacks else { throw .noAttacks }
            return ThresholdSearch.apcerThreshold(curve, apcerAtMost: x)
        case .apcerAtBPCER(let x):
            guard curve.hasBonaFide else { throw .noBonaFide }
            return ThresholdSearch.highestBonaFideScore(curve, bpcerAtMost: x)
        }
    }
}

/// A chosen threshold: its value, the curve point with the same accepted set, and whether the
/// criterion's target rate holds there.
public struct ThresholdChoice: Sendable, Equatable {
    public var threshold: Double
    public var point: Int
    public var targetMet: Bool
    public init(threshold: Double, point: Int, targetMet: Bool) {
        (self.threshold, self.point, self.targetMet) = (threshold, point, targetMet)
    }
}

/// Threshold searches over the exact curve.
public enum ThresholdSearch {
    /// bob.pad.base's `apcer_threshold`: for each species, bob.measure's `far_threshold` on that
    /// species' attack scores alone (the lowest score v of the species with
    /// #(species scores >= v) / n_species <= x; when none qualifies, the next double above the
    /// species' highest score; for x >= 1 - eps, below its lowest score); the threshold is the
    /// maximum over species, so every species is at most x there. Samples rejected at every
    /// threshold count in n_species and are never accepted. `targetMet` is false when some species
    /// stays above x at every threshold (an attack scored +inf).
    public static func apcerThreshold(_ curve: ErrorCurve, apcerAtMost x: Double) -> ThresholdChoice {
        var chosen = 0
        for s in curve.attackCounts.indices where curve.attackCounts[s] > 0 {
            let n = Double(curve.attackCounts[s])
            var speciesPoint: Int?
            var lastSpeciesScore = -1
            // The points holding a score of the species are those after which its count drops:
            // one before each of its steps, and the last point when attacks are still accepted.
            let steps = curve.steps(ofSpecies: s)
            for (j, step) in steps.enumerated() {
                let k = j + 1 < steps.count ? steps[j + 1].point - 1 : curve.count - 1
                guard j + 1 < steps.count || step.accepted > 0 else { continue }
                lastSpeciesScore = k
                if speciesPoint == nil && (x >= 1 - Double.ulpOfOne || Double(step.accepted) / n <= x) {
                    speciesPoint = k
                }
            }
            // No score of the species qualifies: just above its highest score (or the lowest point
            // when every attack of the species is rejected at every threshold).
            let k = speciesPoint ?? (lastSpeciesScore + 1)
            chosen = max(chosen, k)
        }
        let point = min(chosen, curve.count - 1)
        var met = chosen < curve.count
        for s in curve.attackCounts.indices where curve.attackCounts[s] > 0 {
            if Double(curve.accepted(s, point)) / Double(curve.attackCounts[s]) > x { met = false }
        }
        return ThresholdChoice(threshold: curve.thresholds[point], point: point, targetMet: met)
    }

    /// Highest bona fide score t with BPCER(t) <= x (bob.measure `frr_threshold` without its tie
    /// quirk); the lowest point when none qualifies (then `targetMet` is false).
    public static func highestBonaFideScore(_ curve: ErrorCurve, bpcerAtMost x: Double) -> ThresholdChoice {
        var best = 0
        for k in 0..<curve.count {
            // Point k is a bona fide score when the number of rejected bona fide grows after it.
            let isBonaFideScore = curve.bonaFideRejectedAfter(k) > curve.bonaFideRejected[k]
            if isBonaFideScore && Double(curve.bonaFideRejected[k]) <= x * Double(curve.bonaFideCount) { best = k }
        }
        let met = Double(curve.bonaFideRejected[best]) <= x * Double(curve.bonaFideCount)
        return ThresholdChoice(threshold: curve.thresholds[best], point: best, targetMet: met)
    }
}

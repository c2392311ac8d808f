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
package enum ThresholdCriterion: Sendable, Equatable, CustomStringConvertible {
    case eer
    case bpcerAtAPCER(Double)
    case apcerAtBPCER(Double)
    case minHTER
    case fixed(Double)

    package init(parsing text: String) throws(MetricsError) {
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

    package var description: String {
        switch self {
        case .eer: return "eer"
        case .minHTER: return "min-hter"
        case .bpcerAtAPCER(let x): return "bpcer@apcer=\(x)"
        case .apcerAtBPCER(let x): return "apcer@bpcer=\(x)"
        case .fixed(let t): return "fixed=\(t)"
        }
    }

    /// The threshold this criterion chooses on a curve. EER and min-HTER need both classes.
    package func threshold(on curve: ErrorCurve) throws(MetricsError) -> Double {
        try choose(on: curve).threshold
    }

    /// The threshold, its curve point, and whether a target rate was met there (a target can be
    /// out of reach: an attack scored +inf is accepted at every threshold). `eerRule` says which
    /// attack rate EER and min-HTER balance against BPCER.
    package func choose(on curve: ErrorCurve, eerRule: EERRule = .apcerMax) throws(MetricsError) -> ThresholdChoice {
        switch self {
        case .eer:
            let t = try EqualErrorRate(curve, rule: eerRule).threshold
            return ThresholdChoice(threshold: t, point: curve.pointIndex(for: t), targetMet: true)
        case .minHTER:
            let t = try EqualErrorRate(curve, rule: eerRule).minHTERThreshold
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

/// Which attack rate the EER balances against BPCER: APCER_max, the worst species (ISO/IEC
/// 30107-3, padbench's default), or all attacks pooled (bob.pad.base, `--eer-rule pooled`).
package enum EERRule: String, Sendable, CaseIterable {
    case apcerMax = "apcer-max"
    case pooled
}

extension EqualErrorRate {
    /// The EER by `rule`.
    package init(_ curve: ErrorCurve, rule: EERRule) throws(MetricsError) {
        switch rule {
        case .apcerMax: try self.init(curve)
        case .pooled: try self.init(pooled: curve)
        }
    }
}

/// A chosen threshold: its value, the curve point with the same accepted set, and whether the
/// criterion's target rate holds there.
package struct ThresholdChoice: Sendable, Equatable {
    package var threshold: Double
    package var point: Int
    package var targetMet: Bool
    package init(threshold: Double, point: Int, targetMet: Bool) {
        (self.threshold, self.point, self.targetMet) = (threshold, point, targetMet)
    }
}

/// Threshold searches over the exact curve.
package enum ThresholdSearch {
    /// bob.pad.base's `apcer_threshold`: for each species, bob.measure's `far_threshold` on that
    /// species' attack scores alone: the lowest score v of the species with
    /// #(species scores >= v) / n_species <= x; when none qualifies, `nextafter(highest, +inf)` (the
    /// next double above the species' highest score, not the next score of the set: a threshold
    /// applied to another split must be bob's exact double); for x >= 1 - eps,
    /// `nextafter(lowest, -inf)`. The threshold is the maximum over species, so every species is at
    /// most x there. bob writes `nextafter(v, v + 1)`, which is v itself where v + 1 == v
    /// (|v| >= 2^53): padbench takes the next double there too, so the target holds. Samples
    /// rejected at every threshold count in n_species and are never accepted. `targetMet` is false
    /// when some species stays above x at every threshold (an attack scored +inf).
    package static func apcerThreshold(_ curve: ErrorCurve, apcerAtMost x: Double) -> ThresholdChoice {
        var threshold = -Double.infinity
        for s in curve.attackCounts.indices where curve.attackCounts[s] > 0 {
            if let t = farThreshold(curve, species: s, apcerAtMost: x) { threshold = max(threshold, t) }
        }
        if threshold == -.infinity { threshold = curve.thresholds[0] }
        let point = curve.pointIndex(for: threshold)
        var met = true
        for s in curve.attackCounts.indices where curve.attackCounts[s] > 0 {
            if Double(curve.accepted(s, point)) / Double(curve.attackCounts[s]) > x { met = false }
        }
        return ThresholdChoice(threshold: threshold, point: point, targetMet: met)
    }

    /// bob.measure's `far_threshold` on species s alone (nil when no attack of s has a score: all
    /// are rejected at every threshold, so the species constrains nothing). Only the points where
    /// s has a score are candidates (``ErrorCurve/forEachScorePoint(ofSpecies:_:)``: O(steps of s)).
    static func farThreshold(_ curve: ErrorCurve, species s: Int, apcerAtMost x: Double) -> Double? {
        let n = Double(curve.attackCounts[s])
        var lowest: Double?, highest = -Double.infinity, qualifying: Double?
        curve.forEachScorePoint(ofSpecies: s) { k, accepted in
            if lowest == nil { lowest = curve.thresholds[k] }
            highest = curve.thresholds[k]
            if qualifying == nil && Double(accepted) / n <= x { qualifying = curve.thresholds[k] }
        }
        guard let lowest else { return nil }
        if x >= 1 - Double.ulpOfOne { return lowest.nextDown }
        return qualifying ?? highest.nextUp
    }

    /// The best BPCER with APCER_max <= x: the lowest threshold at which every species is at most
    /// x (the first curve point where APCER_max(t) <= x; APCER_max only falls and BPCER only rises
    /// as t grows, so no other threshold meeting the target has a lower BPCER). This is the
    /// operating point a DET curve shows at APCER x; bob.pad.base's ``apcerThreshold(_:apcerAtMost:)``
    /// sits on a species' attack score and can be much higher with few attacks per species.
    /// `targetMet` is false (and the point the last one) when no threshold meets x.
    package static func lowestThreshold(_ curve: ErrorCurve, apcerMaxAtMost x: Double) -> ThresholdChoice {
        // One cursor per species, moving with k (no search among the steps per point).
        var cursors = curve.attackCounts.indices.map { curve.cursor(species: $0, at: 0) }
        for k in 0..<curve.count {
            var met = true
            for s in curve.attackCounts.indices where curve.attackCounts[s] > 0 {
                if Double(curve.accepted(&cursors[s], at: k)) > x * Double(curve.attackCounts[s]) { met = false; break }
            }
            if met { return ThresholdChoice(threshold: curve.thresholds[k], point: k, targetMet: true) }
        }
        let last = curve.count - 1
        return ThresholdChoice(threshold: curve.thresholds[last], point: last, targetMet: false)
    }

    /// Highest bona fide score t with BPCER(t) <= x (bob.measure `frr_threshold` without its tie
    /// quirk); the lowest point when none qualifies (then `targetMet` is false).
    package static func highestBonaFideScore(_ curve: ErrorCurve, bpcerAtMost x: Double) -> ThresholdChoice {
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

import Foundation

/// How a threshold is chosen on a score set.
///
/// ```swift
/// let criterion = try ThresholdCriterion(parsing: "bpcer@apcer=0.01")
/// let t = criterion.threshold(on: curve)
/// ```
/// - `eer`: ``EqualErrorRate`` (bob.measure rule).
/// - `bpcer@apcer=x`: the lowest attack score t such that every species' APCER(t) <= x
///   (bob.measure `far_threshold` per species, then the maximum over species); when no attack score
///   qualifies, the next double above the highest attack score (nothing accepted).
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
        if t == "eer" { self = .eer }
        else if t == "min-hter" || t == "minhter" { self = .minHTER }
        else if t.hasPrefix("bpcer@apcer=") { self = .bpcerAtAPCER(try target("bpcer@apcer=")) }
        else if t.hasPrefix("apcer@bpcer=") { self = .apcerAtBPCER(try target("apcer@bpcer=")) }
        else if let value = Double(t) { self = .fixed(value) }
        else { throw .badTarget("unknown criterion '\(text)' (eer, min-hter, bpcer@apcer=X, apcer@bpcer=X, or a number)") }
    }

    public var description: String {
        switch self {
        case .eer: return "eer"
        case .minHTER: return "min-hter"
        case let .bpcerAtAPCER(x): return "bpcer@apcer=\(x)"
        case let .apcerAtBPCER(x): return "apcer@bpcer=\(x)"
        case let .fixed(t): return "fixed=\(t)"
        }
    }

    public func threshold(on curve: ErrorCurve) -> Double {
        switch self {
        case .eer: return EqualErrorRate(curve).threshold
        case .minHTER: return EqualErrorRate(curve).minHTERThreshold
        case let .fixed(t): return t
        case let .bpcerAtAPCER(x): return ThresholdSearch.lowestAttackScore(curve, apcerAtMost: x)
        case let .apcerAtBPCER(x): return ThresholdSearch.highestBonaFideScore(curve, bpcerAtMost: x)
        }
    }
}

/// Threshold searches over the exact curve.
public enum ThresholdSearch {
    /// Lowest attack score t with APCER_s(t) <= x for every species (see ``ThresholdCriterion``).
    public static func lowestAttackScore(_ curve: ErrorCurve, apcerAtMost x: Double) -> Double {
        // Points are ascending thresholds; APCER is non-increasing along them. Find the first point
        // meeting the target, then move up to the first point whose threshold is an attack score.
        var chosen: Int?
        for k in 0..<curve.count {
            var ok = true
            for s in curve.attackCounts.indices where curve.attackCounts[s] > 0 {
                if Double(curve.accepted(s, k)) > x * Double(curve.attackCounts[s]) { ok = false; break }
            }
            if ok { chosen = k; break }
        }
        guard var k = chosen else { return curve.thresholds.last! }
        // A point is an attack score when some attack is accepted there but not at the next point.
        while k < curve.count - 1 && curve.pooledAccepted[k] == curve.pooledAccepted[k + 1] { k += 1 }
        if k == curve.count - 1 {
            let highestAttack = highestAttackScore(curve)
            return highestAttack.nextUp
        }
        return curve.thresholds[k]
    }

    /// Highest bona fide score t with BPCER(t) <= x.
    public static func highestBonaFideScore(_ curve: ErrorCurve, bpcerAtMost x: Double) -> Double {
        var best: Double = curve.thresholds[0]
        for k in 0..<(curve.count - 1) {
            // Point k is a bona fide score when the number of rejected bona fide grows after it.
            let isBonaFideScore = curve.bonaFideRejected[k + 1] > curve.bonaFideRejected[k]
            if isBonaFideScore && Double(curve.bonaFideRejected[k]) <= x * Double(curve.bonaFideCount) {
                best = curve.thresholds[k]
            }
        }
        return best
    }

    static func highestAttackScore(_ curve: ErrorCurve) -> Double {
        var k = curve.count - 2
        while k > 0 && curve.pooledAccepted[k] == 0 { k -= 1 }
        return curve.thresholds[max(0, k)]
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Scores of labelled presentations: the input of every PAD metric.
///
/// ```swift
/// var set = ScoreSet()
/// set.append(score: 0.91, species: nil)            // bona fide
/// set.append(score: 0.12, species: "print")        // attack
/// set.append(score: .nan, species: "replay")       // failure to process (FTA)
/// let point = OperatingPoint(curve: try ErrorCurve(set), threshold: 0.5)
/// ```
/// Convention (padbench, bob.measure): higher score = more bona fide; a presentation is accepted
/// as bona fide when score >= threshold. A NaN score, or `failed`, is a failure to process: left
/// out of the headline rates and counted as non-response.
package struct ScoreSet: Sendable {
    package private(set) var scores: [Double] = []
    /// Index into ``speciesNames`` for attacks, -1 for bona fide.
    package private(set) var speciesIndex: [Int32] = []
    package private(set) var speciesNames: [String] = []
    private var speciesLookup: [String: Int32] = [:]
    /// Processed presentations rejected at every threshold of the swept score (another gate of
    /// the profile failed, or the score itself was not assessable): counted in the denominators,
    /// never accepted, and they add no threshold of their own. So APCER has a ceiling and BPCER a
    /// floor, and no curve point sits at -inf.
    package private(set) var rejectedAtEveryThresholdBonaFide = 0
    /// By species index (parallel to ``speciesNames``).
    package private(set) var rejectedAtEveryThresholdAttacks: [Int] = []

    package init() {}

    package var count: Int { scores.count }

    package mutating func reserveCapacity(_ n: Int) {
        scores.reserveCapacity(n)
        speciesIndex.reserveCapacity(n)
    }

    /// Adds one presentation; `species == nil` means bona fide. NaN scores are failures.
    package mutating func append(score: Double, species: String?) {
        scores.append(score)
        guard let species else {
            speciesIndex.append(-1)
            return
        }
        speciesIndex.append(index(ofSpecies: species))
    }

    /// The same by species index (-1 = bona fide), from ``index(ofSpecies:)``.
    package mutating func appendRejectedAtEveryThreshold(speciesIndex index: Int32) {
        if index < 0 { rejectedAtEveryThresholdBonaFide += 1 } else { rejectedAtEveryThresholdAttacks[Int(index)] += 1 }
    }

    /// A set whose species indices are those of `names` (so callers holding precomputed indices
    /// can append by index).
    package init(speciesNames names: [String]) {
        for name in names { _ = index(ofSpecies: name) }
    }

    /// Adds a processed presentation that is rejected whatever the threshold (see
    /// ``rejectedAtEveryThresholdBonaFide``); `species == nil` means bona fide.
    package mutating func appendRejectedAtEveryThreshold(species: String?) {
        guard let species else {
            rejectedAtEveryThresholdBonaFide += 1
            return
        }
        rejectedAtEveryThresholdAttacks[Int(index(ofSpecies: species))] += 1
    }

    /// The index of a species name, adding it when new (for bulk loaders that cache indices).
    package mutating func index(ofSpecies species: String) -> Int32 {
        if let index = speciesLookup[species] { return index }
        let index = Int32(speciesNames.count)
        speciesNames.append(species)
        speciesLookup[species] = index
        rejectedAtEveryThresholdAttacks.append(0)
        return index
    }

    /// Adds one presentation by species index (-1 = bona fide), from ``index(ofSpecies:)``.
    package mutating func append(score: Double, speciesIndex index: Int32) {
        scores.append(score)
        speciesIndex.append(index)
    }

    /// Adds presentations in bulk: `scores[i]` with species index `speciesIndex[i]` (-1 = bona fide).
    package mutating func append(scores newScores: [Double], speciesIndex newIndices: [Int32]) {
        precondition(newScores.count == newIndices.count, "one species index per score")
        scores.append(contentsOf: newScores)
        speciesIndex.append(contentsOf: newIndices)
    }

    /// True when both sets hold the same presentations in the same order, scores compared bit for
    /// bit (so NaN failures match): the same set gives the same curve.
    package func isIdentical(to other: ScoreSet) -> Bool {
        guard count == other.count, speciesNames == other.speciesNames,
            rejectedAtEveryThresholdBonaFide == other.rejectedAtEveryThresholdBonaFide,
            rejectedAtEveryThresholdAttacks == other.rejectedAtEveryThresholdAttacks,
            speciesIndex == other.speciesIndex
        else { return false }
        // memcmp, not a byte-by-byte loop: eval compares ten million scores (80 MB) this way.
        return scores.withUnsafeBytes { a in
            other.scores.withUnsafeBytes { b in a.count == 0 || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 }
        }
    }

    package func isBonaFide(_ i: Int) -> Bool { speciesIndex[i] < 0 }
    package func isFailure(_ i: Int) -> Bool { scores[i].isNaN }
}

/// Why a score set cannot be scored.
package enum MetricsError: Error, Sendable, Equatable, CustomStringConvertible {
    case noBonaFide
    case noAttacks
    /// Every processed presentation is rejected at every threshold: there is nothing to sweep.
    case noScores
    case badTarget(String)

    package var description: String {
        switch self {
        case .noBonaFide: return "no processed bona fide samples: BPCER is undefined"
        case .noAttacks: return "no processed attack samples: APCER is undefined"
        case .noScores:
            return "no processed sample has a score to sweep (all failed, or all rejected by the profile's other gates)"
        case .badTarget(let text): return text
        }
    }
}

import Foundation
import Testing
@testable import PadMetrics
import PadVocabulary

/// The sorts and curves `eval` builds without clearing or copying buffers give what the
/// clearing and copying paths gave.
@Suite struct EvalSortPathTests {
    /// Radix sort in place on one segment of a buffer (as `SortedScores` sorts each class): the
    /// segment sorted like the standard library (-0 before +0, infinities at the ends), the rest
    /// untouched.
    @Test func radixSortInPlaceSortsOnlyItsSegment() {
        var generator = SplitMix64(seed: 30108)
        var values = (0..<30_000).map { _ in (Double.random(in: -5...5, using: &generator) * 100).rounded() / 100 }
        values += [0.0, -0.0, .infinity, -.infinity, -0.0, 0.0, .leastNonzeroMagnitude, -.greatestFiniteMagnitude]
        let before = values
        values.withUnsafeMutableBufferPointer { buffer in
            RadixSort.sort(UnsafeMutableBufferPointer(rebasing: buffer[100..<(buffer.count - 100)]))
        }
        let expected =
            Array(before[..<100])
            + before[100..<(before.count - 100)].sorted {
                $0 < $1 || ($0 == $1 && $0.sign == .minus && $1.sign == .plus)
            } + Array(before[(before.count - 100)...])
        #expect(values.map(\.bitPattern) == expected.map(\.bitPattern))
    }

    /// Every species in order is the sorted set itself (no copy): the same curve as the set's.
    /// Another order is a real restriction: the curve of a set whose species come in that order.
    @Test func restrictedToEverySpeciesInOrderIsTheSameSet() throws {
        var all = ScoreSet(), swapped = ScoreSet(speciesNames: ["replay", "print"])
        for k in 0..<9000 {
            let score = [0.0, -0.0, 0.5, .infinity, -.infinity, -0.25][k % 6] * Double(1 + k % 7)
            let species: String? = k % 3 == 0 ? nil : (k % 3 == 1 ? "print" : "replay")
            all.append(score: k % 11 == 0 ? .nan : score, species: species)
            swapped.append(score: k % 11 == 0 ? .nan : score, species: species)
        }
        let sorted = SortedScores(all)
        FastScorePathTests.expectEqual(
            try ErrorCurve(sorted: sorted.restricted(toSpecies: [0, 1])), try ErrorCurve(all))
        #expect(sorted.restricted(toSpecies: [0, 1]).flat.map(\.bitPattern) == sorted.flat.map(\.bitPattern))
        FastScorePathTests.expectEqual(
            try ErrorCurve(sorted: sorted.restricted(toSpecies: [1, 0])), try ErrorCurve(swapped))
        let negated = try ErrorCurve(sorted: sorted.negated())
        var negatedSet = ScoreSet()
        for k in all.scores.indices {
            let species = all.isBonaFide(k) ? nil : all.speciesNames[Int(all.speciesIndex[k])]
            negatedSet.append(score: -all.scores[k], species: species)
        }
        FastScorePathTests.expectEqual(negated, try ErrorCurve(negatedSet))
    }

    /// With one species the pooled counts are that species' own array; with two they are the sum.
    /// Hand-computed: bona fide 0.1, 0.5; print 0.2, 0.5, 0.9; replay 0.5 (second curve only).
    @Test func pooledCountsOfOneSpeciesAreItsOwn() throws {
        var one = ScoreSet()
        for (score, species) in [(0.1, nil), (0.5, nil), (0.2, "print"), (0.5, "print"), (0.9, "print")] {
            one.append(score: score, species: species)
        }
        let curve = try ErrorCurve(one)
        #expect(curve.thresholds.dropLast() == [0.1, 0.2, 0.5, 0.9] && curve.hasTerminalPoint)
        #expect(curve.attackAccepted == [3, 3, 2, 1, 0] && curve.pooledAccepted == [3, 3, 2, 1, 0])
        #expect(curve.bonaFideRejected == [0, 1, 1, 2, 2])
        var two = one
        two.append(score: 0.5, species: "replay")
        let both = try ErrorCurve(two)
        #expect(both.attackAccepted == [3, 3, 2, 1, 0, 1, 1, 1, 0, 0] && both.pooledAccepted == [4, 4, 3, 1, 0])
        #expect(try ErrorCurve(sorted: SortedScores(two).restricted(toSpecies: [1])).pooledAccepted == [1, 1, 0])
    }
}

import Foundation
import Testing
@testable import PadMetrics
import PadVocabulary

@Suite struct RadixSortTests {
    @Test func sortsLikeTheStandardLibraryIncludingNegativesZerosAndInfinities() {
        var generator = SplitMix64(seed: 30108)
        var values = (0..<20_000).map { _ in Double.random(in: -1e6...1e6, using: &generator) }
        values += [0.0, -0.0, .infinity, -.infinity, 1e-300, -1e-300, .leastNonzeroMagnitude, .greatestFiniteMagnitude]
        var mine = values
        RadixSort.sort(&mine)
        #expect(mine == values.sorted())
    }
}

@Suite struct RadixSortKeyTests {
    /// Id hashes (`checkUniqueIds`) are sorted as plain UInt64 keys, above and below the
    /// comparison-sort cut-off, with repeats and both extremes.
    @Test func sortsUInt64KeysLikeTheStandardLibrary() {
        var generator = SplitMix64(seed: 30109)
        for count in [10, 5000, 50_000] {
            var keys = (0..<count).map { _ in UInt64.random(in: 0...UInt64.max, using: &generator) }
            keys += [0, .max, 1 << 63, keys[3], keys[3]]
            var mine = keys
            RadixSort.sort(&mine)
            #expect(mine == keys.sorted())
        }
    }
}

/// The id check's repeated hashes (one scatter by the top bits, buckets sorted alone) against a
/// count of every value: random values with planted repeats, values sharing their top bits (one
/// bucket holds all), all equal, two values, none repeated.
@Suite struct RepeatedHashesTests {
    @Test func repeatsAreExactlyTheValuesSeenTwice() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state ^ (state >> 29)
        }
        func brute(_ values: [UInt64]) -> Set<UInt64> {
            var seen: [UInt64: Int] = [:]
            for v in values { seen[v, default: 0] += 1 }
            return Set(seen.filter { $0.value > 1 }.keys)
        }
        for n in [2, 3, 17, 1000, 70_000] {
            var values = (0..<n).map { _ in next() }
            for k in stride(from: 0, to: n - 1, by: 97) { values[k + 1] = values[Int(next() % UInt64(k + 1))] }
            #expect(ImportedScores.repeated(values) == brute(values), "n \(n)")
            #expect(ImportedScores.repeated(Array(Set(values))).isEmpty)
            // Same top 40 bits: every value in one bucket.
            let narrow = values.map { $0 & 0xFF_FFFF }
            #expect(ImportedScores.repeated(narrow) == brute(narrow), "n \(n)")
        }
        #expect(ImportedScores.repeated([5, 5]) == [5])
        #expect(ImportedScores.repeated([UInt64](repeating: .max, count: 9000)) == [.max])
        #expect(ImportedScores.repeated([1, 2]).isEmpty && ImportedScores.repeated([7]).isEmpty)
    }
}

import Foundation
import Testing
@testable import PadMetrics

@Suite struct RadixSortTests {
    @Test func sortsLikeTheStandardLibraryIncludingNegativesZerosAndInfinities() {
        var generator = SystemRandomNumberGenerator()
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
        var generator = SystemRandomNumberGenerator()
        for count in [10, 5000, 50_000] {
            var keys = (0..<count).map { _ in UInt64.random(in: 0...UInt64.max, using: &generator) }
            keys += [0, .max, 1 << 63, keys[3], keys[3]]
            var mine = keys
            RadixSort.sort(&mine)
            #expect(mine == keys.sorted())
        }
    }
}

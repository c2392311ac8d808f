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

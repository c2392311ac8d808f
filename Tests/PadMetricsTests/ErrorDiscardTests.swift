import PadMetrics
import Testing

/// EDC on hand-made cases; expected values from Fixtures/differentials/edc.py (the definition
/// applied threshold by threshold with exact fractions, the ideal area integrated numerically),
/// listed in edc_expected.txt.
@Suite struct ErrorDiscardTests {
    static func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-12) -> Bool { abs(a - b) < tolerance }

    /// Ten bona fide presentations, three rejected (at qualities 0.1, 0.2 and 0.5); two tied at 0.2.
    @Test func handWorkedBonaFide() {
        let quality = [0.1, 0.2, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]
        let rejected = [true, false, true, false, false, true, false, false, false, false]
        let points = ErrorDiscard.curve(
            quality: quality, group: Array(repeating: 0, count: 10), isError: rejected, groupCount: 1)
        #expect(points.map(\.discarded) == [0, 0.1, 0.3, 0.4, 0.5])
        let expected = [3.0 / 10, 2.0 / 9, 1.0 / 7, 1.0 / 6, 1.0 / 5]
        #expect(zip(points.map(\.error), expected).allSatisfy { Self.close($0, $1) })
        #expect(points.map(\.qualityThreshold) == [-.infinity, 0.2, 0.3, 0.4, 0.5])
        #expect(points.map(\.kept) == [10, 9, 7, 6, 5])
        // ideal = max(0, (0.3 - f) / (1 - f)).
        #expect(Self.close(points[1].ideal, 0.2 / 0.9) && points[2].ideal == 0)
        #expect(Self.close(ErrorDiscard.area(points), 47.0 / 900))
        #expect(Self.close(ErrorDiscard.idealArea(e0: 0.3), 0.04379951408005393, 1e-9))
    }

    /// Eight attacks of two species: APCER_max over the species kept.
    @Test func handWorkedAttacksTwoSpecies() {
        let quality = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]
        let points = ErrorDiscard.curve(
            quality: quality, group: [0, 1, 0, 1, 0, 1, 0, 1],
            isError: [true, true, false, true, false, false, true, false], groupCount: 2)
        #expect(points.map(\.discarded) == [0, 0.125, 0.25, 0.375, 0.5])
        let expected = [0.5, 0.5, 1.0 / 3, 0.5, 0.5]
        #expect(zip(points.map(\.error), expected).allSatisfy { Self.close($0, $1) })
        #expect(Self.close(ErrorDiscard.area(points), 0.1))
        #expect(Self.close(ErrorDiscard.idealArea(e0: 0.5), 0.0884282243428983, 1e-9))
    }

    /// Not assessable (NaN) is the lowest quality: discarded first.
    @Test func notAssessableIsDiscardedFirst() {
        let points = ErrorDiscard.curve(
            quality: [.nan, 0.5, 0.7, 0.9], group: [0, 0, 0, 0], isError: [true, false, false, false], groupCount: 1)
        #expect(points.map(\.error) == [0.25, 0, 0])
        #expect(points.map(\.discarded) == [0, 0.25, 0.5])
    }

    /// Deciles: 20 values, two per band; a NaN band of its own; ties stay in one band.
    @Test func decilesByValue() {
        let quality = (0..<20).map { Double($0) } + [.nan]
        let (bands, decile) = ErrorDiscard.decileOf(quality: quality)
        #expect(bands.map(\.decile) == Array(0...10))
        let expected: [UInt8] = (0..<20).map { (i: Int) -> UInt8 in UInt8(i / 2 + 1) } + [0]
        #expect(decile == expected)
        #expect(bands[1].low == 0 && bands[1].high == 1 && bands[10].low == 18 && bands[10].high == 19)
        // Bounds 1,1,1,1,1,2,2,2,2,2: every 1 falls in band 1, every 2 in band 6 (the lowest band
        // whose bound it is).
        let tied = ErrorDiscard.decileOf(
            quality: Array(repeating: 1.0, count: 10) + Array(repeating: 2.0, count: 10))
        #expect(tied.bands.map(\.decile) == [1, 6])
        let tiedExpected: [UInt8] = Array(repeating: 1, count: 10) + Array(repeating: 6, count: 10)
        #expect(tied.decile == tiedExpected)
    }

    /// Each value's decile as one byte (``ErrorDiscard/decileOf(quality:)``), with the bands'
    /// bounds, by hand on values with NaN and ties.
    @Test func decileBytesAreTheBandsMembers() {
        let quality = [3.0, .nan, 1, 1, 2, 9, 5, 5, 7, 0, .nan, 4]
        let (bands, decile) = ErrorDiscard.decileOf(quality: quality)
        // Sorted assessable: 0 1 1 2 3 4 5 5 7 9 (n = 10): bounds are the values themselves, so
        // the tied 1s share band 2 (bound 1 at positions 1 and 2) and the 5s band 7.
        #expect(decile == [5, 0, 2, 2, 4, 10, 7, 7, 9, 1, 0, 6])
        #expect(bands.map(\.decile) == [0, 1, 2, 4, 5, 6, 7, 9, 10])
        // Each band spans its own values: band 2 is [1, 1], band 7 [5, 5], band 5 [3, 3].
        #expect(bands[2].low == 1 && bands[2].high == 1 && bands[6].low == 5 && bands[6].high == 5)
        #expect(bands[4].low == 3 && bands[4].high == 3 && bands[0].low.isNaN)
    }
}

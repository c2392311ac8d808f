import Foundation
import Testing
@testable import PadReport

/// The histogram rule: robust 0.5%-99.5% range with underflow and overflow, log or logit axes
/// when the scores call for them. Expected values worked by hand from the rule's definition.
@Suite struct HistogramBinsTests {
    /// A sharpness-like column: 999 scores 10.00, 10.01, ..., 19.98 and one of 1e6. The old rule
    /// (30 bins from the lowest to the highest score) put all 999 in the first bin.
    /// Median (rank 500) = 14.99; 1e6 / 14.99 > 100: log10 axis. q(0.005) = rank 5 = 10.04,
    /// q(0.995) = rank 995 = 19.94: 4 scores below (10.00-10.03), 5 above (19.95-19.98 and 1e6).
    @Test func skewedScoresGetALogAxisAndOverflow() throws {
        var values = (0..<999).map { 10 + Double($0) / 100 }
        values.append(1e6)
        let bins = try #require(HistogramBins(values: values, counts: values.map { _ in 1 }))
        #expect(bins.axis == .log10 && bins.count == 30)
        #expect(bins.lowScore == 10 + 4.0 / 100 && bins.highScore == 10 + 994.0 / 100)
        var perBin = [Int](repeating: 0, count: bins.count + 2)
        for v in values { perBin[bins.bin(of: v) + 1] += 1 }
        #expect(perBin[0] == 4 && perBin[bins.count + 1] == 5)
        #expect(perBin.reduce(0, +) == 1000)
        // Readable: every bin of the range holds something, none more than a tenth.
        #expect(perBin[1...bins.count].allSatisfy { $0 > 0 && $0 < 100 })
        #expect(bins.edges[0] == log10(bins.lowScore) && bins.edges[30] == log10(bins.highScore))
    }

    /// Saturated probabilities: 60 of 100 scores within 0.01 of 0 or 1, all in (0, 1): logit.
    @Test func saturatedProbabilitiesGetALogitAxis() throws {
        let low: [Double] = (0..<30).map { 0.0001 * Double($0 + 1) }
        let middle: [Double] = (0..<40).map { 0.1 + 0.02 * Double($0) }
        let high: [Double] = (0..<30).map { 0.999 + 0.00003 * Double($0) }
        let values = low + middle + high
        let bins = try #require(HistogramBins(values: values, counts: values.map { _ in 1 }))
        #expect(bins.axis == .logit)
        #expect(abs(HistogramBins.transform(0.5, .logit)) < 1e-15)
        #expect(abs(HistogramBins.inverse(HistogramBins.transform(0.02, .logit), .logit) - 0.02) < 1e-15)
        // 30 of 70 near the ends (less than half): linear.
        let fewer = Array(values.dropFirst(30))
        #expect(HistogramBins(values: fewer, counts: fewer.map { _ in 1 })?.axis == .linear)
    }

    /// Plain scores: linear axis; counts weight the quantiles; one value gets one unit around it.
    @Test func linearAxisAndDegenerateRanges() throws {
        // 0.0 seen 1000 times, 1.0 seen 1000 times, 0.5 once: ranks 11 and 1990 are 0 and 1.
        let bins = try #require(HistogramBins(values: [0, 0.5, 1], counts: [1000, 1, 1000]))
        #expect(bins.axis == .linear && bins.lowScore == 0 && bins.highScore == 1)
        #expect(bins.bin(of: 0) == 0 && bins.bin(of: 1) == 29 && bins.bin(of: 0.51) == 15)
        #expect(bins.bin(of: -0.1) == -1 && bins.bin(of: 1.1) == 30)
        let one = try #require(HistogramBins(values: [3], counts: [5]))
        #expect(one.axis == .linear && one.lowScore == 2.5 && one.highScore == 3.5 && one.bin(of: 3.01) == 15)
        #expect(HistogramBins(values: [.nan], counts: [3]) == nil)
        // Negative scores are never log or logit.
        #expect(HistogramBins(values: [-1, 0.001, 1000], counts: [1, 1, 1])?.axis == .linear)
    }
}

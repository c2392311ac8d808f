import Foundation
import Testing
@testable import PadArchive
@testable import PadReport
import PadVocabulary

/// `curves.csv` rows reuse the text of numbers that repeat the row above: the bytes stay those of
/// formatting every number.
@Suite struct CurveRowsTests {
    @Test func repeatedNumberRowWritesTheSameBytesAsFormattingEveryNumber() {
        var generator = SplitMix64(seed: 30108)
        let specials: [Double] = [.nan, .infinity, -.infinity, 0, -0.0, 1, 0.1, 1e300, 5e-324, 123_456_789_012_345_678]
        let row = RepeatedNumberRow(columns: 5)
        var fast: [UInt8] = [], reference: [UInt8] = []
        var values = [Double](repeating: 0.5, count: 5)
        let prefix = Array("scores,\"a,b\"".utf8)
        for _ in 0..<20_000 {
            // Usually one column changes, as along a curve; sometimes a special value.
            let column = Int.random(in: 0..<5, using: &generator)
            values[column] =
                Bool.random(using: &generator)
                ? specials.randomElement(using: &generator)! : Double.random(in: -10...10, using: &generator)
            row.append(prefix: prefix, values, to: &fast)
            values.withUnsafeBufferPointer {
                CSVFormat.appendRawPrefixNumberRow(prefix: "scores,\"a,b\"", $0, to: &reference)
            }
        }
        #expect(fast == reference)
    }
}

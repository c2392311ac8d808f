import Testing
import PadText

/// The structured helpers eval's concurrent steps use: results in order, errors in argument order.
@Suite struct ParallelTests {
    struct Failure: Error, Equatable { var step: Int }

    @Test func mapKeepsTheOrderOfItsItems() {
        #expect(Parallel.map(Array(0..<100)) { $0 * $0 } == (0..<100).map { $0 * $0 })
        #expect(Parallel.map([Int]()) { $0 }.isEmpty)
    }

    @Test func bothReturnsBothResultsAndRethrowsTheFirstError() throws {
        let (a, b) = try Parallel.both({ "left" }, { 42 })
        #expect(a == "left" && b == 42)
        #expect(throws: Failure(step: 1)) {
            try Parallel.both(
                { () throws -> Int in throw Failure(step: 1) }, { () throws -> Int in throw Failure(step: 2) })
        }
        #expect(throws: Failure(step: 2)) { try Parallel.both({ 1 }, { () throws -> Int in throw Failure(step: 2) }) }
    }
}

import Testing
import Foundation
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

/// The CPU count that the default worker count and each sample's thread share start from.
@Suite struct ProcessorsTests {
    @Test func cpuListsAreCounted() {
        #expect(Processors.cpuCount(list: "0-3,8,10-11") == 7)
        #expect(Processors.cpuCount(list: "0") == 1)
        #expect(Processors.cpuCount(list: " 2-2\n") == 1)
        #expect(Processors.cpuCount(list: "a") == nil)
        #expect(Processors.cpuCount(list: "3-1") == nil)
        #expect(Processors.cpuCount(list: "1-2-3") == nil)
    }

    /// This process's own mask, read the way `taskset -c 0` would change it: a count from 1 to
    /// the online CPUs.
    @Test func availableIsWithinTheMachine() {
        #expect((1...ProcessInfo.processInfo.activeProcessorCount).contains(Processors.available))
    }
}

/// Path folders as `RunFolder` and the synthesiser take them.
@Suite struct PathsTests {
    @Test func parentsOfPaths() {
        #expect(Paths.parent("g") == "")
        #expect(Paths.parent("runs/g") == "runs")
        #expect(Paths.parent("/g") == "/")
        #expect(Paths.parent("/a/b/c.jpg") == "/a/b")
        #expect(Paths.parent("eval/bonafide/000001.jpg") == "eval/bonafide")
    }
}

import Dispatch
import PadText
import Testing

/// ``BackgroundValue``: the work runs off the caller's thread, and `wait()` gives its value or
/// its error, the same each time it is called.
@Suite struct BackgroundValueTests {
    struct Failure: Error, Equatable { var code: Int }

    @Test func waitReturnsTheWorksValueEachTime() throws {
        let sum = BackgroundValue { (1...1000).reduce(0, +) }
        #expect(try sum.wait() == 500_500)
        #expect(try sum.wait() == 500_500)
    }

    /// The initialiser returns before the work has run: the work waits for the test to go on,
    /// and would time out (and return false) if the initialiser ran it itself.
    @Test func theWorkRunsWhileTheCallerGoesOn() throws {
        let release = DispatchSemaphore(value: 0)
        let work = BackgroundValue { release.wait(timeout: .now() + 10) == .success }
        release.signal()
        #expect(try work.wait())
    }

    @Test func waitRethrowsTheWorksErrorEachTime() {
        let work = BackgroundValue<Int> { throw Failure(code: 7) }
        #expect(throws: Failure(code: 7)) { try work.wait() }
        #expect(throws: Failure(code: 7)) { try work.wait() }
    }
}

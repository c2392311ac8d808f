import Foundation
import PadVocabulary
import Synchronization
import Testing
@testable import PadEstimators

/// ``EstimatorRegistry/build(_:options:)``: the factories of one wave run at once, each
/// estimator is made once, and a failure is reported for the first failing name in request order.
@Suite struct EstimatorRegistryTests {
    /// An estimator with no outputs that depends on `dependencies`.
    struct Stub: Estimator {
        let name: String
        let version = "1"
        let outputs: [OutputDescriptor] = []
        let parameters: [String: String] = [:]
        let dependencies: [String]
        func measure(_ input: inout EstimatorInput) throws(EstimatorFailure) -> [Double] { [] }
    }

    /// Two factories that each wait for the other to have started: built one after the other,
    /// the first would wait in vain and fail.
    @Test(.enabled(if: ProcessInfo.processInfo.activeProcessorCount >= 2))
    func factoriesOfOneWaveRunAtOnce() throws {
        let started = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        @Sendable func rendezvous(_ mine: DispatchSemaphore, _ other: DispatchSemaphore, _ name: String) throws -> Stub
        {
            mine.signal()
            guard other.wait(timeout: .now() + 10) == .success else {
                throw EstimatorSetupError(estimator: name, message: "the other factory never started")
            }
            other.signal()
            return Stub(name: name, dependencies: [])
        }
        let registry = EstimatorRegistry(entries: [
            .init(name: "a", summary: "") { _ in try rendezvous(started.0, started.1, "a") },
            .init(name: "b", summary: "") { _ in try rendezvous(started.1, started.0, "b") },
        ])
        #expect(try registry.make(["a", "b"], options: EstimatorOptions()).map(\.name) == ["a", "b"])
    }

    @Test func eachEstimatorIsMadeOnceAndDependenciesFirst() throws {
        let made = Mutex<[String]>([])
        @Sendable func entry(_ name: String, _ dependencies: [String]) -> EstimatorRegistry.Entry {
            .init(name: name, summary: "") { _ in
                made.withLock { $0.append(name) }
                return Stub(name: name, dependencies: dependencies)
            }
        }
        let registry = EstimatorRegistry(entries: [
            entry("base", []), entry("middle", ["base"]), entry("top", ["middle", "base"]),
        ])
        let built = try registry.make(["top", "top", "middle"], options: EstimatorOptions())
        #expect(built.map(\.name) == ["base", "middle", "top"])
        #expect(made.withLock { $0.sorted() } == ["base", "middle", "top"])
    }

    /// Both requested factories fail: the error names the first in request order (the old
    /// one-at-a-time build took the requests from the end and named the last).
    @Test func theFirstFailureInRequestOrderIsReported() {
        let registry = EstimatorRegistry(entries: [
            .init(name: "first", summary: "") { _ in throw CascadeError.missing("first.xml not found") },
            .init(name: "second", summary: "") { _ in throw CascadeError.missing("second.xml not found") },
        ])
        #expect {
            try registry.make(["first", "second"], options: EstimatorOptions())
        } throws: { error in
            "\(error)" == "estimator 'first': first.xml not found"
        }
    }
}

import Foundation
import Testing

@testable import PadBench
import PadDataset

/// ``MeasuringThreads``: more samples in flight than cores, each blocked without holding back the others.
@Suite struct MeasuringThreadsTests {
    /// 16 jobs that each wait until all 16 have started: they finish only if 16 run at once
    /// (Swift's task pool alone, one thread per core, would never let them).
    @Test func moreSamplesInFlightThanCores() async {
        let threads = MeasuringThreads(count: 16)
        defer { threads.stop() }
        let started = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let results = await withTaskGroup(of: Int.self) { group in
            for k in 0..<16 {
                group.addTask {
                    await threads.run {
                        started.signal()
                        // Bounded: a pool of fewer threads fails the test instead of hanging it.
                        _ = release.wait(timeout: .now() + 20)
                        return k
                    }
                }
            }
            group.addTask {
                for _ in 0..<16 { _ = started.wait(timeout: .now() + 20) }
                for _ in 0..<16 { release.signal() }
                return -1
            }
            var all: [Int] = []
            for await k in group { all.append(k) }
            return all
        }
        #expect(results.sorted() == Array(-1..<16))
    }

    /// `OrderedMeasurement` with `--concurrency` above the cores still hands outcomes over in order.
    @Test func outcomesStayInDatasetOrder() async throws {
        let folder = Fixture.folder()
        try Fixture.writeSharpAndBlurred(folder)
        let dataset = try DatasetLoader().load(folder)
        let measurer = SampleMeasurer(estimators: [])
        var seen: [Int] = []
        try await OrderedMeasurement(measurer: measurer, concurrency: 32).run(dataset.samples) { seen.append($0.index) }
        #expect(seen == Array(dataset.samples.indices))
    }
}

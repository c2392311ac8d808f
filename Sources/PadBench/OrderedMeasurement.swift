import PadDataset

/// Runs a ``SampleMeasurer`` over samples on all cores and hands the outcomes to a consumer
/// **in dataset order**, with a bounded number of samples in flight.
///
/// ```swift
/// try await OrderedMeasurement(measurer: measurer, concurrency: 2).run(samples) { outcome in
///     try writer.write(outcome)      // called on one task at a time, index 0, 1, 2, ...
/// }
/// ```
///
/// A sample is started only while its index is within `window` of the next index to hand over,
/// so the reorder buffer never holds more than `window` outcomes however slow one sample is:
/// memory does not grow with the dataset.
public struct OrderedMeasurement: Sendable {
    public var measurer: SampleMeasurer
    /// Worker tasks measuring at once (default: active processor count).
    public var concurrency: Int
    /// Largest distance between the oldest unfinished sample and the newest started one.
    public var window: Int

    public init(measurer: SampleMeasurer, concurrency: Int, window: Int? = nil) {
        self.measurer = measurer
        self.concurrency = max(1, concurrency)
        self.window = max(self.concurrency, window ?? self.concurrency * 8)
    }

    /// - Parameters:
    ///   - shouldStop: checked before each new sample is started; once true, no sample starts,
    ///     the ones in flight finish, and those that can be handed over in order are (Ctrl-C).
    ///   - firstIndex: the index the first sample gets in outcomes (a resumed run's offset).
    ///   - samples: any collection of samples (a ``SampleList`` slice: nothing is copied).
    public func run<Samples: RandomAccessCollection>(
        _ samples: Samples, firstIndex: Int = 0, shouldStop: @Sendable () -> Bool = { false },
        consume: (SampleOutcome) throws -> Void
    ) async throws where Samples.Element == Sample {
        let measurer = self.measurer
        try await withThrowingTaskGroup(of: SampleOutcome.self) { group in
            var nextToStart = 0
            var nextToConsume = 0
            var running = 0
            var buffer: [Int: SampleOutcome] = [:]
            func startMore() {
                while running < concurrency, nextToStart < samples.count, nextToStart < nextToConsume + window,
                    !shouldStop()
                {
                    let index = nextToStart
                    let sample = samples[samples.index(samples.startIndex, offsetBy: index)]
                    group.addTask {
                        var outcome = measurer.measure(sample, index: index)
                        outcome.index = index
                        return outcome
                    }
                    nextToStart += 1
                    running += 1
                }
            }
            startMore()
            while let outcome = try await group.next() {
                running -= 1
                buffer[outcome.index] = outcome
                while var ready = buffer.removeValue(forKey: nextToConsume) {
                    ready.index += firstIndex
                    try consume(ready)
                    nextToConsume += 1
                }
                try Task.checkCancellation()
                startMore()
            }
        }
    }
}

import Foundation
import PadSamples
import PadText
import PadVideo

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
/// so the reorder buffer never holds more than `window` outcomes (plus one video's frames) however
/// slow one sample is: memory does not grow with the dataset. The frames of one video that follow
/// each other are one task (``SampleMeasurer/measureVideo(_:threads:)``: one decoding pass).
package struct OrderedMeasurement: Sendable {
    package var measurer: SampleMeasurer
    /// Worker tasks measuring at once (default: active processor count).
    package var concurrency: Int
    /// Largest distance between the oldest unfinished sample and the newest started one.
    package var window: Int
    /// Times the reference work now and then after a sample (``SpeedProbe``); nil: never.
    package var probe: SpeedProbe?

    package init(measurer: SampleMeasurer, concurrency: Int, window: Int? = nil) {
        self.measurer = measurer
        self.concurrency = max(1, concurrency)
        // Saturating: a huge concurrency (refused by the command, not by this type) must not trap.
        let (eight, overflow) = self.concurrency.multipliedReportingOverflow(by: 8)
        self.window = max(self.concurrency, window ?? (overflow ? Int.max : eight))
    }

    /// - Parameters:
    ///   - shouldStop: checked before each new sample is started; once true, no sample starts,
    ///     the ones in flight finish, and those that can be handed over in order are (Ctrl-C).
    ///   - firstIndex: the index the first sample gets in outcomes (a resumed run's offset).
    ///   - samples: any collection of samples (a ``SampleList`` slice: nothing is copied).
    package func run<Samples: RandomAccessCollection>(
        _ samples: Samples, firstIndex: Int = 0, shouldStop: @escaping @Sendable () -> Bool = { false },
        consume: (SampleOutcome) throws -> Void
    ) async throws where Samples.Element == Sample {
        let measurer = self.measurer, cores = Processors.available, probe = self.probe
        // More samples in flight than cores: each on a thread of its own (``MeasuringThreads``).
        let threadsOfTheirOwn = concurrency > cores ? MeasuringThreads(count: concurrency) : nil
        defer { threadsOfTheirOwn?.stop() }
        try await withThrowingTaskGroup(of: [SampleOutcome]?.self) { group in
            var nextToStart = 0
            var nextToConsume = 0
            var running = 0
            var buffer: [Int: SampleOutcome] = [:]
            func startMore() {
                while running < concurrency, nextToStart < samples.count, nextToStart < nextToConsume + window,
                    !shouldStop()
                {
                    let index = nextToStart
                    let unit = Self.unit(samples, from: index)
                    let threads = Self.threadsPerSample(
                        cores: cores, concurrency: concurrency, remaining: samples.count - index)
                    // nil: a video stopped by `shouldStop` (SIGTERM) mid-decoding; nothing of it is
                    // handed over, so the run ends before it and a resume measures it again.
                    let measure: @Sendable () -> [SampleOutcome]? = {
                        defer { probe?.probeIfDue() }
                        if unit.count == 1 && !VideoFiles.isVideo(unit[0].sample.path) {
                            return [measurer.measure(unit[0].sample, index: index, threads: threads)]
                        }
                        return measurer.measureVideo(unit, threads: threads, shouldStop: shouldStop)
                    }
                    group.addTask {
                        guard let threadsOfTheirOwn else { return measure() }
                        return await threadsOfTheirOwn.run(measure)
                    }
                    nextToStart += unit.count
                    running += 1
                }
            }
            startMore()
            while let outcomes = try await group.next() {
                running -= 1
                for outcome in outcomes ?? [] { buffer[outcome.index] = outcome }
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

    /// The samples measured as one task from `start` on: the run of consecutive frames of one
    /// video (decoded in one pass), or the one still image.
    static func unit<Samples: RandomAccessCollection>(_ samples: Samples, from start: Int)
        -> [(index: Int, sample: Sample)] where Samples.Element == Sample
    {
        let at = { (i: Int) in samples[samples.index(samples.startIndex, offsetBy: i)] }
        let first = at(start)
        var unit = [(index: start, sample: first)]
        guard VideoFiles.isVideo(first.path) else { return unit }
        var next = start + 1
        while next < samples.count {
            let sample = at(next)
            guard sample.path == first.path else { break }
            unit.append((next, sample))
            next += 1
        }
        return unit
    }

    /// Threads one sample may use: the cores shared among the samples that can be in flight
    /// (the worker count, or fewer when fewer samples remain), at least 1. `--concurrency 1` on
    /// 2 cores gives every sample 2 threads; the default (a worker per core) gives 1, except to
    /// the last samples of a run.
    static func threadsPerSample(cores: Int, concurrency: Int, remaining: Int) -> Int {
        max(1, cores / max(1, min(concurrency, remaining)))
    }
}

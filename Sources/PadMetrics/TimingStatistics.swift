import Histogram

/// Per-step latency statistics from a high-dynamic-range histogram (HdrHistogram, 3 significant
/// digits: every percentile within 0.1% of the exact value), so memory stays constant however
/// many samples are timed.
///
/// ```swift
/// var decode = TimingHistogram()
/// decode.record(nanoseconds: 1_250_000)
/// let summary = decode.summary(wallSeconds: 12.5)
/// let p99 = summary.p99Nanoseconds
/// ```
package struct TimingHistogram: Sendable {
    private var histogram = Histogram<UInt64>(
        lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000_000,
        numberOfSignificantValueDigits: .three)
    /// Exact sum for the mean (the histogram's mean is bucketed).
    private var sum: Double = 0
    private var exactMax: UInt64 = 0

    package init() {}

    package var count: Int { Int(histogram.totalCount) }

    package mutating func record(nanoseconds: UInt64) {
        _ = histogram.record(min(max(nanoseconds, 1), 3_600_000_000_000))
        sum += Double(nanoseconds)
        exactMax = max(exactMax, nanoseconds)
    }

    package mutating func merge(_ other: TimingHistogram) {
        histogram.add(other.histogram)
        sum += other.sum
        exactMax = max(exactMax, other.exactMax)
    }

    package func percentile(_ p: Double) -> UInt64 { count > 0 ? histogram.valueAtPercentile(p) : 0 }

    /// - Parameter wallSeconds: the wall time the samples took, for throughput.
    package func summary(wallSeconds: Double) -> TimingSummary {
        TimingSummary(
            count: count, meanNanoseconds: count > 0 ? sum / Double(count) : .nan,
            p50Nanoseconds: percentile(50), p90Nanoseconds: percentile(90), p99Nanoseconds: percentile(99),
            maxNanoseconds: exactMax,
            throughput: wallSeconds > 0 ? Double(count) / wallSeconds : .nan)
    }
}

/// One step of a run's timing table (`decode`, an estimator, `sample_total`): its wall-clock
/// summary, the estimator's cold start (0 for steps that have none) and, for a step that computes
/// on padbench's own thread, the summary of that thread's CPU time (nil for an external program,
/// whose work is in another process, and for runs stored without CPU columns).
package struct TimingStep: Sendable {
    package var name: String
    package var summary: TimingSummary
    package var coldStartNanoseconds: UInt64
    package var cpu: TimingSummary?
    package init(name: String, summary: TimingSummary, coldStartNanoseconds: UInt64 = 0, cpu: TimingSummary? = nil) {
        self.name = name
        self.summary = summary
        self.coldStartNanoseconds = coldStartNanoseconds
        self.cpu = cpu
    }
}

/// count, mean, p50, p90, p99, max (nanoseconds) and throughput (samples per wall second).
package struct TimingSummary: Sendable, Equatable, Codable {
    package var count: Int
    package var meanNanoseconds: Double
    package var p50Nanoseconds: UInt64
    package var p90Nanoseconds: UInt64
    package var p99Nanoseconds: UInt64
    package var maxNanoseconds: UInt64
    package var throughput: Double

    package init(
        count: Int, meanNanoseconds: Double, p50Nanoseconds: UInt64, p90Nanoseconds: UInt64,
        p99Nanoseconds: UInt64, maxNanoseconds: UInt64, throughput: Double
    ) {
        self.count = count
        self.meanNanoseconds = meanNanoseconds
        self.p50Nanoseconds = p50Nanoseconds
        self.p90Nanoseconds = p90Nanoseconds
        self.p99Nanoseconds = p99Nanoseconds
        self.maxNanoseconds = maxNanoseconds
        self.throughput = throughput
    }
}

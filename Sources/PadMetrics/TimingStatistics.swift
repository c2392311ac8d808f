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
public struct TimingHistogram: Sendable {
    private var histogram = Histogram<UInt64>(
        lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000_000,
        numberOfSignificantValueDigits: .three)
    /// Exact sum for the mean (the histogram's mean is bucketed).
    private var sum: Double = 0
    private var exactMax: UInt64 = 0

    public init() {}

    public var count: Int { Int(histogram.totalCount) }

    public mutating func record(nanoseconds: UInt64) {
        _ = histogram.record(min(max(nanoseconds, 1), 3_600_000_000_000))
        sum += Double(nanoseconds)
        exactMax = max(exactMax, nanoseconds)
    }

    public mutating func merge(_ other: TimingHistogram) {
        histogram.add(other.histogram)
        sum += other.sum
        exactMax = max(exactMax, other.exactMax)
    }

    public func percentile(_ p: Double) -> UInt64 { count > 0 ? histogram.valueAtPercentile(p) : 0 }

    /// - Parameter wallSeconds: the wall time the samples took, for throughput.
    public func summary(wallSeconds: Double) -> TimingSummary {
        TimingSummary(
            count: count, meanNanoseconds: count > 0 ? sum / Double(count) : .nan,
            p50Nanoseconds: percentile(50), p90Nanoseconds: percentile(90), p99Nanoseconds: percentile(99),
            maxNanoseconds: exactMax,
            throughput: wallSeconds > 0 ? Double(count) / wallSeconds : .nan)
    }
}

/// count, mean, p50, p90, p99, max (nanoseconds) and throughput (samples per wall second).
/// One step of a run's timing table (`decode`, an estimator, `sample_total`): its summary and the
/// estimator's cold start (0 for steps that have none).
public typealias TimingStep = (name: String, summary: TimingSummary, coldStartNanoseconds: UInt64)

public struct TimingSummary: Sendable, Equatable, Codable {
    public var count: Int
    public var meanNanoseconds: Double
    public var p50Nanoseconds: UInt64
    public var p90Nanoseconds: UInt64
    public var p99Nanoseconds: UInt64
    public var maxNanoseconds: UInt64
    public var throughput: Double

    public init(
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

/// Which frames of a video are measured: `count(N)` spreads N frames evenly over the stream,
/// `step(K)` takes every K-th frame from the first.
///
/// `count(N)` of a video of F frames takes frame `floor((2i + 1) * F / (2N))` for i in 0..<N, the
/// middle frame of each of N equal parts (so neither the first nor the last frame, which often
/// show the camera starting or stopping, is favoured); with N >= F every frame is taken once.
///
/// Example: `FrameSamplingTests.evenSpreadTakesTheMiddleOfEachPart`
/// in `Tests/PadVideoTests/VideoDecoderTests.swift` (compiled and run by `swift test`).
package enum FrameSampling: Sendable, Equatable, CustomStringConvertible {
    case count(Int)
    case step(Int)

    /// The default: 10 frames evenly over each video.
    package static let standard = FrameSampling.count(10)

    /// Frame numbers (ascending, distinct) for a video of `frameCount` frames.
    package func indices(frameCount: Int) -> [Int] {
        guard frameCount > 0 else { return [] }
        switch self {
        case .count(let n):
            guard n < frameCount else { return Array(0..<frameCount) }
            return (0..<n).map { (2 * $0 + 1) * frameCount / (2 * n) }
        case .step(let k):
            return Array(stride(from: 0, to: frameCount, by: max(1, k)))
        }
    }

    package var description: String {
        switch self {
        case .count(let n): return "frames=\(n)"
        case .step(let k): return "frame-step=\(k)"
        }
    }
}

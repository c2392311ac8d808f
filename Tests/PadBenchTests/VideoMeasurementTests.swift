import Foundation
import Synchronization
import PadVocabulary
import Testing
@testable import PadBench
import PadSamples
import PadEstimators
import PadEvaluation
import PadImage
import PadVideo

/// The frames of a video measured in one decoding pass, each frame a sample; a video that lies
/// about its length fails as a whole, with the reason.
@Suite struct VideoMeasurementTests {
    static func clip(_ folder: String, frames: Int = 12) throws -> String {
        let images = (0..<frames).map { t in Fixture.image(contrast: 10 + t * 3, seed: t) }
        let path = folder + "/clip.avi"
        try Data(VideoEncoder.encode(images, rate: 10, codec: .mjpeg, quality: 2)).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func frames(_ path: String, _ indices: [Int]) -> [(index: Int, sample: Sample)] {
        indices.enumerated().map { n, k in
            (n, Sample(id: "clip.avi#\(k)", path: path, label: .bonaFide, presentation: "clip.avi", frameIndex: k))
        }
    }

    /// SIGTERM on a long video: `shouldStop` is asked before each packet, so a stop mid-video ends
    /// the decoding there and the video is not handed over at all (nil: a resume measures it
    /// again); before, the whole stream was decoded first (a 2 MB video of 8192x8192 frames: hours).
    @Test func aStopMidVideoEndsItsDecodingAndMeasuresNothingOfIt() throws {
        let folder = Fixture.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try Self.clip(folder)
        var asked = 0
        var delivered = 0
        let completed = try VideoDecoder().decode(
            path: path, frames: [11],
            shouldStop: {
                asked += 1
                return asked > 3
            }
        ) { _ in delivered += 1 }
        #expect(!completed && asked == 4 && delivered == 0)
        let measurer = SampleMeasurer(estimators: try EstimatorCatalog.registry.make(["quality"], options: .init()))
        let stop = Mutex(0)
        let stopped = measurer.measureVideo(
            Self.frames(path, [1, 11]), threads: 1,
            shouldStop: {
                stop.withLock {
                    $0 += 1
                    return $0 > 5
                }
            })
        #expect(stopped == nil)
        #expect(measurer.measureVideo(Self.frames(path, [1, 11]), threads: 1, shouldStop: { false })?.count == 2)
    }

    @Test func everyFrameAskedForIsMeasuredOnItsOwnDecodedImage() throws {
        let folder = Fixture.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try Self.clip(folder)
        let measurer = SampleMeasurer(estimators: try EstimatorCatalog.registry.make(["quality"], options: .init()))
        let outcomes = measurer.measureVideo(Self.frames(path, [9, 2, 5]))
        #expect(outcomes.map(\.index) == [0, 1, 2])
        #expect(outcomes.allSatisfy { $0.status.isOK })
        // The same frames decoded alone and measured as images give the same values.
        var expected: [Int: [Double]] = [:]
        try VideoDecoder().decode(path: path, frames: [2, 5, 9]) { frame in
            expected[frame.index] =
                measurer.measure(
                    frame.image, of: Self.frames(path, [frame.index])[0].sample, index: 0,
                    decode: StepClock(wall: 0, cpu: 0),
                    threads: 1
                ).values
        }
        let sharpness = measurer.columns.firstIndex(of: "quality.sharpness")!
        #expect(outcomes.map { $0.values[sharpness] } == [9, 2, 5].map { expected[$0]![sharpness] })
        #expect(Set(outcomes.map { $0.values[sharpness] }).count == 3) // three different frames
        #expect(outcomes.allSatisfy { $0.decodeNanoseconds > 0 })
    }

    @Test func aVideoShorterThanItsListingFailsEveryFrameWithTheReason() throws {
        let folder = Fixture.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try Self.clip(folder)
        let outcomes = SampleMeasurer(estimators: []).measureVideo(Self.frames(path, [3, 20]))
        let expected = SampleStatus.failed(
            code: .decodeError,
            message:
                "the stream ends after 12 frames; frame 20 was asked for (the container lists 12 packets read so far)")
        #expect(outcomes.map(\.status.code) == [expected.code, expected.code])
        #expect(outcomes.map(\.status.message) == [expected.message, expected.message])
        #expect(outcomes.map(\.values.count) == [0, 0])
    }

    @Test func aVideoThatCannotBeOpenedIsOneFailedSampleNamingWhy() throws {
        let folder = Fixture.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("RIFF....AVI garbage".utf8).write(to: URL(fileURLWithPath: folder + "/bad.avi"))
        let sample = Sample(id: "bad.avi", path: folder + "/bad.avi", label: .attack(species: "print"))
        let outcome = SampleMeasurer(estimators: []).measure(sample, index: 0)
        #expect(outcome.status.code == .unsupportedFormat || outcome.status.code == .decodeError)
        #expect(!outcome.status.isOK)
    }
}

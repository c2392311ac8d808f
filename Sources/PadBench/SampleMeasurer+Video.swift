import PadSamples
import PadImage
import PadVideo

extension SampleMeasurer {
    /// Measures frames of one video (samples of one path, any order): the stream is decoded once
    /// from its start, each frame asked for is measured as it arrives and dropped, so a video
    /// costs one decoded frame of memory. A frame's decode time is the time since the previous
    /// frame asked for (the first frame's includes opening the container), so a video's frames
    /// add up to its decode time. When the video fails (cannot be opened, over a limit, a stream
    /// that lies about its length or codec), every frame of it fails with the reason: the
    /// presentation is a failure to process, never half measured.
    package func measureVideo(_ frames: [(index: Int, sample: Sample)], threads: Int = 1) -> [SampleOutcome] {
        measureVideo(frames, threads: threads, shouldStop: { false })!
    }

    /// As ``measureVideo(_:threads:)``; nil when `shouldStop` (asked before each packet) ended
    /// the decoding: the video is then not measured at all, and a resumed run measures it again.
    package func measureVideo(
        _ frames: [(index: Int, sample: Sample)], threads: Int, shouldStop: () -> Bool
    ) -> [SampleOutcome]? {
        let start = StepClock.now()
        guard let first = frames.first else { return [] }
        let path = first.sample.path
        var wanted: [Int: Int] = [:] // frame index -> position in `frames`
        for (position, frame) in frames.enumerated() {
            guard let k = frame.sample.frameIndex else {
                return failAll(frames, unlisted(path), since: start)
            }
            wanted[k] = position
        }
        var outcomes = [SampleOutcome?](repeating: nil, count: frames.count)
        var last = start
        do {
            let completed = try video.decode(
                path: path, frames: Array(wanted.keys), threads: threads, shouldStop: shouldStop
            ) { decoded in
                guard let position = wanted[decoded.index] else { return }
                let decode = StepClock.since(last)
                let frame = frames[position]
                outcomes[position] = measure(
                    decoded.image, of: frame.sample, index: frame.index, decode: decode, threads: threads)
                last = StepClock.now()
            }
            if !completed { return nil }
        } catch {
            return failAll(frames, error, since: start)
        }
        return outcomes.enumerated().map { position, outcome in
            outcome
                ?? failure(
                    .decodeError("frame \(frames[position].sample.frameIndex ?? -1) was not decoded"),
                    index: frames[position].index, decode: StepClock(wall: 0, cpu: 0))
        }
    }

    /// Why a video sample without a frame index (its listing failed) cannot be measured: the
    /// listing's error again, or, when the file opens now, that it has no frame to measure.
    func unlisted(_ path: String) -> ImageError {
        do {
            let info = try video.probe(path: path)
            return .decodeError(
                info.frameCount == 0
                    ? "the video holds no frame" : "the video was not listed when the dataset was loaded")
        } catch {
            return error
        }
    }

    /// Every frame failed with `error`; the time spent goes to the first.
    func failAll(_ frames: [(index: Int, sample: Sample)], _ error: ImageError, since start: StepClock)
        -> [SampleOutcome]
    {
        let spent = StepClock.since(start)
        return frames.enumerated().map { position, frame in
            failure(error, index: frame.index, decode: position == 0 ? spent : StepClock(wall: 0, cpu: 0))
        }
    }
}

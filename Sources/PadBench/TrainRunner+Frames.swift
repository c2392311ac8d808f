import PadSamples
import PadImage
import PadVideo

extension TrainRunner {
    /// A training split's work, in units one worker decodes: each still image alone, and the
    /// sampled frames of one video together (in the order listed), so that a video is decoded once
    /// from its start for all its frames, as `bench` decodes it (``SampleMeasurer/measureVideo(_:threads:)``).
    static func units(of samples: [Sample]) -> [[Int]] {
        var units: [[Int]] = [], unitOfVideo: [String: Int] = [:]
        for (i, sample) in samples.enumerated() {
            guard sample.frameIndex != nil || VideoFiles.isVideo(sample.path) else {
                units.append([i])
                continue
            }
            if let u = unitOfVideo[sample.path] {
                units[u].append(i)
            } else {
                unitOfVideo[sample.path] = units.count
                units.append([i])
            }
        }
        return units
    }

    /// Decodes the samples of one unit and hands each sample's image, or why it has none, to `body`:
    /// a still image with `measurer`'s image decoder; the frames of a video with its video decoder,
    /// upright RGB, the frames `--frames` / `--frame-step` chose when the dataset was loaded. A video
    /// that cannot be opened, or whose stream fails before a frame, fails those frames with the reason.
    static func decode(
        _ unit: [Int], of samples: [Sample], with measurer: SampleMeasurer,
        _ body: (Int, Result<Image, ImageError>) -> Void
    ) {
        let first = samples[unit[0]]
        guard first.frameIndex != nil || VideoFiles.isVideo(first.path) else {
            do { body(unit[0], .success(try measurer.decoder.decode(fileAt: first.path))) } catch {
                body(unit[0], .failure(error))
            }
            return
        }
        var sampleOfFrame: [Int: Int] = [:]
        for i in unit {
            guard let k = samples[i].frameIndex else {
                for j in unit { body(j, .failure(measurer.unlisted(first.path))) }
                return
            }
            sampleOfFrame[k] = i
        }
        var delivered = Set<Int>()
        do {
            try measurer.video.decode(path: first.path, frames: Array(sampleOfFrame.keys)) { frame in
                guard let i = sampleOfFrame[frame.index] else { return }
                delivered.insert(i)
                body(i, .success(frame.image))
            }
        } catch {
            for i in unit where !delivered.contains(i) { body(i, .failure(error)) }
        }
    }
}

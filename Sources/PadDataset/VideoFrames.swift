import PadImage
import PadText
import PadVideo
import PadSamples

/// How a dataset's videos become samples: which frames are taken and the limits each video must
/// meet (`bench` and `dataset check`: `--frames N`, `--frame-step K`, `--max-pixels`,
/// `--max-video-frames`, `--max-video-seconds`).
package struct VideoOptions: Sendable, Equatable {
    package var sampling: FrameSampling
    package var limits: VideoLimits

    package init(sampling: FrameSampling = .standard, limits: VideoLimits = VideoLimits()) {
        self.sampling = sampling
        self.limits = limits
    }
}

/// One video of a dataset as the loader listed it: its presentation id (the path relative to the
/// dataset folder), the frames its container holds, the frames taken, and why it could not be
/// opened (then it is one failed sample, measured as `decode_error`, `too_large`, ...).
package struct VideoEntry: Sendable, Equatable {
    package var presentation: String
    package var frameCount: Int
    package var sampledFrames: Int
    package var error: ImageError?

    package init(presentation: String, frameCount: Int, sampledFrames: Int, error: ImageError? = nil) {
        self.presentation = presentation
        self.frameCount = frameCount
        self.sampledFrames = sampledFrames
        self.error = error
    }
}

/// Expands the videos of a listing into frame samples, probing every video (its packets counted,
/// no frame decoded) on the machine's cores.
enum VideoFrames {
    /// `listed` in order, each video replaced by its sampled frames (`Sample.frameID` ids, the
    /// video as presentation, frame index and time stamp), still images kept as they are. A video
    /// that cannot be listed stays one sample with the video's own id: measuring it reports why.
    /// `clashes`: each still image whose id is also a frame's id (a file named `clip.avi#3` beside
    /// `clip.avi`), with that frame's id: two samples of one id, which every id-keyed table
    /// would merge; the loader makes each a `duplicate_id` problem.
    static func expand(_ listed: SampleList, options: VideoOptions) -> (
        samples: SampleList, videos: [VideoEntry], clashes: [(still: Sample, frameID: String)]
    ) {
        let videoRows = listed.indices.filter { VideoFiles.isVideo(listed.id($0)) }
        guard !videoRows.isEmpty else { return (listed, [], []) }
        // Only an id holding `#` can be a frame's: the few there are, looked up as frames are made.
        var stillsWithHash: [String: Int] = [:]
        for i in listed.indices where listed.id(i).contains("#") && !VideoFiles.isVideo(listed.id(i)) {
            stillsWithHash[listed.id(i)] = i
        }
        var clashes: [(still: Sample, frameID: String)] = []
        let decoder = VideoDecoder(limits: options.limits)
        let probes = Parallel.map(videoRows.map { listed[$0].path }) { path -> Result<VideoInfo, ImageError> in
            do throws(ImageError) { return .success(try decoder.probe(path: path)) } catch { return .failure(error) }
        }
        var probeOf: [Int: Result<VideoInfo, ImageError>] = [:]
        for (row, probe) in zip(videoRows, probes) { probeOf[row] = probe }
        var samples = SampleList(root: String(listed.pathPrefix.dropLast()))
        samples.reserveCapacity(listed.count + videoRows.count * 8)
        var videos: [VideoEntry] = []
        for i in listed.indices {
            let sample = listed[i]
            guard let probe = probeOf[i] else {
                samples.append(sample)
                continue
            }
            switch probe {
            case .failure(let error):
                videos.append(
                    VideoEntry(presentation: sample.presentation, frameCount: 0, sampledFrames: 0, error: error))
                samples.append(sample)
            case .success(let info):
                let indices = options.sampling.indices(frameCount: info.frameCount)
                videos.append(
                    VideoEntry(
                        presentation: sample.presentation, frameCount: info.frameCount, sampledFrames: indices.count))
                if indices.isEmpty { samples.append(sample) }
                for k in indices {
                    var frame = sample
                    frame.id = Sample.frameID(presentation: sample.id, frameIndex: k)
                    if let still = stillsWithHash[frame.id] { clashes.append((listed[still], frame.id)) }
                    frame.presentation = sample.presentation
                    frame.frameIndex = k
                    frame.timestamp = info.frameTimes[k]
                    samples.append(frame)
                }
            }
        }
        return (samples, videos, clashes)
    }
}

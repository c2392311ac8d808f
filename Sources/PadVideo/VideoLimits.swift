/// What padbench accepts from one video before it allocates anything for it. Hostile containers
/// lie about their length, frame count and frame size; every limit is checked on what the
/// container says and again on what actually arrives.
package struct VideoLimits: Sendable, Equatable {
    /// Pixels per frame (width x height), the same limit as for still images (`--max-pixels`).
    package var maxPixels: Int
    /// Frames (video packets) per video.
    package var maxFrames: Int
    /// Seconds per video (the container's duration and the last frame's time stamp).
    package var maxSeconds: Double
    /// Pixels decoded per video (each decoded frame's width x height, summed up to the last frame
    /// measured): the decode budget. The other limits bound one frame and the count; a stream of
    /// many frames each just under the pixel limit passes both and decodes for hours (100,000
    /// 8192x8192 frames of all-skip H.264 fit in 2 MB). The default, 250 gigapixels, holds an hour
    /// of 1080p at 30 frames/s (224 gigapixels), as the duration limit does.
    package var maxDecodedPixels: Int

    package init(
        maxPixels: Int = 100_000_000, maxFrames: Int = 100_000, maxSeconds: Double = 3_600,
        maxDecodedPixels: Int = 250_000_000_000
    ) {
        self.maxPixels = maxPixels
        self.maxFrames = maxFrames
        self.maxSeconds = maxSeconds
        self.maxDecodedPixels = maxDecodedPixels
    }
}

/// The file name extensions padbench reads as videos.
package enum VideoFiles {
    package static let extensions: Set<String> = ["avi", "mov", "mp4", "mkv", "webm"]

    /// True when `path` ends in one of ``extensions`` (case-insensitive).
    package static func isVideo(_ path: String) -> Bool {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return false }
        return extensions.contains(path[path.index(after: dot)...].lowercased())
    }
}

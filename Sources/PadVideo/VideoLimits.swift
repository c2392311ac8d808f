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

    package init(maxPixels: Int = 100_000_000, maxFrames: Int = 100_000, maxSeconds: Double = 3_600) {
        self.maxPixels = maxPixels
        self.maxFrames = maxFrames
        self.maxSeconds = maxSeconds
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

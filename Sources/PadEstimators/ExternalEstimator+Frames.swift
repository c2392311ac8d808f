import Foundation
import PadDataset
import PadImage

extension ExternalEstimator {
    /// What a request says about a video frame, beside `id` (the frame's id, `clip.avi#12`):
    /// `presentation` (the video's presentation id, the same for all its frames), `frame` (the
    /// 0-based frame number in decode order), `time` (seconds from the stream's first frame, when the
    /// stream gives it) and `video` (the video file's path, as `path` used to be). `path` itself is a
    /// temporary PNG of the decoded frame (``writeFrame(_:)``). Empty for a still image.
    package static func frameFields(_ sample: Sample) -> [String: Any] {
        guard let frame = sample.frameIndex else { return [:] }
        var fields: [String: Any] = ["presentation": sample.presentation, "frame": frame, "video": sample.path]
        if let time = sample.timestamp, time.isFinite { fields["time"] = time }
        return fields
    }

    /// The decoded frame as a PNG (libpng; lossless, so the program reads the pixels padbench
    /// measured: upright RGB, byte for byte `ffmpeg -pix_fmt rgb24`) in the temporary folder
    /// (`$TMPDIR`, else `/tmp`), readable by the user alone, under a name no other file has. The
    /// caller removes it once the program has answered (or failed).
    static func writeFrame(_ image: Image) throws(EstimatorFailure) -> String {
        let bytes: [UInt8]
        do { bytes = try ImageEncoder.png(image) } catch {
            throw EstimatorFailure(.estimatorError, "cannot encode the video frame as PNG: \(error)")
        }
        let folder = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        let path = folder + "/padbench-frame-\(getpid())-\(UUID().uuidString).png"
        let created = FileManager.default.createFile(
            atPath: path, contents: Data(bytes), attributes: [.posixPermissions: 0o600])
        guard created else {
            throw EstimatorFailure(.estimatorError, "cannot write the video frame to \(path)")
        }
        return path
    }
}

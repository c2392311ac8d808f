import Foundation
import PadEstimators
import PadSamples
import PadImage

#if canImport(Glibc)
import Glibc
#endif

extension ExternalEstimator {
    /// What a request says about a video frame, beside `id` (the frame's id, `clip.avi#12`):
    /// `presentation` (the video's presentation id, the same for all its frames), `frame` (the
    /// 0-based frame number in decode order), `time` (seconds from the stream's first frame, when the
    /// stream gives it) and `video` (the video file's path, as `path` used to be). `path` itself is a
    /// temporary PPM of the decoded frame (``writePixels(_:)``). Empty for a still image.
    package static func addFrameFields(of sample: Sample, to request: inout ExternalRequest) {
        guard let frame = sample.frameIndex else { return }
        request.presentation = sample.presentation
        request.frame = frame
        request.video = sample.path
        if let time = sample.timestamp, time.isFinite { request.time = time }
    }

    /// The decoded image handed to a program as a file: a binary PPM (`P6`, maxval 255), the
    /// upright 8-bit RGB pixels (byte for byte `ffmpeg -pix_fmt rgb24` for a video frame; a gray
    /// image's value three times) after a header of ``PixelFile/offset`` bytes. Every image library
    /// reads PPM, and `numpy.fromfile(path, uint8, offset=offset)` reads the pixels: nothing is
    /// compressed (a PNG of a 640x480 frame cost about 145 ms at libpng's default level). In the
    /// temporary folder (`$TMPDIR`, else `/tmp`), readable by the user alone, under a name no other
    /// file has; the caller removes it once the program has answered (or failed).
    static func writePixels(_ image: Image) throws(EstimatorFailure) -> PixelFile {
        let header = Array("P6\n\(image.width) \(image.height)\n255\n".utf8)
        let rgb = image.format == .rgb ? image.pixels : image.pixels.flatMap { [$0, $0, $0] }
        let folder = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        let path = folder + "/padbench-frame-\(getpid())-\(UUID().uuidString).ppm"
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw EstimatorFailure(
                .estimatorError, "cannot write the decoded image to \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        for part in [header, rgb] {
            var written = 0
            while written < part.count {
                let n = part.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + written, part.count - written) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else {
                    let reason = String(cString: strerror(errno))
                    unlink(path)
                    throw EstimatorFailure(.estimatorError, "cannot write the decoded image to \(path): \(reason)")
                }
                written += n
            }
        }
        return PixelFile(path: path, offset: header.count, width: image.width, height: image.height)
    }

    /// A decoded image written for a program: where, and how its pixels are laid out.
    struct PixelFile {
        var path: String
        /// Bytes of the PPM header before the first pixel.
        var offset: Int
        var width: Int
        var height: Int
        /// A request's `pixels` field.
        var fields: ExternalRequest.PixelFields {
            ExternalRequest.PixelFields(path: path, offset: offset, width: width, height: height, stride: width * 3)
        }
    }
}

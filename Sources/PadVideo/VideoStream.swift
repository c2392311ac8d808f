import CAVCodec
import CAVFormat
import CAVUtil
import Foundation
import PadImage

/// The video stream of an opened container, its limits checked on what the container declares,
/// with a decoder ready: FFmpeg's choice of stream (`av_find_best_stream`), the decoder of the
/// codec the container names, `max_pixels` set so that libavcodec itself refuses a bitstream
/// that declares a larger frame, and `AV_EF_EXPLODE` so that damage is an error, not a frame
/// with concealed blocks (padbench's rule for JPEG: stop on warning).
final class VideoStream {
    let input: VideoInput
    let index: Int32
    let stream: UnsafeMutablePointer<AVStream>
    let codec: UnsafeMutablePointer<AVCodecContext>
    let rotation: DisplayRotation

    init(input: VideoInput, limits: VideoLimits, threads: Int) throws(ImageError) {
        // FFmpeg's messages are off (libswscale's "deprecated pixel format" included): every
        // failure reaches the caller as an ``ImageError``.
        av_log_set_level(AV_LOG_QUIET)
        self.input = input
        let format = input.format
        try Self.checkDeclaredSizes(format, limits: limits)
        try Self.findStreamInfo(format, maxPixels: limits.maxPixels)
        let best = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        guard best >= 0, let stream = format.pointee.streams[Int(best)] else {
            throw .decodeError("no video stream (\(averror(best)))")
        }
        index = best
        self.stream = stream
        let parameters = stream.pointee.codecpar!
        let width = Int(parameters.pointee.width), height = Int(parameters.pointee.height)
        guard width > 0, height > 0 else { throw .decodeError("the video stream declares no frame size") }
        guard width * height <= limits.maxPixels else {
            throw .tooLarge(width: width, height: height, limit: limits.maxPixels)
        }
        try Self.checkDuration(format, stream, limits: limits)
        let codecName = String(cString: avcodec_get_name(parameters.pointee.codec_id))
        guard let decoder = avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw .unsupportedFormat("no decoder for the video codec '\(codecName)'")
        }
        // Read before the decoder exists: an init that throws before every property is set never
        // runs `deinit`, so nothing that needs freeing may be held across a throw (a stream whose
        // decoder failed to open or whose rotation was refused leaked the codec context; FuzzVideo).
        rotation = try DisplayRotation(stream: stream)
        guard let context = avcodec_alloc_context3(decoder) else { throw .decodeError("FFmpeg: out of memory") }
        var status = avcodec_parameters_to_context(context, parameters)
        context.pointee.max_pixels = Int64(limits.maxPixels)
        context.pointee.thread_count = Int32(max(1, threads))
        // Slice threads only. Frame threading together with AV_EF_EXPLODE aborts the process on a
        // damaged MPEG-4 stream (FFmpeg 5.1: `Assertion frame->buf[0] failed at
        // libavcodec/decode.c`; `ffmpeg -threads 2 -err_detect explode` aborts the same way), and
        // damage must be an error, not a crash: 12 of 12 truncated or byte-flipped MPEG-4 AVIs
        // aborted a run with 2 decoder threads. Slice threading splits one frame across threads
        // and shares no frame buffers between them.
        context.pointee.thread_type = FF_THREAD_SLICE
        context.pointee.pkt_timebase = stream.pointee.time_base
        context.pointee.err_recognition |= AV_EF_EXPLODE
        if status >= 0 { status = avcodec_open2(context, decoder, nil) }
        guard status >= 0 else {
            var failed: UnsafeMutablePointer<AVCodecContext>? = context
            avcodec_free_context(&failed)
            throw .decodeError("cannot open the '\(codecName)' decoder: \(averror(status))")
        }
        codec = context
    }

    deinit {
        var context: UnsafeMutablePointer<AVCodecContext>? = codec
        avcodec_free_context(&context)
    }

    /// The codec's name as FFmpeg spells it (`mpeg4`, `h264`, `mjpeg`).
    var codecName: String { String(cString: avcodec_get_name(stream.pointee.codecpar.pointee.codec_id)) }

    /// The container's name as FFmpeg spells it (`avi`, `mov,mp4,m4a,3gp,3g2,mj2`, `matroska,webm`).
    var containerName: String { String(cString: input.format.pointee.iformat.pointee.name) }

    /// The frame size each video stream's header declares, before any decoder runs.
    private static func checkDeclaredSizes(_ format: UnsafeMutablePointer<AVFormatContext>, limits: VideoLimits)
        throws(ImageError)
    {
        for i in 0..<Int(format.pointee.nb_streams) {
            guard let parameters = format.pointee.streams[i]?.pointee.codecpar?.pointee,
                parameters.codec_type == AVMEDIA_TYPE_VIDEO
            else { continue }
            let width = Int(parameters.width), height = Int(parameters.height)
            guard width.multipliedReportingOverflow(by: height).partialValue <= limits.maxPixels else {
                throw .tooLarge(width: width, height: height, limit: limits.maxPixels)
            }
        }
    }

    /// `avformat_find_stream_info` decodes a few frames of every stream to learn their
    /// parameters; each of those decoders gets the pixel limit too.
    private static func findStreamInfo(_ format: UnsafeMutablePointer<AVFormatContext>, maxPixels: Int)
        throws(ImageError)
    {
        let count = Int(format.pointee.nb_streams)
        var options = [OpaquePointer?](repeating: nil, count: max(count, 1))
        for i in 0..<count { av_dict_set(&options[i], "max_pixels", String(maxPixels), 0) }
        let status = options.withUnsafeMutableBufferPointer { buffer in
            avformat_find_stream_info(format, buffer.baseAddress)
        }
        for i in options.indices { av_dict_free(&options[i]) }
        guard status >= 0 else { throw .decodeError("cannot read the stream parameters: \(averror(status))") }
    }

    /// The container's own duration (or the stream's) against the limit, before any frame.
    private static func checkDuration(
        _ format: UnsafeMutablePointer<AVFormatContext>, _ stream: UnsafeMutablePointer<AVStream>,
        limits: VideoLimits
    ) throws(ImageError) {
        var seconds = 0.0
        if format.pointee.duration > 0 { seconds = Double(format.pointee.duration) / Double(AV_TIME_BASE) }
        if stream.pointee.duration > 0 {
            seconds = max(seconds, Double(stream.pointee.duration) * av_q2d(stream.pointee.time_base))
        }
        guard seconds <= limits.maxSeconds else { throw Self.tooLong(seconds, limits) }
    }

    static func tooLong(_ seconds: Double, _ limits: VideoLimits) -> ImageError {
        .overLimit(
            "video is \(String(format: "%.1f", seconds)) s long, over the limit of "
                + "\(String(format: "%g", limits.maxSeconds)) s")
    }

    /// Over the decode budget: `pixels` would be decoded (frames so far, or the frames up to the
    /// last one asked for at the declared size).
    static func overBudget(_ pixels: Int, _ limits: VideoLimits) -> ImageError {
        .overLimit(
            "decoding the video up to the last frame measured takes \(pixels) pixels or more, over the "
                + "decode budget of \(limits.maxDecodedPixels) (--max-decoded-pixels)")
    }

    static func tooManyFrames(_ limits: VideoLimits) -> ImageError {
        .overLimit("video has more than \(limits.maxFrames) frames, the limit")
    }

    /// Seconds of a time stamp in the stream's time base, from the stream's start.
    func seconds(_ timestamp: Int64, start: Int64) -> Double {
        Double(timestamp - start) * av_q2d(stream.pointee.time_base)
    }
}

import CAVCodec
import CAVFormat
import CAVUtil
import PadImage

/// The packet and frame loop of one decode (send a packet, receive every frame it completes),
/// its counters and its FFmpeg objects, freed with it.
struct DecodeState: ~Copyable {
    let video: VideoStream
    let limits: VideoLimits
    let packet: UnsafeMutablePointer<AVPacket>
    let frame: UnsafeMutablePointer<AVFrame>
    let converter: FrameConverter
    /// Frames decoded so far (the next frame's number) and video packets sent.
    var decoded = 0
    var packets = 0
    /// Pixels of the frames decoded so far, against ``VideoLimits/maxDecodedPixels``.
    var decodedPixels = 0
    var start = Int64.min
    var draining = false

    init(video: VideoStream, limits: VideoLimits) throws(ImageError) {
        guard let packet = av_packet_alloc(), let frame = av_frame_alloc() else {
            throw .decodeError("FFmpeg: out of memory")
        }
        self.video = video
        self.limits = limits
        self.packet = packet
        self.frame = frame
        converter = FrameConverter(maxPixels: limits.maxPixels)
    }

    deinit {
        var p: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&p)
        var f: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&f)
    }

    /// Sends the next video packet (or, at the end of the container, the flush); false once
    /// the flush has been sent.
    mutating func sendNextPacket() throws(ImageError) -> Bool {
        if draining { return false }
        while true {
            let status = av_read_frame(video.input.format, packet)
            if status == padbench_averror_eof {
                draining = true
                _ = avcodec_send_packet(video.codec, nil)
                return true
            }
            guard status >= 0 else { throw .decodeError("cannot read the container: \(averror(status))") }
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == video.index else { continue }
            packets += 1
            guard packets <= limits.maxFrames else { throw VideoStream.tooManyFrames(limits) }
            let sent = avcodec_send_packet(video.codec, packet)
            guard sent >= 0 || sent == padbench_averror_eagain else {
                throw .decodeError(
                    "the '\(video.codecName)' stream does not decode at packet \(packets): \(averror(sent))")
            }
            return true
        }
    }

    /// Receives the frames the decoder has ready; true once frame `last` has been handed over.
    mutating func receiveFrames(wanted: Set<Int>, last: Int, _ body: (DecodedFrame) -> Void) throws(ImageError)
        -> Bool
    {
        while true {
            let status = avcodec_receive_frame(video.codec, frame)
            if status == padbench_averror_eagain || status == padbench_averror_eof { return false }
            guard status >= 0 else {
                throw .decodeError(
                    "the '\(video.codecName)' stream does not decode at frame \(decoded): \(averror(status))")
            }
            defer { av_frame_unref(frame) }
            guard frame.pointee.flags & AV_FRAME_FLAG_CORRUPT == 0, frame.pointee.decode_error_flags == 0 else {
                throw .decodeError("frame \(decoded) of the '\(video.codecName)' stream is damaged")
            }
            let n = decoded
            decoded += 1
            guard decoded <= limits.maxFrames else { throw VideoStream.tooManyFrames(limits) }
            // Each frame is within maxPixels (FFmpeg's max_pixels), so the sum cannot overflow
            // before it passes the budget.
            decodedPixels += Int(frame.pointee.width) * Int(frame.pointee.height)
            guard decodedPixels <= limits.maxDecodedPixels else {
                throw VideoStream.overBudget(decodedPixels, limits)
            }
            let stamp = frame.pointee.best_effort_timestamp
            if start == Int64.min { start = stamp }
            // No time stamp (AVI with B-frames at the end of the stream): the frame's number at
            // the stream's average rate.
            let rate = av_q2d(video.stream.pointee.avg_frame_rate)
            let seconds =
                stamp == Int64.min || start == Int64.min
                ? (rate > 0 ? Double(n) / rate : 0) : video.seconds(stamp, start: start)
            guard seconds <= limits.maxSeconds else { throw VideoStream.tooLong(seconds, limits) }
            if wanted.contains(n) {
                body(
                    DecodedFrame(
                        index: n, seconds: seconds, image: try converter.image(of: frame, rotation: video.rotation)))
                if n == last { return true }
            }
        }
    }
}

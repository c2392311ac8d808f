import CAVCodec
import CAVFormat
import CAVUtil
import PadImage

/// What a video holds, read from its container without decoding a frame: the frame count is
/// the number of video packets (not the header's claim, which hostile or damaged files get wrong)
/// and each frame's time is its packet's presentation time stamp, in display order.
package struct VideoInfo: Sendable, Equatable {
    /// Frame size as decoded (before rotation).
    package var width: Int
    package var height: Int
    package var codec: String
    package var container: String
    package var rotation: DisplayRotation
    /// Seconds from the stream's first frame, one per frame in display order.
    package var frameTimes: [Double]

    package var frameCount: Int { frameTimes.count }
}

/// One decoded frame: its number in display order (0-based, the `n` of FFmpeg's `select`
/// filter), its time stamp in seconds from the stream's first frame, and the upright RGB image.
package struct DecodedFrame: Sendable {
    package var index: Int
    package var seconds: Double
    package var image: Image
}

/// Reads videos (AVI, MOV, MP4, MKV, WebM) with FFmpeg's libraries: ``probe(path:)`` lists the
/// frames, ``decode(path:frames:threads:_:)`` decodes the stream once from the start and hands
/// over the frames asked for, upright and in RGB, byte for byte what
/// `ffmpeg -i IN -vf "select=eq(n\,K)" -vsync passthrough -pix_fmt rgb24 -f rawvideo -` writes.
///
/// Example: `FFmpegByteIdentityTests.framesEqualTheCommandLines`
/// in `Tests/PadVideoTests/VideoDecoderTests.swift` (compiled and run by `swift test`).
///
/// Bounded: the pixel limit per frame (checked on the container's declaration, given to the
/// decoder as `max_pixels`, and checked on every decoded frame before converting it), a frame
/// limit, a duration limit and a decode budget (pixels decoded) per video. A stream with fewer frames than its container lists, or
/// whose packets its codec cannot decode, is a `decode_error` naming the reason.
package struct VideoDecoder: Sendable {
    package var limits: VideoLimits

    package init(limits: VideoLimits = VideoLimits()) { self.limits = limits }

    package func probe(path: String) throws(ImageError) -> VideoInfo {
        try probe(VideoInput(path: path))
    }

    package func probe(bytes: [UInt8]) throws(ImageError) -> VideoInfo {
        try probe(VideoInput(bytes: bytes))
    }

    private func probe(_ input: VideoInput) throws(ImageError) -> VideoInfo {
        let video = try VideoStream(input: input, limits: limits, threads: 1)
        guard let packet = av_packet_alloc() else { throw .decodeError("FFmpeg: out of memory") }
        var owned: UnsafeMutablePointer<AVPacket>? = packet
        defer { av_packet_free(&owned) }
        var stamps: [(pts: Int64, dts: Int64)] = []
        while true {
            let status = av_read_frame(input.format, packet)
            if status == padbench_averror_eof { break }
            guard status >= 0 else { throw .decodeError("cannot read the container: \(averror(status))") }
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == video.index, packet.pointee.size > 0 else { continue }
            // A packet the demuxer flags DISCARD lies before an edit list's start (a clip trimmed with
            // `-c copy`): it is decoded only to reach the first shown frame, and libavcodec returns
            // no frame for it. It is not a frame of the video.
            guard packet.pointee.flags & AV_PKT_FLAG_DISCARD == 0 else { continue }
            guard stamps.count < limits.maxFrames else { throw VideoStream.tooManyFrames(limits) }
            stamps.append((packet.pointee.pts, packet.pointee.dts))
        }
        let times = Self.times(stamps, video: video, reorders: Self.mayReorder(video))
        if let last = times.max(), last > limits.maxSeconds { throw VideoStream.tooLong(last, limits) }
        let parameters = video.stream.pointee.codecpar.pointee
        return VideoInfo(
            width: Int(parameters.width), height: Int(parameters.height), codec: video.codecName,
            container: video.containerName, rotation: video.rotation, frameTimes: times)
    }

    /// Each frame's time, in seconds from the first frame, as the decoder will stamp it
    /// (`best_effort_timestamp`, which ``DecodeState`` and `ffmpeg` report). A codec that may
    /// reorder (B-frames) hands frames over in presentation order: the k-th frame has the k-th
    /// smallest time stamp. One that cannot (MJPEG, intra-only and B-frame-free streams) hands
    /// them over in packet order, so the k-th frame has the k-th packet's stamp even when the
    /// stamps go backwards (a stream muxed with non-monotonic time stamps): sorting them gave
    /// frames 2 and 3 of such a stream each other's times. A stream without stamps gets frame
    /// number / frame rate.
    static func times(_ packets: [(pts: Int64, dts: Int64)], video: VideoStream, reorders: Bool) -> [Double] {
        let stamps = reorders ? packets.map { $0.pts != Int64.min ? $0.pts : $0.dts } : bestEffort(packets)
        if stamps.contains(Int64.min) || stamps.isEmpty {
            let rate = av_q2d(video.stream.pointee.avg_frame_rate)
            return stamps.indices.map { rate > 0 ? Double($0) / rate : 0 }
        }
        let ordered = reorders ? stamps.sorted() : stamps
        return ordered.map { video.seconds($0, start: ordered[0]) }
    }

    /// libavcodec's `guess_correct_pts` (libavcodec/decode.c), packet by packet: a frame's
    /// best-effort time stamp is its pts unless the pts have gone backwards more often than the
    /// dts so far (then its dts), or the one that is present.
    static func bestEffort(_ packets: [(pts: Int64, dts: Int64)]) -> [Int64] {
        var faultyPTS = 0, faultyDTS = 0
        var lastPTS = Int64.min, lastDTS = Int64.min
        return packets.map { packet in
            if packet.dts != Int64.min {
                if packet.dts <= lastDTS { faultyDTS += 1 }
                lastDTS = packet.dts
            } else if packet.pts != Int64.min {
                lastDTS = packet.pts
            }
            if packet.pts != Int64.min {
                if packet.pts <= lastPTS { faultyPTS += 1 }
                lastPTS = packet.pts
            } else if packet.dts != Int64.min {
                lastPTS = packet.dts
            }
            return (faultyPTS <= faultyDTS || packet.dts == Int64.min) && packet.pts != Int64.min
                ? packet.pts : packet.dts
        }
    }

    /// Whether the decoder may hand frames over in another order than their packets: the codec
    /// can reorder (`AV_CODEC_PROP_REORDER`) and the stream declares a delay (B-frames), or the
    /// delay is unknown.
    static func mayReorder(_ video: VideoStream) -> Bool {
        let parameters = video.stream.pointee.codecpar.pointee
        guard let descriptor = avcodec_descriptor_get(parameters.codec_id) else { return true }
        if descriptor.pointee.props & AV_CODEC_PROP_REORDER == 0 { return false }
        return parameters.video_delay != 0
    }

    /// Decodes the stream from its start and calls `body` with each frame whose number is in
    /// `frames` (any order; each at most once), stopping after the last of them.
    /// - Parameter threads: decoder threads (FFmpeg's slice threading; frame threading is never used, see `VideoStream`).
    /// - Throws: the first failure; `body` may already have been called for earlier frames.
    /// - Parameter shouldStop: asked before each packet; once true, decoding stops and the call
    ///   returns false (SIGTERM on a video of hours must not wait for its end).
    /// - Returns: true when every frame asked for was decoded, false when `shouldStop` ended it.
    @discardableResult
    package func decode(
        path: String, frames: [Int], threads: Int = 1, shouldStop: () -> Bool = { false },
        _ body: (DecodedFrame) -> Void
    ) throws(ImageError) -> Bool {
        try decode(VideoInput(path: path), frames: frames, threads: threads, shouldStop: shouldStop, body)
    }

    package func decode(bytes: [UInt8], frames: [Int], threads: Int = 1, _ body: (DecodedFrame) -> Void)
        throws(ImageError)
    {
        try decode(VideoInput(bytes: bytes), frames: frames, threads: threads, shouldStop: { false }, body)
    }

    @discardableResult
    private func decode(
        _ input: VideoInput, frames: [Int], threads: Int, shouldStop: () -> Bool, _ body: (DecodedFrame) -> Void
    ) throws(ImageError) -> Bool {
        let wanted = Set(frames)
        guard let last = wanted.max() else { return true }
        let video = try VideoStream(input: input, limits: limits, threads: threads)
        // Frames 0...last are all decoded: refused at once when the declared size says they
        // exceed the budget; the decoded frames are counted too (a stream may change size).
        let parameters = video.stream.pointee.codecpar.pointee
        let declared = Int(max(parameters.width, 0)) * Int(max(parameters.height, 0))
        let (needed, overflow) = declared.multipliedReportingOverflow(by: last + 1)
        if overflow || needed > limits.maxDecodedPixels { throw VideoStream.overBudget(needed, limits) }
        var state = try DecodeState(video: video, limits: limits)
        var finished = false
        while !finished {
            if shouldStop() { return false }
            let more = try state.sendNextPacket()
            finished = try state.receiveFrames(wanted: wanted, last: last, body) || !more
        }
        guard state.decoded > last else {
            throw .decodeError(
                "the stream ends after \(state.decoded) frames; frame \(last) was asked for "
                    + "(the container lists \(state.packets) packets read so far)")
        }
        return true
    }
}

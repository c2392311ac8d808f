import CAVCodec
import CAVFormat
import CAVUtil
import CSwScale
import PadImage

/// Writes RGB frames as a short clip with FFmpeg's encoders: Motion JPEG in AVI (every frame a
/// JPEG, so one damaged frame never spoils the next), MPEG-4 part 2 in AVI, or FFV1 (lossless)
/// in Matroska. Used by `dataset synth --video` and the tests; the bytes are the same for the
/// same frames (`AV_CODEC_FLAG_BITEXACT`, `AVFMT_FLAG_BITEXACT`: no encoder version is written).
///
/// Example: `VideoEncoderTests.mjpegClipDecodesBackWithItsFrameCount`
/// in `Tests/PadVideoTests/VideoDecoderTests.swift` (compiled and run by `swift test`).
package enum VideoEncoder {
    package enum Codec: String, Sendable, CaseIterable {
        case mjpeg, mpeg4, ffv1

        /// The container each codec is written in.
        package var fileExtension: String { self == .ffv1 ? "mkv" : "avi" }
        var container: String { self == .ffv1 ? "matroska" : "avi" }
        var pixelFormat: AVPixelFormat { self == .mjpeg ? AV_PIX_FMT_YUVJ420P : AV_PIX_FMT_YUV420P }
    }

    /// The clip's bytes: `frames` (RGB, all of one even size) at `rate` frames a second;
    /// `quality` is the codec's quantiser for mjpeg and mpeg4 (2 best, 31 worst).
    package static func encode(_ frames: [Image], rate: Int, codec: Codec, quality: Int = 4) throws(ImageError)
        -> [UInt8]
    {
        guard let first = frames.first, first.width > 0, first.height > 0, first.width % 2 == 0,
            first.height % 2 == 0, rate > 0
        else { throw .encodeError("video: needs frames of one even size and a positive rate") }
        guard frames.allSatisfy({ $0.width == first.width && $0.height == first.height && $0.format == .rgb }) else {
            throw .encodeError("video: every frame must be RGB and of the first frame's size")
        }
        let writer = try ClipWriter(
            codec: codec, width: first.width, height: first.height, rate: rate, quality: quality)
        for (n, frame) in frames.enumerated() { try writer.write(frame, number: n) }
        return try writer.finish()
    }
}

/// The muxer, encoder, conversion and output buffer of one clip being written.
final class ClipWriter {
    let format: UnsafeMutablePointer<AVFormatContext>
    let encoder: UnsafeMutablePointer<AVCodecContext>
    let stream: UnsafeMutablePointer<AVStream>
    let frame: UnsafeMutablePointer<AVFrame>
    let packet: UnsafeMutablePointer<AVPacket>
    let scaler: OpaquePointer
    let output = OutputBuffer()

    init(codec: VideoEncoder.Codec, width: Int, height: Int, rate: Int, quality: Int) throws(ImageError) {
        av_log_set_level(AV_LOG_QUIET)
        var context: UnsafeMutablePointer<AVFormatContext>?
        guard avformat_alloc_output_context2(&context, nil, codec.container, nil) >= 0, let context,
            let encoderCodec = avcodec_find_encoder_by_name(codec.rawValue),
            let stream = avformat_new_stream(context, nil), let encoder = avcodec_alloc_context3(encoderCodec),
            let frame = av_frame_alloc(), let packet = av_packet_alloc(),
            let scaler = sws_getContext(
                Int32(width), Int32(height), AV_PIX_FMT_RGB24, Int32(width), Int32(height), codec.pixelFormat,
                SWS_BICUBIC, nil, nil, nil)
        else { throw .encodeError("video: FFmpeg has no \(codec.rawValue) encoder or \(codec.container) muxer") }
        format = context
        self.encoder = encoder
        self.stream = stream
        self.frame = frame
        self.packet = packet
        self.scaler = scaler
        format.pointee.flags |= AVFMT_FLAG_BITEXACT
        encoder.pointee.width = Int32(width)
        encoder.pointee.height = Int32(height)
        encoder.pointee.time_base = AVRational(num: 1, den: Int32(rate))
        encoder.pointee.framerate = AVRational(num: Int32(rate), den: 1)
        encoder.pointee.pix_fmt = codec.pixelFormat
        encoder.pointee.gop_size = 10
        encoder.pointee.flags |= AV_CODEC_FLAG_BITEXACT | AV_CODEC_FLAG_QSCALE
        encoder.pointee.global_quality = FF_QP2LAMBDA * Int32(max(2, min(31, quality)))
        encoder.pointee.thread_count = 1
        if format.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
            encoder.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER
        }
        try Self.check(avcodec_open2(encoder, encoderCodec, nil), "open the \(codec.rawValue) encoder")
        try Self.check(avcodec_parameters_from_context(stream.pointee.codecpar, encoder), "set the stream")
        stream.pointee.time_base = encoder.pointee.time_base
        format.pointee.pb = try output.open()
        try Self.check(avformat_write_header(format, nil), "write the header")
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        frame.pointee.format = codec.pixelFormat.rawValue
        try Self.check(av_frame_get_buffer(frame, 0), "allocate a frame")
    }

    deinit {
        output.close(&format.pointee.pb)
        avformat_free_context(format)
        var e: UnsafeMutablePointer<AVCodecContext>? = encoder
        avcodec_free_context(&e)
        var f: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&f)
        var p: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&p)
        sws_freeContext(scaler)
    }

    static func check(_ status: Int32, _ what: String) throws(ImageError) {
        guard status >= 0 else { throw .encodeError("video: cannot \(what): \(averror(status))") }
    }

    func write(_ image: Image, number: Int) throws(ImageError) {
        try Self.check(av_frame_make_writable(frame), "reuse the frame")
        let stride = [Int32(image.width * 3), 0, 0, 0]
        image.pixels.withUnsafeBufferPointer { source in
            var planes: [UnsafePointer<UInt8>?] = [source.baseAddress, nil, nil, nil]
            withUnsafeMutablePointer(to: &frame.pointee.data) { data in
                withUnsafeMutablePointer(to: &frame.pointee.linesize) { linesize in
                    data.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { target in
                        linesize.withMemoryRebound(to: Int32.self, capacity: 8) { sizes in
                            _ = sws_scale(scaler, &planes, stride, 0, Int32(image.height), target, sizes)
                        }
                    }
                }
            }
        }
        frame.pointee.pts = Int64(number)
        try send(frame)
    }

    /// Sends a frame (nil: end of stream) and writes every packet the encoder has ready.
    func send(_ frame: UnsafeMutablePointer<AVFrame>?) throws(ImageError) {
        try Self.check(avcodec_send_frame(encoder, frame), "encode a frame")
        while true {
            let status = avcodec_receive_packet(encoder, packet)
            if status == padbench_averror_eagain || status == padbench_averror_eof { return }
            try Self.check(status, "encode a frame")
            av_packet_rescale_ts(packet, encoder.pointee.time_base, stream.pointee.time_base)
            packet.pointee.stream_index = stream.pointee.index
            try Self.check(av_interleaved_write_frame(format, packet), "write a packet")
        }
    }

    func finish() throws(ImageError) -> [UInt8] {
        try send(nil)
        try Self.check(av_write_trailer(format), "write the trailer")
        output.close(&format.pointee.pb)
        guard !output.bytes.isEmpty else { throw .encodeError("video: the muxer wrote nothing") }
        return output.bytes
    }

}

/// Bytes the muxer writes, through an `AVIOContext` that can seek back (the AVI muxer completes
/// its headers and index at the end; FFmpeg's dynamic buffer lost the stream format chunk).
final class OutputBuffer {
    var bytes: [UInt8] = []
    var position = 0

    func open() throws(ImageError) -> UnsafeMutablePointer<AVIOContext> {
        guard let buffer = av_malloc(VideoInput.bufferSize),
            let io = avio_alloc_context(
                buffer.assumingMemoryBound(to: UInt8.self), Int32(VideoInput.bufferSize), 1,
                Unmanaged.passUnretained(self).toOpaque(), nil, outputWrite, outputSeek)
        else { throw .encodeError("video: FFmpeg: out of memory") }
        io.pointee.seekable = AVIO_SEEKABLE_NORMAL
        return io
    }

    func close(_ io: inout UnsafeMutablePointer<AVIOContext>?) {
        guard let context = io else { return }
        avio_flush(context)
        av_freep(&context.pointee.buffer)
        avio_context_free(&io)
    }

    func write(_ source: UnsafePointer<UInt8>, count: Int) -> Int32 {
        if position + count > bytes.count { bytes += [UInt8](repeating: 0, count: position + count - bytes.count) }
        bytes.withUnsafeMutableBufferPointer {
            $0.baseAddress!.advanced(by: position).update(from: source, count: count)
        }
        position += count
        return Int32(count)
    }
}

private func outputWrite(_ opaque: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<UInt8>?, _ size: Int32)
    -> Int32
{
    guard let opaque, let buffer, size >= 0 else { return -1 }
    return Unmanaged<OutputBuffer>.fromOpaque(opaque).takeUnretainedValue().write(buffer, count: Int(size))
}

private func outputSeek(_ opaque: UnsafeMutableRawPointer?, _ offset: Int64, _ whence: Int32) -> Int64 {
    guard let opaque else { return -1 }
    let output = Unmanaged<OutputBuffer>.fromOpaque(opaque).takeUnretainedValue()
    let target: Int
    switch whence & ~AVSEEK_FORCE {
    case AVSEEK_SIZE: return Int64(output.bytes.count)
    case SEEK_SET: target = Int(offset)
    case SEEK_CUR: target = output.position + Int(offset)
    case SEEK_END: target = output.bytes.count + Int(offset)
    default: return -1
    }
    guard target >= 0 else { return -1 }
    output.position = target
    return Int64(target)
}

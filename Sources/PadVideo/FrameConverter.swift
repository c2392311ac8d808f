import CAVCodec
import CAVFormat
import CAVUtil
import CSwScale
import PadImage

/// Decoded frames (any pixel format libswscale reads) to upright 8-bit RGB, converted the way the
/// `ffmpeg` command line's automatically inserted scale filter converts them for `-pix_fmt rgb24`:
/// `SWS_BICUBIC` (fftools' default `sws_flags`), the frame's own YCbCr matrix (vf_scale's
/// `in_color_matrix=auto`: BT.601 when unspecified or unknown) for input and output tables, and
/// the frame's colour range when it states one. Then the display rotation (``DisplayRotation``).
final class FrameConverter {
    private var context: OpaquePointer?
    private var key: (width: Int32, height: Int32, format: Int32) = (0, 0, -1)
    private var buffer: UnsafeMutablePointer<UInt8>?
    private var stride = 0
    let maxPixels: Int

    init(maxPixels: Int) { self.maxPixels = maxPixels }

    deinit {
        sws_freeContext(context)
        av_free(buffer)
    }

    func image(of frame: UnsafeMutablePointer<AVFrame>, rotation: DisplayRotation) throws(ImageError) -> Image {
        let w = frame.pointee.width, h = frame.pointee.height, format = frame.pointee.format
        guard w > 0, h > 0 else { throw .decodeError("decoded frame has no size") }
        guard Int(w) * Int(h) <= maxPixels else { throw .tooLarge(width: Int(w), height: Int(h), limit: maxPixels) }
        if key != (w, h, format) || context == nil { try prepare(width: w, height: h, format: format) }
        try setColorspace(frame)
        var destination: [UnsafeMutablePointer<UInt8>?] = [buffer, nil, nil, nil]
        var lines: [Int32] = [Int32(stride), 0, 0, 0]
        let rows = withUnsafePointer(to: &frame.pointee.data) { data in
            withUnsafePointer(to: &frame.pointee.linesize) { linesize in
                data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { planes in
                    linesize.withMemoryRebound(to: Int32.self, capacity: 8) { sizes in
                        sws_scale(context, planes, sizes, 0, h, &destination, &lines)
                    }
                }
            }
        }
        guard rows == h else { throw .decodeError("pixel format conversion failed (\(averror(rows)))") }
        return rotation.apply(buffer!, stride: stride, width: Int(w), height: Int(h))
    }

    private func prepare(width w: Int32, height h: Int32, format: Int32) throws(ImageError) {
        let source = AVPixelFormat(rawValue: format)
        context = sws_getCachedContext(context, w, h, source, w, h, AV_PIX_FMT_RGB24, SWS_BICUBIC, nil, nil, nil)
        guard context != nil else {
            let name = av_get_pix_fmt_name(source).map { String(cString: $0) } ?? "\(format)"
            throw .unsupportedFormat("cannot convert the pixel format '\(name)' to RGB")
        }
        av_free(buffer)
        // Rows 32-byte aligned, as av_frame_get_buffer lays them out: libswscale's SIMD writers
        // may store whole vectors at the end of a row.
        stride = (Int(w) * 3 + 63) & ~31
        buffer = av_malloc(stride * Int(h) + 64)?.assumingMemoryBound(to: UInt8.self)
        guard buffer != nil else { throw .decodeError("FFmpeg: out of memory") }
        key = (w, h, format)
    }

    /// vf_scale (FFmpeg 5.1) `scale_frame`: the input table from the frame's colour space
    /// (`parse_yuv_type("auto", colorspace)`), the output table the same, the input range from
    /// the frame when it gives one, brightness, contrast and saturation as they are.
    private func setColorspace(_ frame: UnsafeMutablePointer<AVFrame>) throws(ImageError) {
        var inverse: UnsafeMutablePointer<Int32>?, table: UnsafeMutablePointer<Int32>?
        var sourceFull: Int32 = 0, destinationFull: Int32 = 0, brightness: Int32 = 0, contrast: Int32 = 0
        var saturation: Int32 = 0
        guard
            sws_getColorspaceDetails(
                context, &inverse, &sourceFull, &table, &destinationFull, &brightness, &contrast, &saturation) >= 0
        else { return }
        var colorspace = Int32(frame.pointee.colorspace.rawValue)
        if colorspace < 1 || colorspace > 10 || colorspace == 8 { colorspace = SWS_CS_ITU601 }
        let coefficients = sws_getCoefficients(colorspace)
        let range = frame.pointee.color_range
        if range != AVCOL_RANGE_UNSPECIFIED { sourceFull = range == AVCOL_RANGE_JPEG ? 1 : 0 }
        _ = sws_setColorspaceDetails(
            context, coefficients, sourceFull, coefficients, destinationFull, brightness, contrast, saturation)
    }
}

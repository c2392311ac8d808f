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
        if rotation.kind == .none, let image = try directImage(of: frame) { return image }
        let rows = scale(frame, into: buffer!, stride: stride)
        guard rows == h else { throw .decodeError("pixel format conversion failed (\(averror(rows)))") }
        return rotation.apply(buffer!, stride: stride, width: Int(w), height: Int(h))
    }

    /// An upright frame whose RGB rows are already 32-byte multiples (1280, 640, 1920 pixels wide:
    /// the layout `av_frame_get_buffer` gives the command line's scale filter) is converted straight
    /// into the image's own pixels, with no second copy of each frame (6.4% of the decode time of
    /// 1280x720 H.264, `perf record`, in `memmove`). Nil when the rows or the storage are not so
    /// aligned: the converter's own buffer and a copy then.
    private func directImage(of frame: UnsafeMutablePointer<AVFrame>) throws(ImageError) -> Image? {
        let w = Int(frame.pointee.width), h = Int(frame.pointee.height), rowBytes = w * 3
        guard rowBytes % 32 == 0 else { return nil }
        var rows: Int32 = -1
        // The vector writers may store up to one vector past the last row: 64 spare bytes.
        let pixels = [UInt8](unsafeUninitializedCapacity: rowBytes * h + 64) { target, initialized in
            initialized = 0
            guard let base = target.baseAddress, Int(bitPattern: base) % 16 == 0 else { return }
            rows = scale(frame, into: base, stride: rowBytes)
            initialized = rowBytes * h
        }
        if rows == -1 { return nil }
        guard rows == Int32(h) else { throw .decodeError("pixel format conversion failed (\(averror(rows)))") }
        return Image(width: w, height: h, format: .rgb, pixels: pixels)
    }

    /// `sws_scale` of the whole frame into `rows` lines `stride` bytes apart; the rows written.
    private func scale(_ frame: UnsafeMutablePointer<AVFrame>, into target: UnsafeMutablePointer<UInt8>, stride: Int)
        -> Int32
    {
        var destination: [UnsafeMutablePointer<UInt8>?] = [target, nil, nil, nil]
        var lines: [Int32] = [Int32(stride), 0, 0, 0]
        let h = frame.pointee.height
        return withUnsafePointer(to: &frame.pointee.data) { data in
            withUnsafePointer(to: &frame.pointee.linesize) { linesize in
                data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { planes in
                    linesize.withMemoryRebound(to: Int32.self, capacity: 8) { sizes in
                        sws_scale(context, planes, sizes, 0, h, &destination, &lines)
                    }
                }
            }
        }
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

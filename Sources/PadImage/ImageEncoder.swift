import CPNG
import CTurboJPEG

/// Encodes ``Image`` values to JPEG (TurboJPEG `tjCompress2`), PNG (libpng simplified API) and
/// binary PPM/PGM. Used for fixtures and generated datasets.
///
/// Example: `PadImageDocExamples.encodeAndDecode`
/// in `Tests/PadImageTests/DocExamplesTests.swift` (compiled and run by `swift test`).
package enum ImageEncoder {
    package enum ChromaSubsampling: Sendable { case s444, s422, s420 }

    /// Baseline (or progressive) JPEG at the given quality (1-100).
    package static func jpeg(
        _ image: Image, quality: Int = 90, subsampling: ChromaSubsampling = .s420,
        progressive: Bool = false
    ) throws(ImageError) -> [UInt8] {
        guard image.width > 0, image.height > 0 else { throw .encodeError("JPEG: cannot encode an empty image") }
        guard let handle = tjInitCompress() else { throw .encodeError("TurboJPEG: cannot create compressor") }
        defer { tjDestroy(handle) }
        let pixelFormat = image.format == .gray ? TJPF_GRAY : TJPF_RGB
        let samp: TJSAMP
        if image.format == .gray {
            samp = TJSAMP_GRAY
        } else {
            switch subsampling {
            case .s444: samp = TJSAMP_444
            case .s422: samp = TJSAMP_422
            case .s420: samp = TJSAMP_420
            }
        }
        var output: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        var flags = TJFLAG_ACCURATEDCT
        if progressive { flags |= TJFLAG_PROGRESSIVE }
        let status = image.pixels.withUnsafeBufferPointer { source in
            tjCompress2(
                handle, source.baseAddress, Int32(image.width), 0, Int32(image.height),
                Int32(pixelFormat.rawValue), &output, &size, Int32(samp.rawValue), Int32(max(1, min(100, quality))),
                flags)
        }
        defer { if let output { tjFree(output) } }
        guard status == 0, let output else {
            let message = tjGetErrorStr2(handle).map { String(cString: $0) } ?? "unknown error"
            throw .encodeError("JPEG encode: \(message)")
        }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }

    /// 8-bit PNG, gray or RGB.
    package static func png(_ image: Image) throws(ImageError) -> [UInt8] {
        guard image.width > 0, image.height > 0 else { throw .encodeError("PNG: cannot encode an empty image") }
        var png = png_image()
        png.version = UInt32(PNG_IMAGE_VERSION)
        png.width = UInt32(image.width)
        png.height = UInt32(image.height)
        png.format = image.format == .gray ? UInt32(PNG_FORMAT_GRAY) : UInt32(PNG_FORMAT_RGB)
        defer { png_image_free(&png) }
        let stride = Int32(image.width * image.channels)
        var size = 0
        // First call computes the size, second writes.
        let sized = image.pixels.withUnsafeBufferPointer { source in
            png_image_write_to_memory(&png, nil, &size, 0, source.baseAddress, stride, nil)
        }
        guard sized != 0, size > 0 else { throw .encodeError("PNG encode: cannot size output") }
        var output = [UInt8](repeating: 0, count: size)
        let written = image.pixels.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                png_image_write_to_memory(&png, target.baseAddress, &size, 0, source.baseAddress, stride, nil)
            }
        }
        guard written != 0 else { throw .encodeError("PNG encode failed") }
        return Array(output.prefix(size))
    }

    /// Binary PGM (gray) or PPM (RGB), maxval 255.
    package static func pnm(_ image: Image) -> [UInt8] {
        let header = "\(image.format == .gray ? "P5" : "P6")\n\(image.width) \(image.height)\n255\n"
        return Array(header.utf8) + image.pixels
    }
}

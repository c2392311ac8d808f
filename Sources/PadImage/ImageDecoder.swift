import CPNG
import CTurboJPEG
import Foundation
import PadText

/// Decodes JPEG (TurboJPEG API), PNG (libpng simplified API) and binary PPM/PGM into 8-bit
/// gray or RGB ``Image`` values.
///
/// Example: `PadImageDocExamples.encodeAndDecode`
/// in `Tests/PadImageTests/DocExamplesTests.swift` (compiled and run by `swift test`).
///
/// Errors are values (``ImageError``), never crashes, and a damaged file never yields a
/// half-decoded image: TurboJPEG runs with `TJFLAG_STOPONWARNING` so that a truncated JPEG fails
/// instead of "succeeding" with its missing part filled with gray. The pixel limit is checked
/// on the header before any pixel buffer is allocated (decompression bombs), the bytes read per
/// file are bounded by ``maxFileBytes`` (a valid JPEG followed by 2 GB of zeros is refused by its
/// size, before it is read), and a progressive JPEG's scans are counted before decoding and held
/// to a budget of scans x pixels (``JPEGScans``; `TJFLAG_LIMITSCANS`, 500 scans, stays as the
/// decoder's own guard: a 1 MB file of 2,647 scans took 43 s and 1.5 GB to decode).
package struct ImageDecoder: Sendable {
    /// Refuse images with more pixels than this (default 100 megapixels).
    package var maxPixels: Int
    /// Refuse image files larger than this many bytes (default ``defaultFileLimit(maxPixels:)``).
    package var maxFileBytes: Int
    /// Apply the EXIF orientation tag of JPEG files (default on).
    package var applyExifOrientation: Bool

    package init(maxPixels: Int = 100_000_000, maxFileBytes: Int? = nil, applyExifOrientation: Bool = true) {
        self.maxPixels = maxPixels
        self.maxFileBytes = maxFileBytes ?? Self.defaultFileLimit(maxPixels: maxPixels)
        self.applyExifOrientation = applyExifOrientation
    }

    /// The file size limit that goes with a pixel limit: 6 bytes per pixel (a 16-bit RGB PPM, the
    /// largest encoding padbench reads; PNG and JPEG of the same pixels are smaller except for
    /// pathological cases) plus 16 MiB for metadata (EXIF, ICC profiles, comments). Default:
    /// 100 megapixels give 616,777,216 bytes.
    package static func defaultFileLimit(maxPixels: Int) -> Int {
        let (pixelBytes, tooMany) = maxPixels.multipliedReportingOverflow(by: 6)
        let (total, tooMuch) = pixelBytes.addingReportingOverflow(16 << 20)
        return tooMany || tooMuch ? Int.max : total
    }

    /// Reads and decodes a file; a missing or unreadable file is ``ImageError/missingFile(path:reason:)``,
    /// a file over ``maxFileBytes`` is ``ImageError/fileTooLarge(bytes:limit:)`` (status `too_large`).
    package func decode(fileAt path: String) throws(ImageError) -> Image {
        try decode(try read(path))
    }

    /// ``decode(fileAt:)`` and the EXIF orientation the file is stored with (1-8; 1 without one,
    /// and for formats whose orientation padbench does not read), found in the same pass.
    package func decodeWithOrientation(fileAt path: String) throws(ImageError) -> (image: Image, storedOrientation: Int)
    {
        let bytes = try read(path)
        guard ImageFormat(signatureOf: bytes) == .jpeg else { return (try decode(bytes), 1) }
        let decoded = try decodeJPEGOriented(bytes)
        return (decoded.image, decoded.orientation?.rawValue ?? 1)
    }

    /// The bytes of an image file: a regular file (directories, FIFOs and devices are refused
    /// after stat, before open, so nothing blocks) of at most ``maxFileBytes``, never more than
    /// its size (a `/proc` file that reports 0 bytes but is endless is refused).
    package func read(_ path: String) throws(ImageError) -> [UInt8] {
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) > maxFileBytes {
            throw .fileTooLarge(bytes: Int(info.st_size), limit: maxFileBytes)
        }
        do { return try RegularFile.read(path, limit: maxFileBytes) } catch {
            throw .missingFile(path: path, reason: error.message)
        }
    }

    /// Decodes bytes, choosing the format by signature.
    package func decode(_ bytes: [UInt8]) throws(ImageError) -> Image {
        switch ImageFormat(signatureOf: bytes) {
        case .jpeg: return try decodeJPEGOriented(bytes).image
        case .png: return try decodePNG(bytes)
        case .pnm: return try decodePNM(bytes, maxPixels: maxPixels)
        case nil:
            if bytes.isEmpty { throw .decodeError("empty file") }
            throw .unsupportedFormat("not a JPEG, PNG or binary PPM/PGM file (unknown signature)")
        }
    }

    // MARK: JPEG

    /// The JPEG decoded (EXIF orientation applied when ``applyExifOrientation``) and the orientation
    /// its EXIF segment states, read once.
    func decodeJPEGOriented(_ bytes: [UInt8]) throws(ImageError) -> (image: Image, orientation: ExifOrientation?) {
        guard let handle = tjInitDecompress() else { throw .decodeError("TurboJPEG: cannot create decompressor") }
        defer { tjDestroy(handle) }
        let (w, h, colorspace) = try jpegSize(bytes, handle: handle)
        let width = Int32(w), height = Int32(h)

        let isGray = colorspace == Int32(TJCS_GRAY.rawValue)
        let isCMYK = colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue)
        var image: Image
        if isCMYK {
            image = try decodeCMYKJPEG(bytes, handle: handle, width: w, height: h)
        } else {
            let format: Image.PixelFormat = isGray ? .gray : .rgb
            let pixelFormat = isGray ? TJPF_GRAY : TJPF_RGB
            var status: Int32 = 0
            // Not zero-filled first: tjDecompress2 writes every byte when it succeeds, and on
            // failure the buffer is thrown away. Zeroing 0.9 MB per 640x480 frame cost ~5% of decode.
            let pixels = [UInt8](unsafeUninitializedCapacity: w * h * format.channels) { target, initialized in
                status = bytes.withUnsafeBufferPointer { source in
                    tjDecompress2(
                        handle, source.baseAddress, UInt(source.count), target.baseAddress,
                        width, 0, height, pixelFormat.rawValue, Self.jpegFlags)
                }
                initialized = status == 0 ? target.count : 0
            }
            if status != 0 { throw .decodeError("JPEG data: \(Self.turboError(handle))\(Self.scanLimitNote(handle))") }
            image = Image(width: w, height: h, format: format, pixels: pixels)
        }
        let orientation = ExifOrientation.read(fromJPEG: bytes)
        if applyExifOrientation, let orientation, orientation != .up {
            image = image.oriented(orientation)
        }
        return (image, orientation)
    }

    /// The stored size and colour space of a JPEG from its header: refused when unreadable, empty or
    /// over ``maxPixels``.
    func jpegSize(_ bytes: [UInt8], handle: tjhandle) throws(ImageError) -> (width: Int, height: Int, colorspace: Int32)
    {
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let headerStatus = bytes.withUnsafeBufferPointer { buffer in
            tjDecompressHeader3(
                handle, buffer.baseAddress, UInt(buffer.count), &width, &height, &subsampling, &colorspace)
        }
        if headerStatus != 0 { throw .decodeError("JPEG header: \(Self.turboError(handle))") }
        let w = Int(width), h = Int(height)
        guard w > 0, h > 0 else { throw .decodeError("JPEG header: empty image \(w)x\(h)") }
        guard w * h <= maxPixels else { throw .tooLarge(width: w, height: h, limit: maxPixels) }
        let (progressive, scans) = JPEGScans.count(bytes)
        if progressive, scans > JPEGScans.allowed(pixels: w * h) {
            throw .overLimit(
                "progressive JPEG of \(w)x\(h) with \(scans) scans, over the \(JPEGScans.allowed(pixels: w * h)) "
                    + "its size allows (scans x pixels at most \(JPEGScans.budget), at most \(JPEGScans.ceiling)); "
                    + "not decoded")
        }
        return (w, h, colorspace)
    }

    /// CMYK and YCCK JPEGs cannot be decoded to RGB by libjpeg-turbo ("Unsupported color
    /// conversion request"); decode to CMYK and convert. Adobe writes inverted CMYK (an APP14
    /// "Adobe" marker), where 255 means no ink; R = C*K/255 on those inverted values.
    private func decodeCMYKJPEG(_ bytes: [UInt8], handle: tjhandle, width w: Int, height h: Int) throws(ImageError)
        -> Image
    {
        var cmyk = [UInt8](repeating: 0, count: w * h * 4)
        let status = bytes.withUnsafeBufferPointer { source in
            cmyk.withUnsafeMutableBufferPointer { target in
                tjDecompress2(
                    handle, source.baseAddress, UInt(source.count), target.baseAddress,
                    Int32(w), 0, Int32(h), TJPF_CMYK.rawValue, Self.jpegFlags)
            }
        }
        if status != 0 {
            throw .decodeError("JPEG data (CMYK): \(Self.turboError(handle))\(Self.scanLimitNote(handle))")
        }
        let inverted = Self.hasAdobeMarker(bytes)
        var rgb = [UInt8](repeating: 0, count: w * h * 3)
        for i in 0..<(w * h) {
            var c = Int(cmyk[4 * i]), m = Int(cmyk[4 * i + 1]), y = Int(cmyk[4 * i + 2]), k = Int(cmyk[4 * i + 3])
            if !inverted { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k }
            // Values are now "inverted" (255 = no ink): R = (255 - C)(255 - K)/255 in ink terms.
            rgb[3 * i] = UInt8((c * k + 127) / 255)
            rgb[3 * i + 1] = UInt8((m * k + 127) / 255)
            rgb[3 * i + 2] = UInt8((y * k + 127) / 255)
        }
        return Image(width: w, height: h, format: .rgb, pixels: rgb)
    }

    static func hasAdobeMarker(_ bytes: [UInt8]) -> Bool {
        var i = 2
        while i + 4 <= bytes.count, bytes[i] == 0xFF {
            let marker = bytes[i + 1]
            if marker == 0xDA || marker == 0xD9 { break } // start of scan / end of image
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            if marker == 0xEE, i + 9 <= bytes.count, Array(bytes[(i + 4)..<(i + 9)]) == Array("Adobe".utf8) {
                return true
            }
            i += 2 + length
        }
        return false
    }

    /// Strict (a warning is an error, so a truncated file fails), accurate DCT, and at most 500
    /// progressive scans (libjpeg-turbo 2.1's limit behind `TJFLAG_LIMITSCANS`).
    static let jpegFlags = TJFLAG_STOPONWARNING | TJFLAG_ACCURATEDCT | TJFLAG_LIMITSCANS

    /// Names the limit when libjpeg-turbo stopped a scan bomb ("Progressive JPEG image has more
    /// than 500 scans").
    private static func scanLimitNote(_ handle: tjhandle) -> String {
        turboError(handle).contains("scans") ? " (scan limit, TJFLAG_LIMITSCANS)" : ""
    }

    private static func turboError(_ handle: tjhandle) -> String {
        guard let message = tjGetErrorStr2(handle) else { return "unknown TurboJPEG error" }
        return String(cString: message)
    }

    // MARK: PNG

    /// libpng reports errors by longjmp, which Swift cannot survive; the simplified API
    /// (`png_image_*`) catches them itself and returns 0 with a message.
    func decodePNG(_ bytes: [UInt8]) throws(ImageError) -> Image {
        var png = png_image()
        defer { png_image_free(&png) }
        let (w, h) = try beginPNG(bytes, &png)
        // Colour PNGs decode to RGB, gray ones (with or without alpha) to gray. Alpha is
        // composited on black by libpng's simplified API when the output format has none.
        let isColor = (png.format & UInt32(PNG_FORMAT_FLAG_COLOR)) != 0
        let format: Image.PixelFormat = isColor ? .rgb : .gray
        // 16-bit files: libpng's simplified API treats 16-bit samples as linear light and would
        // gamma-encode them when asked for 8 bits, so 16-bit gray 20817 (= 81 x 257) became 151.
        // Read them as 16-bit "linear" (no conversion for files without a gAMA chunk) and scale
        // v -> round(v x 255 / 65535), as Pillow, OpenCV and ImageMagick do.
        let sixteenBit = (png.format & UInt32(PNG_FORMAT_FLAG_LINEAR)) != 0
        if sixteenBit {
            png.format = isColor ? UInt32(PNG_FORMAT_LINEAR_RGB) : UInt32(PNG_FORMAT_LINEAR_Y)
            var wide = [UInt16](repeating: 0, count: w * h * format.channels)
            let finished = wide.withUnsafeMutableBufferPointer { target in
                png_image_finish_read(&png, nil, target.baseAddress, Int32(w * format.channels), nil)
            }
            guard finished != 0 else { throw .decodeError("PNG data: \(Self.pngMessage(&png))") }
            let pixels = wide.map { UInt8((UInt32($0) * 255 + 32767) / 65535) }
            return Image(width: w, height: h, format: format, pixels: pixels)
        }
        png.format = isColor ? UInt32(PNG_FORMAT_RGB) : UInt32(PNG_FORMAT_GRAY)
        var pixels = [UInt8](repeating: 0, count: w * h * format.channels)
        let finished = pixels.withUnsafeMutableBufferPointer { target in
            png_image_finish_read(&png, nil, target.baseAddress, Int32(w * format.channels), nil)
        }
        guard finished != 0 else { throw .decodeError("PNG data: \(Self.pngMessage(&png))") }
        return Image(width: w, height: h, format: format, pixels: pixels)
    }

    /// Reads a PNG's header into `png`: refused when unreadable or over ``maxPixels``.
    private func beginPNG(_ bytes: [UInt8], _ png: inout png_image) throws(ImageError) -> (width: Int, height: Int) {
        png.version = UInt32(PNG_IMAGE_VERSION)
        let begun = bytes.withUnsafeBufferPointer { buffer in
            png_image_begin_read_from_memory(&png, buffer.baseAddress, buffer.count)
        }
        guard begun != 0 else { throw .decodeError("PNG header: \(Self.pngMessage(&png))") }
        let w = Int(png.width), h = Int(png.height)
        guard w * h <= maxPixels else { throw .tooLarge(width: w, height: h, limit: maxPixels) }
        return (w, h)
    }

    /// The size of a PNG from its header (``beginPNG(_:_:)``).
    func pngSize(_ bytes: [UInt8]) throws(ImageError) -> (width: Int, height: Int) {
        var png = png_image()
        defer { png_image_free(&png) }
        return try beginPNG(bytes, &png)
    }

    private static func pngMessage(_ png: inout png_image) -> String {
        withUnsafeBytes(of: &png.message) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}

/// File formats recognised by their first bytes.
package enum ImageFormat: String, Sendable {
    case jpeg, png, pnm

    package init?(signatureOf bytes: [UInt8]) {
        if bytes.count >= 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF {
            self = .jpeg
        } else if bytes.count >= 8, bytes.prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] {
            self = .png
        } else if bytes.count >= 2, bytes[0] == UInt8(ascii: "P"),
            bytes[1] == UInt8(ascii: "5") || bytes[1] == UInt8(ascii: "6")
        {
            self = .pnm
        } else {
            return nil
        }
    }
}

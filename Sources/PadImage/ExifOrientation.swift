/// The EXIF orientation tag (0x0112) of a JPEG's APP1 segment. TurboJPEG does not apply it, so a
/// phone photo taken in portrait decodes sideways unless padbench rotates it.
///
/// Values 1-8 as in EXIF 2.32 / TIFF 6.0: 1 up, 2 mirrored, 3 rotated 180, 4 mirrored vertically,
/// 5 transposed, 6 rotated 90 clockwise to display, 7 transversed, 8 rotated 90 counter-clockwise.
package enum ExifOrientation: Int, Sendable {
    case up = 1
    case upMirrored, down, downMirrored, leftMirrored, right, rightMirrored, left

    /// Whether displaying the image swaps its width and height (orientations 5-8).
    package var transposesAxes: Bool {
        switch self {
        case .leftMirrored, .right, .rightMirrored, .left: true
        default: false
        }
    }

    /// Reads the orientation from a JPEG's APP1 Exif segment; `nil` when absent or malformed.
    package static func read(fromJPEG bytes: [UInt8]) -> ExifOrientation? {
        var i = 2
        while i + 4 <= bytes.count, bytes[i] == 0xFF {
            let marker = bytes[i + 1]
            if marker == 0xDA || marker == 0xD9 { return nil }
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            guard length >= 2, i + 2 + length <= bytes.count else { return nil }
            if marker == 0xE1, length >= 8, Array(bytes[(i + 4)..<(i + 10)]) == [0x45, 0x78, 0x69, 0x66, 0, 0] {
                return parseTIFF(Array(bytes[(i + 10)..<(i + 2 + length)]))
            }
            i += 2 + length
        }
        return nil
    }

    static func parseTIFF(_ tiff: [UInt8]) -> ExifOrientation? {
        guard tiff.count >= 8 else { return nil }
        let little: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            return little ? Int(tiff[at]) | Int(tiff[at + 1]) << 8 : Int(tiff[at]) << 8 | Int(tiff[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let a = u16(at), let b = u16(at + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard let ifd = u32(4), let count = u16(ifd) else { return nil }
        for entry in 0..<count {
            let at = ifd + 2 + 12 * entry
            guard let tag = u16(at) else { return nil }
            if tag == 0x0112, let type = u16(at + 2), type == 3, let value = u16(at + 8) {
                return ExifOrientation(rawValue: value)
            }
        }
        return nil
    }
}

extension Image {
    /// The image as it should be displayed, given the EXIF orientation it was stored with.
    package func oriented(_ orientation: ExifOrientation) -> Image {
        let transposed = orientation.transposesAxes
        let outWidth = transposed ? height : width, outHeight = transposed ? width : height
        let c = channels
        var out = [UInt8](repeating: 0, count: pixels.count)
        for oy in 0..<outHeight {
            for ox in 0..<outWidth {
                // Source coordinates of display pixel (ox, oy).
                let sx: Int, sy: Int
                switch orientation {
                case .up: (sx, sy) = (ox, oy)
                case .upMirrored: (sx, sy) = (width - 1 - ox, oy)
                case .down: (sx, sy) = (width - 1 - ox, height - 1 - oy)
                case .downMirrored: (sx, sy) = (ox, height - 1 - oy)
                case .leftMirrored: (sx, sy) = (oy, ox)
                case .right: (sx, sy) = (oy, height - 1 - ox)
                case .rightMirrored: (sx, sy) = (width - 1 - oy, height - 1 - ox)
                case .left: (sx, sy) = (width - 1 - oy, ox)
                }
                let s = (sy * width + sx) * c, d = (oy * outWidth + ox) * c
                for k in 0..<c { out[d + k] = pixels[s + k] }
            }
        }
        return Image(width: outWidth, height: outHeight, format: format, pixels: out)
    }
}

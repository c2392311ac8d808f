import Foundation

/// Colour conversions used by the estimators, each with its formula and source.
///
/// Example: `QualityTests.ofiqLuminanceOfPrimaries`
/// in `Tests/PadEstimatorsTests/QualityTests.swift` (compiled and run by `swift test`).
package enum ColorSpaces {
    /// OFIQ luminance (ISO/IEC 29794-5 reference implementation, `Luminance` measures):
    /// linearise sRGB (x > 0.04045 ? ((x + 0.055) / 1.055)^2.4 : x / 12.92 on x = v / 255),
    /// Y = 0.2126 R + 0.7152 G + 0.0722 B, L = floor(255 Y + 0.5).
    /// Linear values per 8-bit code are precomputed (three 256-entry tables, weights folded in).
    package static let linearWeighted: (r: [Double], g: [Double], b: [Double]) = {
        var r = [Double](repeating: 0, count: 256), g = r, b = r
        for v in 0..<256 {
            let x = Double(v) / 255
            let linear = x > 0.04045 ? pow((x + 0.055) / 1.055, 2.4) : x / 12.92
            r[v] = 0.2126 * linear
            g[v] = 0.7152 * linear
            b[v] = 0.0722 * linear
        }
        return (r, g, b)
    }()

    /// For gray images R = G = B, so Y is the linearised value itself: one table.
    package static let grayLuminance: [UInt8] = (0..<256).map { v in
        let x = Double(v) / 255
        let linear = x > 0.04045 ? pow((x + 0.055) / 1.055, 2.4) : x / 12.92
        return UInt8(min(255, (255 * linear + 0.5).rounded(.down)))
    }

    /// OFIQ luminance L of every pixel, row-major, one byte per pixel.
    package static func luminanceImage(_ image: Image) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: image.pixelCount)
        image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                if image.format == .gray {
                    let table = grayLuminance
                    for i in 0..<dst.count { dst[i] = table[Int(src[i])] }
                } else {
                    let (tr, tg, tb) = linearWeighted
                    tr.withUnsafeBufferPointer { r in
                        tg.withUnsafeBufferPointer { g in
                            tb.withUnsafeBufferPointer { b in
                                // 255 y + 0.5 is positive, so truncation is the floor: Int(_:)
                                // converts in one instruction where rounded(.down) calls libm.
                                for i in 0..<dst.count {
                                    let y = r[Int(src[3 * i])] + g[Int(src[3 * i + 1])] + b[Int(src[3 * i + 2])]
                                    dst[i] = UInt8(truncatingIfNeeded: min(255, Int(255 * y + 0.5)))
                                }
                            }
                        }
                    }
                }
            }
        }
        return out
    }
}

import Foundation
import PadImage
import PadVocabulary

/// Colour texture features (Boulkenafet, Komulainen, Hadid, "Face anti-spoofing based on color
/// texture analysis", ICIP 2015): uniform LBP(8,1) histograms (59 bins, not rotation invariant) of
/// each channel of the face crop in YCbCr (ITU-R BT.601, full range) and HSV (H, S, V scaled to
/// 0-255), concatenated: 6 x 59 = 354 features, each histogram normalised to sum 1.
///
/// Example: `PadEstimatorsDocExamples.featureVectors`
/// in `Tests/PadEstimatorsTests/DocExamplesTests.swift` (compiled and run by `swift test`).
/// The face box (or the whole image without one) is cropped and resized to 64x64 (bilinear) so
/// that every sample has the same geometry. LBP(8,1) samples the 8 neighbours at radius 1 (the
/// square neighbourhood, as in most implementations); border pixels are skipped.
package enum ColorTextureFeatures {
    package static let side = 64
    package static let count = 6 * 59
    package static var names: [String] {
        ["Y", "Cb", "Cr", "H", "S", "V"].flatMap { channel in (0..<59).map { "lbp_\(channel)_\($0)" } }
    }

    /// Uniform pattern index of each 8-bit code: 0-57 for the 58 patterns with at most two 0/1
    /// transitions (circularly), 58 for all others (Ojala, Pietikainen, Maenpaa, TPAMI 2002).
    static let uniformIndex: [Int] = {
        var table = [Int](repeating: 58, count: 256)
        var next = 0
        for code in 0..<256 {
            var transitions = 0
            for bit in 0..<8 where ((code >> bit) & 1) != ((code >> ((bit + 1) % 8)) & 1) { transitions += 1 }
            if transitions <= 2 { table[code] = next; next += 1 }
        }
        return table
    }()

    package static func extract(_ image: Image, face: Box?) -> [Double] {
        let crop = resizedCrop(image, face: face)
        var planes = Array(repeating: [UInt8](repeating: 0, count: side * side), count: 6)
        for i in 0..<(side * side) {
            let r = Double(crop[3 * i]), g = Double(crop[3 * i + 1]), b = Double(crop[3 * i + 2])
            let y = 0.299 * r + 0.587 * g + 0.114 * b
            planes[0][i] = clamp(y)
            planes[1][i] = clamp(128 + (b - y) * 0.564)
            planes[2][i] = clamp(128 + (r - y) * 0.713)
            let maximum = max(r, g, b), minimum = min(r, g, b), delta = maximum - minimum
            var hue = 0.0
            if delta > 0 {
                if maximum == r {
                    hue = 60 * ((g - b) / delta).truncatingRemainder(dividingBy: 6)
                } else if maximum == g {
                    hue = 60 * ((b - r) / delta + 2)
                } else {
                    hue = 60 * ((r - g) / delta + 4)
                }
                if hue < 0 { hue += 360 }
            }
            planes[3][i] = clamp(hue / 360 * 255)
            planes[4][i] = clamp(maximum > 0 ? delta / maximum * 255 : 0)
            planes[5][i] = clamp(maximum)
        }
        var features: [Double] = []
        features.reserveCapacity(count)
        for plane in planes { features += histogram(plane) }
        return features
    }

    static func clamp(_ v: Double) -> UInt8 { UInt8(max(0, min(255, v.rounded()))) }

    static func histogram(_ p: [UInt8]) -> [Double] {
        var h = [Double](repeating: 0, count: 59)
        let s = side
        for y in 1..<(s - 1) {
            for x in 1..<(s - 1) {
                let c = p[y * s + x]
                var code = 0
                let neighbours = [
                    p[(y - 1) * s + x - 1], p[(y - 1) * s + x], p[(y - 1) * s + x + 1], p[y * s + x + 1],
                    p[(y + 1) * s + x + 1], p[(y + 1) * s + x], p[(y + 1) * s + x - 1], p[y * s + x - 1],
                ]
                for (bit, n) in neighbours.enumerated() where n >= c { code |= 1 << bit }
                h[uniformIndex[code]] += 1
            }
        }
        let total = Double((s - 2) * (s - 2))
        return h.map { $0 / total }
    }

    /// The face region (clipped) resized to side x side RGB by bilinear interpolation.
    static func resizedCrop(_ image: Image, face: Box?) -> [UInt8] {
        var box = Box(x: 0, y: 0, width: Double(image.width), height: Double(image.height))
        if let face {
            let clipped = face.clipped(width: image.width, height: image.height)
            if clipped.width >= 2 && clipped.height >= 2 { box = clipped }
        }
        var out = [UInt8](repeating: 0, count: side * side * 3)
        for y in 0..<side {
            let sy = min(max(box.y + (Double(y) + 0.5) * box.height / Double(side) - 0.5, 0), Double(image.height - 1))
            let y0 = Int(sy), y1 = min(y0 + 1, image.height - 1), fy = sy - Double(y0)
            for x in 0..<side {
                let sx = min(
                    max(box.x + (Double(x) + 0.5) * box.width / Double(side) - 0.5, 0), Double(image.width - 1))
                let x0 = Int(sx), x1 = min(x0 + 1, image.width - 1), fx = sx - Double(x0)
                let a = image.rgb(x: x0, y: y0), b = image.rgb(x: x1, y: y0), c = image.rgb(x: x0, y: y1),
                    d = image.rgb(x: x1, y: y1)
                func mix(_ p: UInt8, _ q: UInt8, _ r: UInt8, _ t: UInt8) -> UInt8 {
                    clamp(
                        (Double(p) * (1 - fx) + Double(q) * fx) * (1 - fy) + (Double(r) * (1 - fx) + Double(t) * fx)
                            * fy)
                }
                let o = (y * side + x) * 3
                out[o] = mix(a.0, b.0, c.0, d.0)
                out[o + 1] = mix(a.1, b.1, c.1, d.1)
                out[o + 2] = mix(a.2, b.2, c.2, d.2)
            }
        }
        return out
    }
}

import Foundation
import PadImage
import PadVocabulary

/// A linear-light-agnostic RGB float image (values 0...255) used while synthesising, so that
/// every stage works without rounding until the final JPEG.
struct FloatImage {
    var width: Int
    var height: Int
    var pixels: [Float] // RGB interleaved

    init(width: Int, height: Int, fill: (Float, Float, Float) = (0, 0, 0)) {
        self.width = width
        self.height = height
        pixels = [Float](repeating: 0, count: width * height * 3)
        for i in 0..<(width * height) { pixels[3 * i] = fill.0; pixels[3 * i + 1] = fill.1; pixels[3 * i + 2] = fill.2 }
    }

    init(_ image: Image) {
        width = image.width
        height = image.height
        pixels = [Float](repeating: 0, count: width * height * 3)
        for i in 0..<(width * height) {
            let (r, g, b) = image.rgb(x: i % width, y: i / width)
            pixels[3 * i] = Float(r); pixels[3 * i + 1] = Float(g); pixels[3 * i + 2] = Float(b)
        }
    }

    func toImage() -> Image {
        var out = [UInt8](repeating: 0, count: pixels.count)
        for i in pixels.indices { out[i] = UInt8(max(0, min(255, pixels[i].rounded()))) }
        return Image(width: width, height: height, format: .rgb, pixels: out)
    }

    /// Bilinear sample of channel c at (x, y); outside the image: `outside`.
    @inline(__always)
    func sample(_ x: Float, _ y: Float, _ c: Int, outside: Float) -> Float {
        if x < 0 || y < 0 || x > Float(width - 1) || y > Float(height - 1) { return outside }
        let x0 = Int(x), y0 = Int(y)
        let x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
        let fx = x - Float(x0), fy = y - Float(y0)
        let a = pixels[(y0 * width + x0) * 3 + c], b = pixels[(y0 * width + x1) * 3 + c]
        let d = pixels[(y1 * width + x0) * 3 + c], e = pixels[(y1 * width + x1) * 3 + c]
        return (a * (1 - fx) + b * fx) * (1 - fy) + (d * (1 - fx) + e * fx) * fy
    }

    /// Warps by a homography given as the map from output to input coordinates.
    func warped(width w: Int, height h: Int, inverse m: [Double], background: (Float, Float, Float)) -> FloatImage {
        var out = FloatImage(width: w, height: h)
        let bg = [background.0, background.1, background.2]
        for y in 0..<h {
            for x in 0..<w {
                let X = Double(x), Y = Double(y)
                let den = m[6] * X + m[7] * Y + m[8]
                let sx = Float((m[0] * X + m[1] * Y + m[2]) / den), sy = Float((m[3] * X + m[4] * Y + m[5]) / den)
                for c in 0..<3 { out.pixels[(y * w + x) * 3 + c] = sample(sx, sy, c, outside: bg[c]) }
            }
        }
        return out
    }

    /// Separable Gaussian blur (sigma in pixels), edges replicated.
    mutating func gaussianBlur(sigma: Double) {
        guard sigma > 0.05 else { return }
        let radius = max(1, Int((3 * sigma).rounded(.up)))
        var kernel = (-radius...radius).map { Float(exp(-Double($0 * $0) / (2 * sigma * sigma))) }
        let total = kernel.reduce(0, +)
        kernel = kernel.map { $0 / total }
        pixels = convolved(convolved(pixels, kernel: kernel, horizontal: true), kernel: kernel, horizontal: false)
    }

    /// One pass of the odd-length `kernel` along rows (`horizontal`) or columns, edges replicated.
    private func convolved(_ source: [Float], kernel: [Float], horizontal: Bool) -> [Float] {
        let radius = kernel.count / 2
        var out = source
        for y in 0..<height {
            for x in 0..<width {
                for c in 0..<3 {
                    var s: Float = 0
                    for k in -radius...radius {
                        let pixel =
                            horizontal
                            ? y * width + min(max(x + k, 0), width - 1) : min(max(y + k, 0), height - 1) * width + x
                        s += kernel[k + radius] * source[pixel * 3 + c]
                    }
                    out[(y * width + x) * 3 + c] = s
                }
            }
        }
        return out
    }
}

/// 3x3 homographies as row-major [Double] (9 entries).
enum Homography {
    static func multiply(_ a: [Double], _ b: [Double]) -> [Double] {
        var r = [Double](repeating: 0, count: 9)
        for i in 0..<3 { for j in 0..<3 { for k in 0..<3 { r[3 * i + j] += a[3 * i + k] * b[3 * k + j] } } }
        return r
    }

    static func inverse(_ m: [Double]) -> [Double] {
        let a = m[0], b = m[1], c = m[2], d = m[3], e = m[4], f = m[5], g = m[6], h = m[7], i = m[8]
        let A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g
        let det = a * A + b * B + c * C
        return [
            A / det, -(b * i - c * h) / det, (b * f - c * e) / det,
            B / det, (a * i - c * g) / det, -(a * f - c * d) / det,
            C / det, -(a * h - b * g) / det, (a * e - b * d) / det,
        ]
    }

    static func apply(_ m: [Double], _ x: Double, _ y: Double) -> (Double, Double) {
        let den = m[6] * x + m[7] * y + m[8]
        return ((m[0] * x + m[1] * y + m[2]) / den, (m[3] * x + m[4] * y + m[5]) / den)
    }

    /// Similarity: scale s, rotation theta (radians) about (cx, cy), then translation (tx, ty).
    static func similarity(
        scale s: Double, rotation theta: Double, center cx: Double, _ cy: Double, translate tx: Double, _ ty: Double
    ) -> [Double] {
        let c = cos(theta) * s, n = sin(theta) * s
        return [c, -n, cx - c * cx + n * cy + tx, n, c, cy - n * cx - c * cy + ty, 0, 0, 1]
    }

    /// The box that bounds a box's four corners after the map.
    static func mapBox(_ m: [Double], _ box: Box) -> Box {
        let corners = [
            (box.x, box.y), (box.x + box.width, box.y), (box.x, box.y + box.height),
            (box.x + box.width, box.y + box.height),
        ]
        .map { apply(m, $0.0, $0.1) }
        let xs = corners.map(\.0), ys = corners.map(\.1)
        return Box(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }
}

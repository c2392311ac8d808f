/// An 8-bit single-channel plane (row-major, no padding): what detectors work on.
///
/// Example: `PadImageDocExamples.grayPlane`
/// in `Tests/PadImageTests/DocExamplesTests.swift` (compiled and run by `swift test`).
package struct GrayPlane: Sendable, Equatable {
    package let width: Int
    package let height: Int
    package var pixels: [UInt8]

    package init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height)
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Gray as OpenCV's `cvtColor(..., COLOR_RGB2GRAY)` computes it, in fixed point:
    /// Y = (4899 R + 9617 G + 1868 B + 8192) >> 14 (weights 0.299, 0.587, 0.114 scaled by 2^14),
    /// so detections match OpenCV's on the same decoded pixels.
    package init(_ image: Image) {
        width = image.width
        height = image.height
        if image.format == .gray {
            pixels = image.pixels
            return
        }
        var out = [UInt8](repeating: 0, count: image.pixelCount)
        image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for i in 0..<dst.count {
                    let r = Int32(src[3 * i]), g = Int32(src[3 * i + 1]), b = Int32(src[3 * i + 2])
                    dst[i] = UInt8((r * 4899 + g * 9617 + b * 1868 + 8192) >> 14)
                }
            }
        }
        pixels = out
    }

    /// Bilinear resize bit-exact in the manner of OpenCV's INTER_LINEAR_EXACT: source coordinate
    /// (d + 0.5) * src/dst - 0.5 clamped at the borders, 8-bit fixed-point coefficients, a
    /// horizontal then a vertical pass, rounded.
    package func resized(width dw: Int, height dh: Int) -> GrayPlane {
        precondition(dw > 0 && dh > 0)
        let xs = Self.taps(dw, width), ys = Self.taps(dh, height)
        var out = [UInt8](repeating: 0, count: dw * dh)
        // Two horizontally interpolated source rows, kept while consecutive output rows share them
        // (a downscale by less than 2 reads most source rows twice).
        var rows = [Int32](repeating: 0, count: 2 * dw)
        let w = width
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                rows.withUnsafeMutableBufferPointer { rows in
                    var cached = (-1, -1) // source row held in rows[0..<dw], rows[dw..<2dw]
                    func row(_ y: Int) -> UnsafeMutablePointer<Int32> {
                        if cached.0 == y { return rows.baseAddress! }
                        if cached.1 == y { return rows.baseAddress! + dw }
                        // Replace the slot not holding y - 1 (the row the caller pairs with y).
                        let slot = cached.0 == y - 1 ? 1 : 0
                        let target = rows.baseAddress! + slot * dw
                        Self.interpolateRow(src.baseAddress! + y * w, into: target, taps: xs, count: dw)
                        if slot == 0 { cached.0 = y } else { cached.1 = y }
                        return target
                    }
                    for y in 0..<dh {
                        let tap = ys[y], b = tap.weight
                        let row0 = row(Int(tap.index)), line = dst.baseAddress! + y * dw
                        // Rows are at most 255 * 256, so the rounded result is at most 255.
                        if b == 0 {
                            for x in 0..<dw { line[x] = UInt8(truncatingIfNeeded: (row0[x] &* 256 &+ 32768) >> 16) }
                        } else {
                            let row1 = row(Int(tap.next)), a = 256 - b
                            for x in 0..<dw {
                                line[x] = UInt8(truncatingIfNeeded: (row0[x] &* a &+ row1[x] &* b &+ 32768) >> 16)
                            }
                        }
                    }
                }
            }
        }
        return GrayPlane(width: dw, height: dh, pixels: out)
    }

    /// One source pixel pair of the bilinear resize: the left (or upper) index, the next index
    /// clamped to the plane, and the 8-bit weight of the next one.
    struct Tap {
        var index: Int32
        var next: Int32
        var weight: Int32
    }

    /// The taps of each destination coordinate: source coordinate f = (d + 0.5) src/dst - 0.5,
    /// index floor(f) clamped to [0, src - 1] (weight 0 at the clamps), weight round(256 frac(f)).
    static func taps(_ dst: Int, _ src: Int) -> [Tap] {
        let scale = Double(src) / Double(dst)
        return (0..<dst).map { d in
            var f = (Double(d) + 0.5) * scale - 0.5
            var s = Int(f.rounded(.down))
            f -= Double(s)
            if s < 0 { s = 0; f = 0 }
            if s >= src - 1 { s = src - 1; f = 0 }
            return Tap(index: Int32(s), next: Int32(min(s + 1, src - 1)), weight: Int32((f * 256).rounded()))
        }
    }

    /// The horizontal pass for one source row: target[x] = p[s] (256 - a) + p[s + 1] a.
    @inline(__always)
    static func interpolateRow(
        _ base: UnsafePointer<UInt8>, into target: UnsafeMutablePointer<Int32>, taps: [Tap], count: Int
    ) {
        taps.withUnsafeBufferPointer { taps in
            for x in 0..<count {
                let tap = taps[x], a = tap.weight
                target[x] = Int32(base[Int(tap.index)]) &* (256 &- a) &+ Int32(base[Int(tap.next)]) &* a
            }
        }
    }

    /// The plane cropped to a rectangle (clipped to the plane).
    package func cropped(x: Int, y: Int, width cw: Int, height ch: Int) -> GrayPlane {
        let x0 = max(0, min(x, width)), y0 = max(0, min(y, height))
        let x1 = max(x0, min(x + cw, width)), y1 = max(y0, min(y + ch, height))
        var out: [UInt8] = []
        out.reserveCapacity((x1 - x0) * (y1 - y0))
        for row in y0..<y1 { out.append(contentsOf: pixels[(row * width + x0)..<(row * width + x1)]) }
        return GrayPlane(width: x1 - x0, height: y1 - y0, pixels: out)
    }
}

/// Summed-area tables (Crow 1984; Viola & Jones 2001): `sum[(y)(w+1) + x]` is the sum of pixels
/// above and left of (x, y), with a zero first row and column; `squares` the same for squared
/// values. Arithmetic wraps in 32 bits as OpenCV's does: window sums are exact as long as one
/// window's sum fits in 32 bits.
package struct IntegralImage: Sendable {
    package let width: Int
    package let height: Int
    /// (width + 1) x (height + 1).
    package let sum: [Int32]
    package let squares: [UInt32]

    package init(_ plane: GrayPlane, squares withSquares: Bool = true) {
        let width = plane.width, height = plane.height
        self.width = width
        self.height = height
        let stride = width + 1
        var sum = [Int32](repeating: 0, count: stride * (height + 1))
        var squares = [UInt32](repeating: 0, count: withSquares ? stride * (height + 1) : 0)
        plane.pixels.withUnsafeBufferPointer { p in
            sum.withUnsafeMutableBufferPointer { s in
                squares.withUnsafeMutableBufferPointer { q in
                    for y in 0..<height {
                        var rowSum: Int32 = 0, rowSquares: UInt32 = 0
                        let above = y * stride, here = (y + 1) * stride
                        for x in 0..<width {
                            let v = p[y * width + x]
                            rowSum &+= Int32(v)
                            s[here + x + 1] = s[above + x + 1] &+ rowSum
                            if withSquares {
                                rowSquares &+= UInt32(v) * UInt32(v)
                                q[here + x + 1] = q[above + x + 1] &+ rowSquares
                            }
                        }
                    }
                }
            }
        }
        self.sum = sum
        self.squares = squares
    }
}

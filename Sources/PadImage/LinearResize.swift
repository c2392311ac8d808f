/// A region of an image resized by bilinear interpolation exactly as OpenCV's
/// `cv2.resize(src, (width, height))` (default `INTER_LINEAR`) computes it for 8-bit images, so
/// that a network sees the bytes its Python pre-processing gave it in training and in the
/// reference runs (the MiniFASNet crops of Silent-Face-Anti-Spoofing, UltraFace's input).
///
/// Example: `LinearResizeTests.equalsOpenCV` in `Tests/PadEstimatorsTests/OnnxNetworkTests.swift`.
///
/// The rule (OpenCV 4.x `imgproc/src/resize.cpp`, generic fixed-point path), with
/// `scale = 1 / (dst / src)` in double precision:
/// - source position of destination column `dx`: `fx = Float((dx + 0.5) * scale_x - 0.5)`,
///   `sx = floor(fx)`, `fx -= sx`; `sx < 0` gives `sx = 0, fx = 0`, `sx >= src_w - 1` gives
///   `sx = src_w - 1, fx = 0`; weights `a0 = round((1 - fx) * 2048)`, `a1 = round(fx * 2048)`
///   (round half to even, as `cvRound`); rows the same (`fy`, `sy`, `b0`, `b1`) except that `sy`
///   and `sy + 1` are clamped to the image when the rows are fetched and the weights are kept;
/// - horizontal pass: `h = S[sx] * a0 + S[sx + 1] * a1` per channel (exact integers);
/// - vertical pass, as OpenCV's vectorised kernel computes every column (its scalar formula
///   `(h0 * b0 + h1 * b1 + 2^21) >> 22`, which rounds differently, is never reached for 8-bit
///   images: checked bit-exact against cv2 4.14 on 6,000 random cases, `Fixtures/onnx/resize.md`):
///   `((((h0 >> 4) * b0) >> 16) + (((h1 >> 4) * b1) >> 16) + 2) >> 2`, saturated to 0-255;
/// - a resize by exactly 2 in both directions is OpenCV's area average instead:
///   `(p00 + p01 + p10 + p11 + 2) >> 2`; the same size is a copy.
extension Image {
    /// The pixels of columns `x0 ..< x0 + regionWidth` and rows `y0 ..< y0 + regionHeight` resized
    /// to `width` x `height` as `cv2.resize(image[y0:y0+h, x0:x0+w], (width, height))`.
    package func resizedLinear(
        x0: Int = 0, y0: Int = 0, regionWidth: Int? = nil, regionHeight: Int? = nil, width dw: Int, height dh: Int
    ) -> Image {
        let sw = regionWidth ?? width, sh = regionHeight ?? height, cn = channels
        precondition(sw > 0 && sh > 0 && dw > 0 && dh > 0, "empty resize")
        precondition(x0 >= 0 && y0 >= 0 && x0 + sw <= width && y0 + sh <= height, "region outside the image")
        var out = [UInt8](repeating: 0, count: dw * dh * cn)
        let scaleX = 1.0 / (Double(dw) / Double(sw)), scaleY = 1.0 / (Double(dh) / Double(sh))
        let stride = width * cn
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                if sw == dw, sh == dh {
                    for row in 0..<sh {
                        let from = (y0 + row) * stride + x0 * cn
                        for i in 0..<(sw * cn) { dst[row * sw * cn + i] = src[from + i] }
                    }
                    return
                }
                if scaleX == 2, scaleY == 2 {
                    Self.halve(src, origin: y0 * stride + x0 * cn, stride: stride, cn: cn, dw: dw, dh: dh, into: dst)
                    return
                }
                let xs = Self.taps(count: dw, scale: scaleX, size: sw, clampWeights: true)
                let ys = Self.taps(count: dh, scale: scaleY, size: sh, clampWeights: false)
                let rowBytes = dw * cn
                var upper = [Int32](repeating: 0, count: rowBytes), lower = upper
                var upperRow = -1, lowerRow = -1
                for dy in 0..<dh {
                    let r0 = min(max(ys.index[dy], 0), sh - 1), r1 = min(max(ys.index[dy] + 1, 0), sh - 1)
                    // Horizontal passes of the two source rows, reused when the next row needs them.
                    if upperRow != r0 {
                        if lowerRow == r0 {
                            swap(&upper, &lower)
                            (upperRow, lowerRow) = (r0, upperRow)
                        } else {
                            Self.horizontal(src, row: (y0 + r0) * stride + x0 * cn, xs: xs, cn: cn, into: &upper)
                            upperRow = r0
                        }
                    }
                    if lowerRow != r1 {
                        Self.horizontal(src, row: (y0 + r1) * stride + x0 * cn, xs: xs, cn: cn, into: &lower)
                        lowerRow = r1
                    }
                    let b0 = Int32(ys.weight0[dy]), b1 = Int32(ys.weight1[dy])
                    let base = dy * rowBytes
                    for x in 0..<rowBytes {
                        let value = (((upper[x] >> 4) * b0) >> 16 + ((lower[x] >> 4) * b1) >> 16 + 2) >> 2
                        dst[base + x] = UInt8(clamping: value)
                    }
                }
            }
        }
        return Image(width: dw, height: dh, format: format, pixels: out)
    }

    /// Source indices and fixed-point weights (scale 2048) of every destination column or row.
    private static func taps(count: Int, scale: Double, size: Int, clampWeights: Bool) -> (
        index: [Int], weight0: [Int16], weight1: [Int16]
    ) {
        var index = [Int](repeating: 0, count: count)
        var weight0 = [Int16](repeating: 0, count: count), weight1 = weight0
        for d in 0..<count {
            var f = Float((Double(d) + 0.5) * scale - 0.5)
            var s = Int(f.rounded(.down))
            f -= Float(s)
            if clampWeights {
                if s < 0 { (s, f) = (0, 0) }
                if s >= size - 1 { (s, f) = (size - 1, 0) }
            }
            index[d] = s
            weight0[d] = Int16(clamping: Int(((1 - f) * 2048).rounded(.toNearestOrEven)))
            weight1[d] = Int16(clamping: Int((f * 2048).rounded(.toNearestOrEven)))
        }
        return (index, weight0, weight1)
    }

    /// One source row through the horizontal taps: `S[sx] * a0 + S[sx + 1] * a1` per channel.
    private static func horizontal(
        _ src: UnsafeBufferPointer<UInt8>, row: Int, xs: (index: [Int], weight0: [Int16], weight1: [Int16]), cn: Int,
        into out: inout [Int32]
    ) {
        for dx in 0..<xs.index.count {
            let s = row + xs.index[dx] * cn
            let a0 = Int32(xs.weight0[dx]), a1 = Int32(xs.weight1[dx])
            for c in 0..<cn {
                // a1 == 0 at the right edge, where S[sx + 1] would be past the row.
                let right = a1 == 0 ? 0 : Int32(src[s + c + cn])
                out[dx * cn + c] = Int32(src[s + c]) * a0 + right * a1
            }
        }
    }

    /// OpenCV's area resize by exactly 2: each destination pixel the rounded mean of a 2x2 block.
    private static func halve(
        _ src: UnsafeBufferPointer<UInt8>, origin: Int, stride: Int, cn: Int, dw: Int, dh: Int,
        into dst: UnsafeMutableBufferPointer<UInt8>
    ) {
        for dy in 0..<dh {
            let top = origin + 2 * dy * stride, bottom = top + stride
            for dx in 0..<dw {
                for c in 0..<cn {
                    let i = 2 * dx * cn + c
                    let sum =
                        Int(src[top + i]) + Int(src[top + i + cn]) + Int(src[bottom + i]) + Int(src[bottom + i + cn])
                    dst[(dy * dw + dx) * cn + c] = UInt8((sum + 2) >> 2)
                }
            }
        }
    }
}

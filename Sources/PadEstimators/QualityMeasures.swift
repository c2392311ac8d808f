import Foundation
import PadImage

/// The individual quality measures of ``QualityEstimator`` as pure functions over a luminance
/// plane (or the image) and a region, so that each can be tested on hand-made inputs.
package enum QualityMeasures {
    package struct HistogramStatistics: Sendable, Equatable {
        package var mean: Double
        package var variance: Double
        package var underexposure: Double
        package var overexposure: Double
        package var entropy: Double
    }

    /// Mean, population variance, exposure fractions and entropy of the L histogram (OFIQ).
    package static func histogramStatistics(_ l: [UInt8], width: Int, region: Region) -> HistogramStatistics {
        var histogram = [Int](repeating: 0, count: 256)
        l.withUnsafeBufferPointer { plane in
            for y in region.y0..<region.y1 {
                let row = y * width
                for x in region.x0..<region.x1 { histogram[Int(plane[row + x])] += 1 }
            }
        }
        let n = Double(region.count)
        var sum = 0.0, sumSquares = 0.0, entropy = 0.0
        for (value, count) in histogram.enumerated() where count > 0 {
            let v = Double(value), c = Double(count)
            sum += v * c
            sumSquares += v * v * c
            let p = c / n
            entropy -= p * log2(p)
        }
        let mean = sum / n
        let variance = max(0, sumSquares / n - mean * mean)
        let under = histogram[0...25].reduce(0, +), over = histogram[247...255].reduce(0, +)
        return HistogramStatistics(
            mean: mean, variance: variance, underexposure: Double(under) / n,
            overexposure: Double(over) / n, entropy: entropy == 0 ? 0 : entropy)
    }

    /// Histogram intersection of the left and right halves' normalised L histograms; NaN when the
    /// region is narrower than 2 pixels. An odd middle column belongs to neither half.
    package static func illuminationUniformity(_ l: [UInt8], width: Int, region: Region) -> Double {
        let half = region.width / 2
        guard half >= 1, region.height >= 1 else { return .nan }
        var left = [Int](repeating: 0, count: 256), right = left
        for y in region.y0..<region.y1 {
            let row = y * width
            for x in region.x0..<(region.x0 + half) { left[Int(l[row + x])] += 1 }
            for x in (region.x1 - half)..<region.x1 { right[Int(l[row + x])] += 1 }
        }
        let n = Double(half * region.height)
        var intersection = 0.0
        for k in 0..<256 { intersection += Double(min(left[k], right[k])) / n }
        return intersection
    }

    /// Fraction of pixels with V = max(R,G,B) >= 230 and S = (max - min)/max <= 0.1.
    package static func specularity(_ image: Image, region: Region) -> Double {
        var count = 0
        let c = image.channels
        image.pixels.withUnsafeBufferPointer { p in
            for y in region.y0..<region.y1 {
                for x in region.x0..<region.x1 {
                    let i = (y * image.width + x) * c
                    let r = Int(p[i]), g = c == 3 ? Int(p[i + 1]) : r, b = c == 3 ? Int(p[i + 2]) : r
                    let maximum = max(r, g, b), minimum = min(r, g, b)
                    // S <= 0.1  <=>  10 (max - min) <= max, in integers.
                    if maximum >= 230 && 10 * (maximum - minimum) <= maximum { count += 1 }
                }
            }
        }
        return Double(count) / Double(region.count)
    }

    /// Variance of the 4-neighbour Laplacian over the region, neighbours mirrored at the region's
    /// edges without repeating the edge pixel (OpenCV BORDER_REFLECT_101). NaN below 3x3.
    package static func laplacianVariance(_ l: [UInt8], width: Int, region: Region) -> Double {
        guard region.width >= 3, region.height >= 3 else { return .nan }
        @inline(__always) func reflect(_ v: Int, _ lo: Int, _ hi: Int) -> Int {
            v < lo ? 2 * lo - v : (v >= hi ? 2 * (hi - 1) - v : v)
        }
        // Integer sums: |v| <= 1020, so both are exact far beyond any image size (v^2 summed
        // stays below 2^53 up to 8 x 10^9 pixels), and equal the double sums of the plain loop.
        var sum = 0, sumSquares = 0
        l.withUnsafeBufferPointer { p in
            for y in region.y0..<region.y1 {
                let up = reflect(y - 1, region.y0, region.y1) * width,
                    down = reflect(y + 1, region.y0, region.y1) * width
                let row = y * width
                for x in region.x0..<region.x1 {
                    let left = reflect(x - 1, region.x0, region.x1), right = reflect(x + 1, region.x0, region.x1)
                    let v =
                        Int(p[up + x]) + Int(p[down + x]) + Int(p[row + left]) + Int(p[row + right]) - 4
                        * Int(p[row + x])
                    sum += v
                    sumSquares += v * v
                }
            }
        }
        let n = Double(region.count)
        let mean = Double(sum) / n
        return max(0, Double(sumSquares) / n - mean * mean)
    }

    /// Crete et al. 2007 no-reference blur, max over the two directions; NaN for a flat region
    /// (no differences at all) or one smaller than 2x2.
    package static func creteBlur(_ l: [UInt8], width: Int, region: Region) -> Double {
        guard region.width >= 2, region.height >= 2 else { return .nan }
        let (vertical, horizontal) = creteDirections(l, width: width, region: region)
        if vertical.isNaN && horizontal.isNaN { return .nan }
        if vertical.isNaN { return horizontal }
        if horizontal.isNaN { return vertical }
        return max(vertical, horizontal)
    }

    /// Both directions of Crete's measure: F the region's L, B = F re-blurred by a 9-tap mean
    /// along the direction (edge pixels replicated), D_F and D_B absolute differences between
    /// neighbours along it; b = (sum D_F - sum max(0, D_F - D_B)) / sum D_F, NaN when sum D_F = 0.
    ///
    /// Row by row: the 9-tap sums are integers (at most 9 x 255; running sums along the row, and
    /// per column down the rows, so the plane is read in row order); B = sum / 9 is read from
    /// ``ninths`` (the same division, done once per possible sum); each row's terms
    /// max(0, D_F - D_B) are computed into a buffer, then added to the two directions' sums in
    /// one loop: the sums keep the row-major order of the plain definition (so its bits,
    /// `QualityTests.creteBlurEqualsThePlainDefinition`), and their two chains of additions
    /// overlap. sum D_F is an integer sum, exact in any order.
    static func creteDirections(_ l: [UInt8], width: Int, region: Region) -> (vertical: Double, horizontal: Double) {
        let w = region.width, h = region.height
        var columns = [Int32](repeating: 0, count: w) // 9-tap column sums at the current row
        // B of the current and previous row (vertical), B along the row (horizontal), the terms.
        var scratch = [Double](repeating: 0, count: 5 * w)
        var sums = CreteSums()
        l.withUnsafeBufferPointer { plane in
            columns.withUnsafeMutableBufferPointer { columns in
                scratch.withUnsafeMutableBufferPointer { scratch in
                    let ninths = Self.ninths.withUnsafeBufferPointer { $0.baseAddress! }
                    let origin = plane.baseAddress! + region.y0 * width + region.x0
                    @inline(__always) func row(_ y: Int) -> UnsafePointer<UInt8> {
                        origin + min(max(y, 0), h - 1) * width
                    }
                    var current = scratch.baseAddress!, previous = current + w
                    let along = current + 2 * w, verticalTerms = current + 3 * w, horizontalTerms = current + 4 * w
                    for d in -4...4 { let r = row(d); for x in 0..<w { columns[x] &+= Int32(r[x]) } }
                    for y in 0..<h {
                        let f = row(y)
                        Self.slidingNineTapMeans(f, count: w, ninths: ninths, into: along)
                        sums.horizontalF += Self.creteTerms(
                            f, f - 1, along, along - 1, range: 1..<w, into: horizontalTerms)
                        for x in 0..<w { current[x] = ninths[Int(columns[x])] }
                        if y > 0 {
                            sums.verticalF += Self.creteTerms(
                                f, row(y - 1), current, previous, range: 0..<w, into: verticalTerms)
                            sums.add(vertical: verticalTerms, horizontal: horizontalTerms + 1, count: w)
                        } else {
                            sums.add(
                                vertical: verticalTerms, horizontal: horizontalTerms + 1, count: 0,
                                horizontalOnly: w - 1)
                        }
                        // Next row's column sums: add row y + 5, drop row y - 4 (both clamped).
                        let incoming = row(y + 5), outgoing = row(y - 4)
                        for x in 0..<w { columns[x] = columns[x] &+ Int32(incoming[x]) &- Int32(outgoing[x]) }
                        swap(&current, &previous)
                    }
                }
            }
        }
        return (sums.blur(f: sums.verticalF, v: sums.verticalV), sums.blur(f: sums.horizontalF, v: sums.horizontalV))
    }

    /// Crete's running sums of both directions.
    struct CreteSums {
        var verticalF = 0, horizontalF = 0
        var verticalV = 0.0, horizontalV = 0.0

        /// Adds one row's terms in order: vertical[0..<count] and horizontal[0..<count - 1], two
        /// chains in one loop; with `horizontalOnly`, just that many horizontal terms.
        @inline(__always)
        mutating func add(
            vertical: UnsafePointer<Double>, horizontal: UnsafePointer<Double>, count: Int, horizontalOnly: Int = 0
        ) {
            var v = verticalV, hz = horizontalV
            if count > 0 {
                for x in 0..<(count - 1) {
                    v += vertical[x]
                    hz += horizontal[x]
                }
                v += vertical[count - 1]
            }
            for x in 0..<horizontalOnly { hz += horizontal[x] }
            verticalV = v
            horizontalV = hz
        }

        func blur(f: Int, v: Double) -> Double {
            let total = Double(f)
            return f > 0 ? (total - v) / total : .nan
        }
    }

    /// terms[x] = max(0, D_F - D_B) for x in `range`, D_F = |f[x] - g[x]|, D_B = |b[x] - c[x]|;
    /// returns sum D_F. Written to vectorise: no running sum in double here.
    @inline(__always)
    static func creteTerms(
        _ f: UnsafePointer<UInt8>, _ g: UnsafePointer<UInt8>, _ b: UnsafePointer<Double>, _ c: UnsafePointer<Double>,
        range: Range<Int>, into terms: UnsafeMutablePointer<Double>
    ) -> Int {
        var sumF = 0
        for x in range {
            let d = abs(Int32(f[x]) &- Int32(g[x]))
            let v = Double(d) - abs(b[x] - c[x])
            // max(0, v) as Swift.max computes it (v >= 0 ? v : 0), which adds the same.
            terms[x] = v >= 0 ? v : 0
            sumF &+= Int(d)
        }
        return sumF
    }

    /// k / 9 for every 9-tap sum k of 8-bit values (0...9 x 255), each the correctly rounded quotient.
    static let ninths: [Double] = (0...9 * 255).map { Double($0) / 9 }

    /// out[t] = (sum of line[clamp(t + d)] for d in -4...4) / 9, clamped to the line (edges
    /// replicated); the sum is an exact integer, kept as a running sum, and divided by table.
    @inline(__always)
    static func slidingNineTapMeans(
        _ line: UnsafePointer<UInt8>, count: Int, ninths: UnsafePointer<Double>, into out: UnsafeMutablePointer<Double>
    ) {
        var window: Int32 = 0
        for d in -4...4 { window &+= Int32(line[min(max(d, 0), count - 1)]) }
        for t in 0..<count {
            out[t] = ninths[Int(window)]
            window &+= Int32(line[min(t + 5, count - 1)]) &- Int32(line[max(t - 4, 0)])
        }
    }

    /// Mean CIELAB (D65, sRGB) a*, b* of the region and its distance from the skin box
    /// a* in [5, 25], b* in [5, 35]; 0 inside (OFIQ natural colour). Formulas: CIE 15:2004,
    /// sRGB IEC 61966-2-1 primaries to XYZ, white Xn = 0.95047, Yn = 1, Zn = 1.08883.
    package static func naturalColourDistance(_ image: Image, region: Region) -> Double {
        let lab = meanLab(image, region: region)
        let da = max(0, 5 - lab.a, lab.a - 25), db = max(0, 5 - lab.b, lab.b - 35)
        return (da * da + db * db).squareRoot()
    }

    /// Sums of L*, a*, b* over the region, divided by its pixel count. Four pixels at a time in
    /// SIMD lanes (``labTerms(_:_:_:)``); each lane does the scalar formula's operations in its
    /// order, and the sums take the lanes in pixel order, so the result has the bits of the
    /// one-pixel-at-a-time loop (`QualityTests.meanLabEqualsTheLibraryCubeRootSum`).
    ///
    /// A pixel's terms depend only on its colour, and a photo has few colours for its pixels
    /// (the benchmark's 640 x 480 images: 8% distinct), so the terms of recent colours are kept
    /// in a direct-mapped table (``LabTermCache``): a group of four pixels whose colours are all
    /// there adds the stored terms, any other group is computed in lanes and stored. The stored
    /// terms are the computed ones, so the sums are the same.
    package static func meanLab(_ image: Image, region: Region) -> (l: Double, a: Double, b: Double) {
        var sumL = 0.0, sumA = 0.0, sumB = 0.0
        let c = image.channels, width = image.width
        var cache = LabTermCache(pixels: region.count)
        linearTable.withUnsafeBufferPointer { linear in
            cubeRootScales.withUnsafeBufferPointer { scales in
                image.pixels.withUnsafeBufferPointer { pixels in
                    cache.withTable { cache in
                        @inline(__always) func key(_ x: Int, _ y: Int) -> UInt32 {
                            let i = (y * width + x) * c
                            let r = UInt32(pixels[i])
                            // + 1: key 0 marks an empty slot.
                            return c == 3 ? (r << 16 | UInt32(pixels[i + 1]) << 8 | UInt32(pixels[i + 2])) + 1 : r + 1
                        }
                        @inline(__always) func linearRGB(_ x: Int, _ y: Int) -> (Double, Double, Double) {
                            let i = (y * width + x) * c
                            let r = linear[Int(pixels[i])]
                            return c == 3 ? (r, linear[Int(pixels[i + 1])], linear[Int(pixels[i + 2])]) : (r, r, r)
                        }
                        @inline(__always) func add(_ terms: (l: Double, a: Double, b: Double)) {
                            sumL += terms.l
                            sumA += terms.a
                            sumB += terms.b
                        }
                        for y in region.y0..<region.y1 {
                            var x = region.x0
                            while x < region.x1 {
                                let lanes = min(4, region.x1 - x)
                                if lanes == 4 {
                                    let keys = SIMD4(key(x, y), key(x + 1, y), key(x + 2, y), key(x + 3, y))
                                    let slots = cache.slots(keys)
                                    if cache.holds(keys, at: slots) {
                                        for lane in 0..<4 { add(cache.terms(at: slots[lane])) }
                                        x += 4
                                        continue
                                    }
                                    var r = SIMD4<Double>(), g = r, b = r
                                    for lane in 0..<4 { (r[lane], g[lane], b[lane]) = linearRGB(x + lane, y) }
                                    let terms = labTerms(r, g, b, scales: scales.baseAddress!)
                                    for lane in 0..<4 {
                                        let t = (terms.l[lane], terms.a[lane], terms.b[lane])
                                        cache.store(t, key: keys[lane], at: slots[lane])
                                        add(t)
                                    }
                                } else {
                                    var r = SIMD4<Double>(), g = r, b = r
                                    for lane in 0..<lanes { (r[lane], g[lane], b[lane]) = linearRGB(x + lane, y) }
                                    let terms = labTerms(r, g, b, scales: scales.baseAddress!)
                                    for lane in 0..<lanes { add((terms.l[lane], terms.a[lane], terms.b[lane])) }
                                }
                                x += 4
                            }
                        }
                    }
                }
            }
        }
        let n = Double(region.count)
        return (sumL / n, sumA / n, sumB / n)
    }

    /// A direct-mapped table of the L*, a*, b* terms of recently seen colours for ``meanLab``:
    /// 2^bits slots of (colour + 1, L, a, b), slot = Fibonacci hash of the key. Sized to the
    /// region (a quarter of its pixels, 256 to 65536 slots) so a small face does not clear a
    /// large table.
    struct LabTermCache {
        var keys: [UInt32]
        var terms: [Double]
        let shift: UInt32

        init(pixels: Int) {
            var bits = 8
            while bits < 16 && (1 << bits) < pixels / 4 { bits += 1 }
            keys = [UInt32](repeating: 0, count: 1 << bits)
            terms = [Double](repeating: 0, count: 3 << bits)
            shift = UInt32(32 - bits)
        }

        struct Table {
            let keys: UnsafeMutablePointer<UInt32>
            let terms: UnsafeMutablePointer<Double>
            let shift: UInt32

            @inline(__always) func slots(_ keys: SIMD4<UInt32>) -> SIMD4<UInt32> {
                (keys &* 2_654_435_769) &>> shift
            }
            @inline(__always) func holds(_ keys: SIMD4<UInt32>, at slots: SIMD4<UInt32>) -> Bool {
                self.keys[Int(slots[0])] == keys[0] && self.keys[Int(slots[1])] == keys[1]
                    && self.keys[Int(slots[2])] == keys[2] && self.keys[Int(slots[3])] == keys[3]
            }
            @inline(__always) func terms(at slot: UInt32) -> (l: Double, a: Double, b: Double) {
                let p = terms + 3 * Int(slot)
                return (p[0], p[1], p[2])
            }
            @inline(__always) func store(_ t: (l: Double, a: Double, b: Double), key: UInt32, at slot: UInt32) {
                keys[Int(slot)] = key
                let p = terms + 3 * Int(slot)
                (p[0], p[1], p[2]) = t
            }
        }

        mutating func withTable<R>(_ body: (Table) -> R) -> R {
            let shift = self.shift
            return keys.withUnsafeMutableBufferPointer { keys in
                terms.withUnsafeMutableBufferPointer { terms in
                    body(Table(keys: keys.baseAddress!, terms: terms.baseAddress!, shift: shift))
                }
            }
        }
    }

    /// Per lane: X/Xn, Y, Z/Zn from linear sRGB; f(t) = cube root above (6/29)^3, else the
    /// linear segment (24389/27 t + 16) / 116 (CIE 15:2004); then 116 fy - 16, 500 (fx - fy),
    /// 200 (fy - fz). Both branches of f are computed and the lane's one chosen.
    @inline(__always)
    static func labTerms(
        _ r: SIMD4<Double>, _ g: SIMD4<Double>, _ b: SIMD4<Double>, scales: UnsafePointer<Double>
    ) -> (l: SIMD4<Double>, a: SIMD4<Double>, b: SIMD4<Double>) {
        @inline(__always) func f(_ t: SIMD4<Double>) -> SIMD4<Double> {
            cubeRoots(t, scales: scales).replacing(
                with: (24389.0 / 27.0 * t + 16) / 116, where: .!(t .> 216.0 / 24389.0))
        }
        let fx = f((0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047)
        let fy = f(0.2126729 * r + 0.7151522 * g + 0.0721750 * b)
        let fz = f((0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883)
        return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))
    }

    /// ``cubeRoot(_:)`` in four lanes, operation for operation, for positive normal lanes (any
    /// other lane gives a meaningless value that the caller discards). The last two steps,
    /// times 2^((e mod 3)/3) and times 2^(e/3), are one multiplication by their product from
    /// ``cubeRootScales``: the product is exact and scaling by a power of two commutes with
    /// rounding while the result stays normal, so the bits are the same.
    @inline(__always)
    static func cubeRoots(_ x: SIMD4<Double>, scales: UnsafePointer<Double>) -> SIMD4<Double> {
        let bits = unsafeBitCast(x, to: SIMD4<UInt64>.self)
        let exponent = (bits &>> 52) & 0x7ff
        let m = unsafeBitCast((bits & 0x000f_ffff_ffff_ffff) | (1022 << 52), to: SIMD4<Double>.self)
        var u = 0.784932344976639262 - 0.145263899385486377 * m
        u = (((u * m - 1.83469277483613086) * m + 2.44693122563534430) * m - 2.11499494167371287) * m
        u = (u + 1.50819193781584896) * m + 0.354895765043919860
        let u3 = u * u * u
        let scale = SIMD4(
            scales[Int(exponent[0])], scales[Int(exponent[1])], scales[Int(exponent[2])], scales[Int(exponent[3])])
        return u * (u3 + 2.0 * m) / (2.0 * u3 + m) * scale
    }

    /// For each 11-bit exponent field k (e = k - 1022, x = m 2^e with m in [0.5, 1)):
    /// 2^((e mod 3)/3) x 2^(e/3) as ``cubeRoot(_:)`` applies them (truncating division).
    static let cubeRootScales: [Double] = (0..<2048).map { k in
        let e = k - 1022
        return cubeRootFactors[2 + e % 3] * Double(bitPattern: UInt64(1023 + e / 3) << 52)
    }

    /// The cube root of a positive normal double, computed as glibc's `cbrt` (sysdeps/ieee754/
    /// dbl-64/s_cbrt.c, the one x86-64 uses) computes it, operation for operation, so the result
    /// is the same bits: x = m 2^e with m in [0.5, 1) (frexp); u = a degree-6 polynomial in m
    /// (Horner); y = u (u^3 + 2m) / (2 u^3 + m) (one Halley step), times 2^((e mod 3)/3) from a
    /// five-entry table, times 2^(e / 3) (ldexp, exact). Inlined with frexp/ldexp as bit
    /// operations it is several times faster than the library call, which was 13% of a bench run.
    /// Zero, negative, subnormal and non-finite inputs go to the library (never the case here).
    @inline(__always)
    static func cubeRoot(_ x: Double) -> Double {
        guard x.isNormal, x > 0 else { return cbrt(x) }
        let bits = x.bitPattern
        let e = Int((bits >> 52) & 0x7ff) - 1022
        let m = Double(bitPattern: (bits & 0x000f_ffff_ffff_ffff) | (1022 << 52))
        var u = 0.784932344976639262 - 0.145263899385486377 * m
        u = (((u * m - 1.83469277483613086) * m + 2.44693122563534430) * m - 2.11499494167371287) * m
        u = (u + 1.50819193781584896) * m + 0.354895765043919860
        let u3 = u * u * u
        let y = u * (u3 + 2.0 * m) / (2.0 * u3 + m) * cubeRootFactors[2 + e % 3]
        return y * Double(bitPattern: UInt64(1023 + e / 3) << 52)
    }

    /// 2^(k/3) for k = -2...2, as glibc's `factor` table (1 / 2^(2/3), 1 / 2^(1/3), 1, ...).
    static let cubeRootFactors: [Double] = [
        1.0 / 1.5874010519681994748, 1.0 / 1.2599210498948731648, 1.0, 1.2599210498948731648,
        1.5874010519681994748,
    ]

    static let linearTable: [Double] = (0..<256).map { v in
        let x = Double(v) / 255
        return x > 0.04045 ? pow((x + 0.055) / 1.055, 2.4) : x / 12.92
    }

    /// Mean Sobel gradient magnitude of L over pixels outside the face region (image border
    /// pixels excluded, where the 3x3 kernel does not fit). NaN when no such pixel exists.
    /// Each row's runs left and right of the face take eight pixels at a time in lanes (integer
    /// gradients, one IEEE square root per lane); the magnitudes are summed one by one in
    /// row-major order, so the bits are those of the pixel loop
    /// (`QualityTests.backgroundGradientEqualsThePixelLoop`).
    package static func backgroundGradient(_ l: [UInt8], width: Int, height: Int, face: Region) -> Double {
        guard width >= 3, height >= 3 else { return .nan }
        var sum = 0.0
        var count = 0
        l.withUnsafeBufferPointer { p in
            for y in 1..<(height - 1) {
                let row = p.baseAddress! + y * width
                // The row's pixels left of the face, then right of it (all of them outside its rows).
                let inFaceRows = y >= face.y0 && y < face.y1
                let leftEnd = inFaceRows ? min(max(face.x0, 1), width - 1) : width - 1
                let rightStart = inFaceRows ? min(max(face.x1, leftEnd), width - 1) : width - 1
                if 1 < leftEnd { sobelMagnitudes(row, width: width, run: 1..<leftEnd, into: &sum) }
                if rightStart < width - 1 {
                    sobelMagnitudes(row, width: width, run: rightStart..<(width - 1), into: &sum)
                }
                count += max(0, leftEnd - 1) + max(0, width - 1 - rightStart)
            }
        }
        return count > 0 ? sum / Double(count) : .nan
    }

    /// Adds sqrt(gx^2 + gy^2) of the 3x3 Sobel kernel at x in `run` of the row at `row` to
    /// `sum`, left to right.
    @inline(__always)
    static func sobelMagnitudes(_ row: UnsafePointer<UInt8>, width: Int, run: Range<Int>, into sum: inout Double) {
        @inline(__always) func load(_ p: UnsafePointer<UInt8>) -> SIMD8<Int32> {
            SIMD8<Int32>(truncatingIfNeeded: UnsafeRawPointer(p).loadUnaligned(as: SIMD8<UInt8>.self))
        }
        var x = run.lowerBound
        while x + 8 <= run.upperBound {
            let above = row - width + x, here = row + x, below = row + width + x
            let a = load(above - 1), b = load(above), c = load(above + 1)
            let d = load(here - 1), f = load(here + 1)
            let g = load(below - 1), h = load(below), i = load(below + 1)
            let gx = (c &+ 2 &* f &+ i) &- (a &+ 2 &* d &+ g)
            let gy = (g &+ 2 &* h &+ i) &- (a &+ 2 &* b &+ c)
            let magnitude = SIMD8<Double>(gx &* gx &+ gy &* gy).squareRoot()
            for lane in 0..<8 { sum += magnitude[lane] }
            x += 8
        }
        while x < run.upperBound {
            let above = row - width + x, here = row + x, below = row + width + x
            let (a, b, c) = (Int(above[-1]), Int(above[0]), Int(above[1]))
            let (d, f) = (Int(here[-1]), Int(here[1]))
            let (g, h, i) = (Int(below[-1]), Int(below[0]), Int(below[1]))
            let gx = (c + 2 * f + i) - (a + 2 * d + g)
            let gy = (g + 2 * h + i) - (a + 2 * b + c)
            sum += Double(gx * gx + gy * gy).squareRoot()
            x += 1
        }
    }

    /// Mean L over the pixels outside the face region (a region inside the image):
    /// (sum of L over the image - sum over the region) / (W x H - region pixels). NaN when the
    /// region covers the whole image.
    package static func backgroundLuminance(_ l: [UInt8], width: Int, face: Region) -> Double {
        let outside = l.count - face.count
        guard outside > 0 else { return .nan }
        var total = 0, inside = 0
        for v in l { total += Int(v) }
        for y in face.y0..<face.y1 { for x in face.x0..<face.x1 { inside += Int(l[y * width + x]) } }
        return Double(total - inside) / Double(outside)
    }
}

import PadImage

/// One grouped detection: a box in image pixels and how many raw windows support it.
public struct Detection: Sendable, Equatable {
    public var x, y, width, height: Int
    public var neighbors: Int
    public var box: Box { Box(x: Double(x), y: Double(y), width: Double(width), height: Double(height)) }
}

/// Multi-scale sliding-window detection with a ``CascadeClassifier``, following OpenCV 4's
/// `CascadeClassifier::detectMultiScale` step for step so that results agree with it:
/// - scales f = scaleFactor^k while the scaled image still holds a window; scales whose window
///   (round(W f) x round(H f)) is below `minSize` are skipped, above `maxSize` stop the loop;
/// - at each scale the image is resized to round(w / f) x round(h / f) (bilinear, fixed point) and
///   the window slides with step 2 (step 1 once f >= 2); a window rejected by the first stage also
///   skips the next position;
/// - Haar: each feature sum is multiplied by 1 / sqrt(A sum(x^2) - sum(x)^2) over the window
///   shrunk by one pixel (variance normalisation); windows with almost no variance are rejected;
///   stage sums of the stumps' leaves are compared with the stage threshold minus 1e-5;
/// - LBP: multi-block LBP codes over 3x3 blocks, categorical stumps by 256-bit subsets;
/// - raw windows are grouped by ``RectangleGrouping`` (eps 0.2, `minNeighbors`).
public struct CascadeDetector: Sendable {
    public let cascade: CascadeClassifier

    public init(cascade: CascadeClassifier) { self.cascade = cascade }

    public func detect(in plane: GrayPlane, scaleFactor: Double = 1.1, minNeighbors: Int = 3,
                       minSize: (width: Int, height: Int) = (0, 0), maxSize: (width: Int, height: Int)? = nil) -> [Detection] {
        let raw = detectWindows(in: plane, scaleFactor: scaleFactor, minSize: minSize, maxSize: maxSize)
        return RectangleGrouping.group(raw, minNeighbors: minNeighbors, eps: 0.2)
    }

    /// Every window the cascade accepts, before grouping: (x, y, width, height).
    public func detectWindows(in plane: GrayPlane, scaleFactor: Double = 1.1, minSize: (width: Int, height: Int) = (0, 0),
                              maxSize: (width: Int, height: Int)? = nil) -> [(Int, Int, Int, Int)] {
        let W = cascade.windowWidth, H = cascade.windowHeight
        guard plane.width > W, plane.height > H, scaleFactor > 1 else { return [] }
        let maximum = maxSize ?? (plane.width, plane.height)
        var scales: [Float] = []
        var factor = 1.0
        while true {
            let window = (Self.round(Double(W) * factor), Self.round(Double(H) * factor))
            let scaled = (Self.round(Double(plane.width) / factor), Self.round(Double(plane.height) / factor))
            if scaled.0 - W <= 0 || scaled.1 - H <= 0 { break }
            if window.0 > maximum.width || window.1 > maximum.height { break }
            if !(window.0 < minSize.width || window.1 < minSize.height) { scales.append(Float(factor)) }
            factor *= scaleFactor
        }
        var found: [(Int, Int, Int, Int)] = []
        for scale in scales {
            let sw = Self.round(Double(Float(plane.width) / scale)), sh = Self.round(Double(Float(plane.height) / scale))
            let scaled = (sw == plane.width && sh == plane.height) ? plane : plane.resized(width: sw, height: sh)
            let integral = IntegralImage(scaled, squares: cascade.featureType == .haar)
            let step = scale >= 2 ? 1 : 2
            let window = (Self.round(Double(Float(W) * scale)), Self.round(Double(Float(H) * scale)))
            scan(integral, step: step) { x, y in
                found.append((Self.round(Double(Float(x) * scale)), Self.round(Double(Float(y) * scale)), window.0, window.1))
            }
        }
        return found
    }

    /// cvRound: nearest, ties to even.
    @inline(__always) static func round(_ v: Double) -> Int { Int(v.rounded(.toNearestOrEven)) }

    /// Slides the window over one scale and reports accepted positions.
    private func scan(_ integral: IntegralImage, step: Int, accept: (Int, Int) -> Void) {
        let W = cascade.windowWidth, H = cascade.windowHeight
        let stride = integral.width + 1
        let workingWidth = max(integral.width + 1 - W, 0), workingHeight = max(integral.height + 1 - H, 0)
        // `run` evaluates the cascade at a window's offset in the integral image: 1 accepted,
        // 0 rejected by the first stage (the next position is skipped too, as OpenCV does), < 0 otherwise.
        @inline(__always) func slide(_ run: (Int) -> Int) {
            var y = 0
            while y < workingHeight {
                var x = 0
                while x < workingWidth {
                    let inside = x + W < integral.width + 1 && y + H < integral.height + 1
                    let result = inside ? run(y * stride + x) : -1
                    if result > 0 { accept(x, y) }
                    if result == 0 { x += step }
                    x += step
                }
                y += step
            }
        }
        switch cascade.featureType {
        case .haar:
            let evaluator = HaarEvaluator(cascade: cascade, stride: stride)
            integral.sum.withUnsafeBufferPointer { sum in
                integral.squares.withUnsafeBufferPointer { squares in
                    slide { offset in evaluator.run(sum.baseAddress! + offset, squares.baseAddress! + offset) }
                }
            }
        case .lbp:
            let evaluator = LBPEvaluator(cascade: cascade, stride: stride)
            integral.sum.withUnsafeBufferPointer { sum in
                slide { offset in evaluator.run(sum.baseAddress! + offset) }
            }
        }
    }
}

/// Haar features with their integral-image offsets for one stride.
struct HaarEvaluator {
    /// Per stump: three rects x four corner offsets, three weights (0 for absent rects).
    var offsets: [Int32]
    var weights: [Float]
    var thresholds: [Float]
    var leaves: [Float]
    var stageEnds: [Int]
    var stageThresholds: [Float]
    var normOffsets: (Int, Int, Int, Int)
    var normArea: Double

    init(cascade: CascadeClassifier, stride: Int) {
        offsets = []
        weights = []
        thresholds = []
        leaves = []
        stageEnds = []
        stageThresholds = []
        var count = 0
        for stage in cascade.stages {
            for stump in stage.stumps {
                let rects = cascade.haarFeatures[Int(stump.feature)]
                for r in 0..<3 {
                    if r < rects.count {
                        let q = rects[r]
                        let x = Int(q.x), y = Int(q.y), w = Int(q.width), h = Int(q.height)
                        offsets += [y * stride + x, y * stride + x + w, (y + h) * stride + x, (y + h) * stride + x + w].map { Int32($0) }
                        weights.append(q.weight)
                    } else {
                        offsets += [0, 0, 0, 0]
                        weights.append(0)
                    }
                }
                thresholds.append(stump.threshold)
                leaves += [stump.left, stump.right]
                count += 1
            }
            stageEnds.append(count)
            stageThresholds.append(stage.threshold)
        }
        let W = cascade.windowWidth, H = cascade.windowHeight
        // The normalisation rectangle is the window shrunk by one pixel on every side.
        let nx = 1, ny = 1, nw = W - 2, nh = H - 2
        normOffsets = (ny * stride + nx, ny * stride + nx + nw, (ny + nh) * stride + nx, (ny + nh) * stride + nx + nw)
        normArea = Double(nw * nh)
    }

    /// 1 when every stage passes, -stage when rejected at that stage (0 = first), -1 for a flat window.
    @inline(__always)
    func run(_ sum: UnsafePointer<Int32>, _ squares: UnsafePointer<UInt32>) -> Int {
        let valueSum = sum[normOffsets.0] &- sum[normOffsets.1] &- sum[normOffsets.2] &+ sum[normOffsets.3]
        let squareSum = squares[normOffsets.0] &- squares[normOffsets.1] &- squares[normOffsets.2] &+ squares[normOffsets.3]
        var nf = normArea * Double(squareSum) - Double(valueSum) * Double(valueSum)
        let factor: Float
        if nf > 0 {
            nf = nf.squareRoot()
            factor = Float(1 / nf)
            if !(normArea * Double(factor) < 0.1) { return -1 }
        } else {
            return -1
        }
        return offsets.withUnsafeBufferPointer { o in
            weights.withUnsafeBufferPointer { w in
                thresholds.withUnsafeBufferPointer { t in
                    leaves.withUnsafeBufferPointer { l in
                        var k = 0
                        for stage in 0..<stageEnds.count {
                            var total = 0.0
                            let end = stageEnds[stage]
                            while k < end {
                                let b = 12 * k
                                var value = w[3 * k] * Float(sum[Int(o[b])] &- sum[Int(o[b + 1])] &- sum[Int(o[b + 2])] &+ sum[Int(o[b + 3])])
                                value += w[3 * k + 1] * Float(sum[Int(o[b + 4])] &- sum[Int(o[b + 5])] &- sum[Int(o[b + 6])] &+ sum[Int(o[b + 7])])
                                if w[3 * k + 2] != 0 {
                                    value += w[3 * k + 2] * Float(sum[Int(o[b + 8])] &- sum[Int(o[b + 9])] &- sum[Int(o[b + 10])] &+ sum[Int(o[b + 11])])
                                }
                                total += Double(value * factor < t[k] ? l[2 * k] : l[2 * k + 1])
                                k += 1
                            }
                            if total < Double(stageThresholds[stage]) { return -stage }
                        }
                        return 1
                    }
                }
            }
        }
    }
}

/// Multi-block LBP features with their integral-image offsets for one stride.
struct LBPEvaluator {
    /// Per stump: the 16 corner offsets of the 3x3 block grid.
    var offsets: [Int32]
    var subsets: [Int32]
    var leaves: [Float]
    var stageEnds: [Int]
    var stageThresholds: [Float]

    init(cascade: CascadeClassifier, stride: Int) {
        offsets = []
        subsets = []
        leaves = []
        stageEnds = []
        stageThresholds = []
        var k = 0
        for stage in cascade.stages {
            for stump in stage.stumps {
                let f = cascade.lbpFeatures[Int(stump.feature)]
                for row in 0..<4 {
                    for column in 0..<4 {
                        offsets.append(Int32((Int(f.y) + row * Int(f.height)) * stride + Int(f.x) + column * Int(f.width)))
                    }
                }
                subsets += cascade.lbpSubsets[k]
                leaves += [stump.left, stump.right]
                k += 1
            }
            stageEnds.append(k)
            stageThresholds.append(stage.threshold)
        }
    }

    @inline(__always)
    func run(_ sum: UnsafePointer<Int32>) -> Int {
        offsets.withUnsafeBufferPointer { o in
            subsets.withUnsafeBufferPointer { subset in
                leaves.withUnsafeBufferPointer { l in
                    var k = 0
                    for stage in 0..<stageEnds.count {
                        var total = 0.0
                        let end = stageEnds[stage]
                        while k < end {
                            let p = 16 * k
                            @inline(__always) func block(_ a: Int, _ b: Int, _ c: Int, _ d: Int) -> Int32 {
                                sum[Int(o[p + a])] &- sum[Int(o[p + b])] &- sum[Int(o[p + c])] &+ sum[Int(o[p + d])]
                            }
                            let center = block(5, 6, 9, 10)
                            var code = 0
                            if block(0, 1, 4, 5) >= center { code |= 128 }
                            if block(1, 2, 5, 6) >= center { code |= 64 }
                            if block(2, 3, 6, 7) >= center { code |= 32 }
                            if block(6, 7, 10, 11) >= center { code |= 16 }
                            if block(10, 11, 14, 15) >= center { code |= 8 }
                            if block(9, 10, 13, 14) >= center { code |= 4 }
                            if block(8, 9, 12, 13) >= center { code |= 2 }
                            if block(4, 5, 8, 9) >= center { code |= 1 }
                            let takesLeft = subset[8 * k + (code >> 5)] & Int32(bitPattern: UInt32(1) << UInt32(code & 31)) != 0
                            total += Double(takesLeft ? l[2 * k] : l[2 * k + 1])
                            k += 1
                        }
                        if total < Double(stageThresholds[stage]) { return -stage }
                    }
                    return 1
                }
            }
        }
    }
}

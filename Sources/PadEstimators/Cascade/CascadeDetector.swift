import PadImage
import PadText
import PadVocabulary

/// One grouped detection: a box in image pixels and how many raw windows support it.
package struct Detection: Sendable, Equatable {
    package var x, y, width, height: Int
    package var neighbors: Int
    package var box: Box { Box(x: Double(x), y: Double(y), width: Double(width), height: Double(height)) }
}

/// Multi-scale sliding-window detection with a ``CascadeClassifier``, following OpenCV 4's
/// `CascadeClassifier::detectMultiScale` step for step so that results agree with it:
/// - scales f = scaleFactor^k while the window (round(W f) x round(H f)) fits in the image;
///   scales whose window is below `minSize` are skipped, above `maxSize` stop the loop;
/// - at each scale the image is resized to round(w / f) x round(h / f) (bilinear, fixed point) and
///   the window slides with step 2 (step 1 once f >= 2) over the rows OpenCV's stripes cover; a
///   window rejected by the first stage also skips the next position;
/// - Haar: each feature sum is multiplied by 1 / sqrt(A sum(x^2) - sum(x)^2) over the window
///   shrunk by one pixel (variance normalisation); windows with almost no variance are rejected;
///   stage sums of the stumps' leaves are compared with the stage threshold minus 1e-5;
/// - LBP: multi-block LBP codes over 3x3 blocks, categorical stumps by 256-bit subsets;
/// - raw windows are grouped by ``RectangleGrouping`` (eps 0.2, `minNeighbors`), then clipped to the image.
package struct CascadeDetector: Sendable {
    package let cascade: CascadeClassifier
    /// The cascade flattened per integral-image stride, shared by every copy and thread: images of
    /// one size (a dataset's usual case) flatten it once, not once per image.
    let haarScanners = HaarScannerCache()

    package init(cascade: CascadeClassifier) { self.cascade = cascade }

    /// `workers` > 1 scans the scales on that many threads (``detectWindows(in:scaleFactor:minSize:maxSize:workers:)``);
    /// the detections are the same.
    package func detect(
        in plane: GrayPlane, scaleFactor: Double = 1.1, minNeighbors: Int = 3,
        minSize: (width: Int, height: Int) = (0, 0), maxSize: (width: Int, height: Int)? = nil, workers: Int = 1
    ) -> [Detection] {
        let raw = detectWindows(
            in: plane, scaleFactor: scaleFactor, minSize: minSize, maxSize: maxSize, workers: workers)
        // Grouped on the unclipped windows, then each box intersected with the image (OpenCV's
        // order: its averages include the parts of windows outside the image).
        return RectangleGrouping.group(raw, minNeighbors: minNeighbors, eps: 0.2).map { d in
            Detection(
                x: d.x, y: d.y, width: min(d.x + d.width, plane.width) - d.x,
                height: min(d.y + d.height, plane.height) - d.y, neighbors: d.neighbors)
        }
    }

    /// Every window the cascade accepts, before grouping: (x, y, width, height), in OpenCV's
    /// order (scale by scale, row by row, left to right). A window may reach past the image by
    /// the rounding of its scaled position and size; ``detect(in:scaleFactor:minNeighbors:minSize:maxSize:workers:)``
    /// clips after grouping, as OpenCV does.
    ///
    /// With `workers` > 1 (a run with fewer images in flight than cores) the scales are split
    /// into that many groups of about equal work (``scaleGroups(_:workers:)``), each scanned on
    /// its own thread with its own buffers; the windows are then put back in scale order, so the
    /// list, and the grouping made from it, are the same as on one thread.
    package func detectWindows(
        in plane: GrayPlane, scaleFactor: Double = 1.1, minSize: (width: Int, height: Int) = (0, 0),
        maxSize: (width: Int, height: Int)? = nil, workers: Int = 1
    ) -> [(Int, Int, Int, Int)] {
        let W = cascade.windowWidth, H = cascade.windowHeight
        guard plane.width >= W, plane.height >= H, scaleFactor > 1 else { return [] }
        let scales = Self.scales(
            width: plane.width, height: plane.height, window: (W, H), scaleFactor: scaleFactor,
            minSize: minSize, maxSize: maxSize ?? (plane.width, plane.height))
        guard !scales.isEmpty else { return [] }
        // A scale's work: its window positions, a quarter of its area below scale 2 (step 2).
        let work = scales.map { scale in
            let size = Self.scaledSize(plane, scale)
            return size.width * size.height / (scale >= 2 ? 1 : 4)
        }
        let groups = Self.scaleGroups(work: work, workers: workers)
        if groups.count < 2 { return scanScales(scales, of: plane, largest: scales[0]).flatMap { $0 } }
        let perGroup = Parallel.map(groups) { group in
            scanScales(group.map { scales[$0] }, of: plane, largest: scales[0])
        }
        var perScale = [[(Int, Int, Int, Int)]](repeating: [], count: scales.count)
        for (group, found) in zip(groups, perGroup) {
            for (index, windows) in zip(group, found) { perScale[index] = windows }
        }
        return perScale.flatMap { $0 }
    }

    /// The accepted windows of each of `scales`, one list per scale. One set of integral buffers
    /// with the stride of the image's largest scale (`largest`) serves every scale, so the
    /// cascade's corner offsets are computed once; OpenCV cuts every scale's rows into as many
    /// stripes as that largest scale has 32-column blocks, and rows past the last whole stripe
    /// are never scanned (see `rowLimit`).
    func scanScales(_ scales: [Float], of plane: GrayPlane, largest: Float) -> [[(Int, Int, Int, Int)]] {
        let W = cascade.windowWidth, H = cascade.windowHeight
        let largestSize = Self.scaledSize(plane, largest)
        var integral = StridedIntegral(
            width: largestSize.width, height: largestSize.height, squares: cascade.featureType == .haar)
        var scanner = RowScanner(
            cascade: cascade, stride: integral.stride, positions: largestSize.width + 1,
            haar: cascade.featureType == .haar ? haarScanners.scanner(cascade, stride: integral.stride) : nil)
        let stripes = (max(largestSize.width + 1 - W, 0) + 31) / 32
        return scales.map { scale in
            let size = Self.scaledSize(plane, scale)
            integral.fill(
                size == (plane.width, plane.height) ? plane : plane.resized(width: size.width, height: size.height))
            let window = (Self.round(Double(Float(W) * scale)), Self.round(Double(Float(H) * scale)))
            let step = scale >= 2 ? 1 : 2
            let rows = Self.rowLimit(workingHeight: size.height + 1 - H, step: step, stripes: stripes)
            var found: [(Int, Int, Int, Int)] = []
            scanner.scan(integral, width: size.width, height: size.height, step: step, rows: rows) { x, y in
                found.append(
                    (Self.round(Double(Float(x) * scale)), Self.round(Double(Float(y) * scale)), window.0, window.1))
            }
            return found
        }
    }

    /// Scale indices split into at most `workers` groups of about equal `work` (per scale): the
    /// scales, most work first, each go to the group with the least so far (longest processing
    /// time first). One group for one worker or one scale; each group in ascending scale order.
    static func scaleGroups(work: [Int], workers: Int) -> [[Int]] {
        let count = min(max(1, workers), work.count)
        guard count > 1 else { return [Array(work.indices)] }
        var groups = [[Int]](repeating: [], count: count), load = [Int](repeating: 0, count: count)
        for index in work.indices.sorted(by: { work[$0] > work[$1] }) {
            let lightest = load.indices.min { load[$0] < load[$1] }!
            groups[lightest].append(index)
            load[lightest] += work[index]
        }
        return groups.map { $0.sorted() }
    }

    /// OpenCV's scale list: f = scaleFactor^k while the window (round(W f) x round(H f)) fits in
    /// the image and is not above `maxSize`; scales whose window is below `minSize` are skipped
    /// (nothing is resized or scanned for them).
    static func scales(
        width: Int, height: Int, window: (Int, Int), scaleFactor: Double,
        minSize: (width: Int, height: Int), maxSize: (width: Int, height: Int)
    ) -> [Float] {
        var scales: [Float] = []
        var factor = 1.0
        while true {
            let box = (round(Double(window.0) * factor), round(Double(window.1) * factor))
            if box.0 > width || box.1 > height || box.0 > maxSize.width || box.1 > maxSize.height { break }
            if !(box.0 < minSize.width || box.1 < minSize.height) { scales.append(Float(factor)) }
            factor *= scaleFactor
        }
        return scales
    }

    /// The rows of a scale OpenCV scans: its `detectMultiScaleNoGrouping` splits them into
    /// `stripes` stripes of max((workingHeight / step + stripes - 1) / stripes, 1) x step rows
    /// (integer division), so when workingHeight / step drops a remainder the last row is lost.
    static func rowLimit(workingHeight: Int, step: Int, stripes: Int) -> Int {
        guard stripes > 0, workingHeight > 0 else { return 0 }
        return min(workingHeight, stripes * max((workingHeight / step + stripes - 1) / stripes, 1) * step)
    }

    /// The image size at a scale: round(w / f) x round(h / f), f as the float OpenCV keeps.
    static func scaledSize(_ plane: GrayPlane, _ scale: Float) -> (width: Int, height: Int) {
        (round(Double(Float(plane.width) / scale)), round(Double(Float(plane.height) / scale)))
    }

    /// cvRound: nearest, ties to even.
    @inline(__always) static func round(_ v: Double) -> Int { Int(v.rounded(.toNearestOrEven)) }
}

/// Summed-area tables (Crow 1984; Viola & Jones 2001) of one scaled image, in buffers sized for
/// the largest scale and reused for the smaller ones: `sum[y * stride + x]` is the sum of the
/// pixels above and left of (x, y) (zero first row and column), `squares` the same for squared
/// values, both wrapping in 32 bits as OpenCV's `integral(..., CV_32S, CV_32S)` does. The tail
/// padding lets the eight-lane loads of the last windows of a row read past the row harmlessly.
struct StridedIntegral {
    static let padding = 64
    let stride: Int
    var sum: [Int32]
    var squares: [UInt32]

    init(width: Int, height: Int, squares withSquares: Bool) {
        stride = width + 1
        sum = [Int32](repeating: 0, count: stride * (height + 1) + Self.padding)
        squares = [UInt32](repeating: 0, count: withSquares ? sum.count : 0)
    }

    mutating func fill(_ plane: GrayPlane) {
        let width = plane.width, height = plane.height, stride = stride, withSquares = !squares.isEmpty
        precondition(width < stride && (height + 1) * stride + Self.padding <= sum.count)
        plane.pixels.withUnsafeBufferPointer { p in
            sum.withUnsafeMutableBufferPointer { s in
                squares.withUnsafeMutableBufferPointer { q in
                    for x in 0...width { s[x] = 0; if withSquares { q[x] = 0 } }
                    for y in 0..<height {
                        var rowSum: Int32 = 0, rowSquares: UInt32 = 0
                        let above = y * stride, here = (y + 1) * stride
                        s[here] = 0
                        if withSquares { q[here] = 0 }
                        for x in 0..<width {
                            let v = p[y * width + x]
                            rowSum &+= Int32(v)
                            s[here + x + 1] = s[above + x + 1] &+ rowSum
                            if withSquares {
                                rowSquares &+= UInt32(v) &* UInt32(v)
                                q[here + x + 1] = q[above + x + 1] &+ rowSquares
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Slides the window over one scale row by row: Haar rows are classified eight windows at a time
/// by ``HaarScanner`` and then walked in order; LBP windows are evaluated one at a time.
struct RowScanner {
    let windowWidth: Int
    let windowHeight: Int
    let haar: HaarScanner?
    let lbp: LBPEvaluator?
    var status: [Int64]
    var factors: [Float]

    /// `haar`: the cascade already flattened for `stride` (``HaarScannerCache``), made here when nil.
    init(cascade: CascadeClassifier, stride: Int, positions: Int, haar: HaarScanner? = nil) {
        windowWidth = cascade.windowWidth
        windowHeight = cascade.windowHeight
        self.haar = cascade.featureType == .haar ? haar ?? HaarScanner(cascade: cascade, stride: stride) : nil
        lbp = cascade.featureType == .lbp ? LBPEvaluator(cascade: cascade, stride: stride) : nil
        let rounded = (positions + 7) / 8 * 8 + 8
        status = [Int64](repeating: -1, count: haar == nil ? 0 : rounded)
        factors = [Float](repeating: 0, count: haar == nil ? 0 : rounded)
    }

    /// Reports (x, y) of every accepted window of a width x height scaled image whose top row is
    /// below `rows`. As OpenCV does,
    /// a window rejected by the first stage also skips the next position of its row.
    mutating func scan(
        _ integral: StridedIntegral, width: Int, height: Int, step: Int, rows: Int, accept: (Int, Int) -> Void
    ) {
        let workingWidth = width + 1 - windowWidth, workingHeight = min(height + 1 - windowHeight, rows)
        guard workingWidth > 0, workingHeight > 0 else { return }
        let count = (workingWidth + step - 1) / step, stride = integral.stride
        precondition(haar == nil || (count + 7) / 8 * 8 <= status.count)
        let (haar, lbp) = (self.haar, self.lbp)
        integral.sum.withUnsafeBufferPointer { sum in
            integral.squares.withUnsafeBufferPointer { squares in
                status.withUnsafeMutableBufferPointer { status in
                    factors.withUnsafeMutableBufferPointer { factors in
                        for y in Swift.stride(from: 0, to: workingHeight, by: step) {
                            let row = sum.baseAddress! + y * stride
                            if let haar {
                                if step == 1 {
                                    haar.classifyRow(
                                        EveryColumn.self, sum: row, squares: squares.baseAddress! + y * stride,
                                        count: count,
                                        status: status.baseAddress!, factors: factors.baseAddress!)
                                } else {
                                    haar.classifyRow(
                                        EverySecondColumn.self, sum: row, squares: squares.baseAddress! + y * stride,
                                        count: count,
                                        status: status.baseAddress!, factors: factors.baseAddress!)
                                }
                                Self.walk(count: count) { i in
                                    let state = status[i]
                                    if state > -2 { return state == -1 ? -1 : -Int(state) }
                                    let first = Int(-2 - state)
                                    return first == haar.stageCount
                                        ? 1 : haar.run(row + i * step, factor: factors[i], from: first)
                                } accept: { i in
                                    accept(i * step, y)
                                }
                            } else if let lbp {
                                Self.walk(count: count) { i in
                                    lbp.run(row + i * step)
                                } accept: { i in
                                    accept(i * step, y)
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// OpenCV's walk along a row: result 1 accepts position i, 0 (rejected by the first stage)
    /// skips position i + 1 as well, anything else moves on by one.
    @inline(__always)
    static func walk(count: Int, result: (Int) -> Int, accept: (Int) -> Void) {
        var i = 0
        while i < count {
            let r = result(i)
            if r > 0 { accept(i) }
            i += r == 0 ? 2 : 1
        }
    }
}

/// Multi-block LBP features (Liao et al., ICB 2007) with their integral-image offsets for one
/// stride, as OpenCV's `LBPEvaluator` and `predictCategoricalStump` evaluate them.
struct LBPEvaluator {
    /// One stump: the 16 corner offsets of its 3 x 3 block grid, the 256-bit subset of codes
    /// that take the left leaf, and the two leaves.
    struct Stump {
        var corners: SIMD16<Int32>
        var subset: SIMD8<Int32>
        var left: Float
        var right: Float
    }

    let stages: FlatStages<Stump>

    init(cascade: CascadeClassifier, stride: Int) {
        stages = FlatStages(cascade) { stump, index in
            let f = cascade.lbpFeatures[Int(stump.feature)]
            var corners = SIMD16<Int32>()
            for row in 0..<4 {
                for column in 0..<4 {
                    corners[4 * row + column] = Int32(
                        (Int(f.y) + row * Int(f.height)) * stride + Int(f.x) + column * Int(f.width))
                }
            }
            let subset = cascade.lbpSubsets[index]
            return Stump(corners: corners, subset: SIMD8(subset[0..<8]), left: stump.left, right: stump.right)
        }
    }

    /// 1 when every stage passes, -stage when rejected at that stage (0 = first).
    @inline(__always)
    func run(_ sum: UnsafePointer<Int32>) -> Int {
        stages.stumps.withUnsafeBufferPointer { stumps in
            var k = 0
            for stage in 0..<stages.thresholds.count {
                var total = 0.0
                while k < stages.starts[stage + 1] {
                    let stump = stumps[k]
                    let code = Self.code(sum, stump.corners)
                    let takesLeft = stump.subset[code >> 5] & Int32(bitPattern: UInt32(1) << UInt32(code & 31)) != 0
                    total += Double(takesLeft ? stump.left : stump.right)
                    k += 1
                }
                if total < stages.thresholds[stage] { return -stage }
            }
            return 1
        }
    }

    /// The 8-bit code: one bit per outer block whose sum is >= the centre block's, clockwise
    /// from the top-left block (bit 7) as OpenCV orders them.
    @inline(__always)
    static func code(_ sum: UnsafePointer<Int32>, _ o: SIMD16<Int32>) -> Int {
        @inline(__always) func block(_ a: Int, _ b: Int, _ c: Int, _ d: Int) -> Int32 {
            sum[Int(o[a])] &- sum[Int(o[b])] &- sum[Int(o[c])] &+ sum[Int(o[d])]
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
        return code
    }
}

import Synchronization
/// The Haar cascade flattened for one integral-image row stride, evaluated eight windows at a
/// time in SIMD lanes and then one window at a time for the few that survive the first stages.
///
/// Every lane computes exactly what OpenCV 4's `HaarEvaluator::setWindow` and
/// `predictOrderedStump` compute for its window, in the same types and order: the variance
/// factor (double, stored as float), each feature value `(w0 * s0 + w1 * s1) + w2 * s2` in float,
/// times the factor in float, compared with the stump threshold, the chosen leaves summed in
/// double and compared with the stage threshold. IEEE arithmetic is lane-wise, so the vector
/// answer equals the scalar one bit for bit; lanes only save instructions and loads.
struct HaarScanner: Sendable {
    /// One stump: three rectangles x four integral-image corner offsets (absent rectangles have
    /// weight 0), the three weights and the feature threshold, and the two leaves.
    struct Stump: Sendable {
        var rects: (SIMD4<Int32>, SIMD4<Int32>, SIMD4<Int32>)
        var weightsAndThreshold: SIMD4<Float>
        var left: Float
        var right: Float
    }

    let stages: FlatStages<Stump>
    /// Corner offsets of the window shrunk by one pixel on every side (variance normalisation).
    let norm: SIMD4<Int32>
    let normArea: Double
    /// Keep evaluating in lanes while at least this many of the eight windows are undecided;
    /// below it the few windows left go one at a time. 3 is a judgement, not a measurement: 1 to
    /// 6 timed within noise on a machine shared with other builds.
    static let lanesWorthVectorising = 3

    init(cascade: CascadeClassifier, stride: Int) {
        func corners(_ x: Int, _ y: Int, _ w: Int, _ h: Int) -> SIMD4<Int32> {
            SIMD4(
                Int32(y * stride + x), Int32(y * stride + x + w), Int32((y + h) * stride + x),
                Int32((y + h) * stride + x + w))
        }
        // Built for every image (the stride is its integral image's): no array per stump, which
        // made the flattening a quarter of a run on small images (allocation, reference counts).
        stages = FlatStages(cascade) { stump, _ in
            var offsets: (SIMD4<Int32>, SIMD4<Int32>, SIMD4<Int32>) = (.zero, .zero, .zero)
            var weights = SIMD4<Float>(0, 0, 0, stump.threshold)
            for (r, rect) in cascade.haarFeatures[Int(stump.feature)].enumerated() {
                let corner = corners(Int(rect.x), Int(rect.y), Int(rect.width), Int(rect.height))
                switch r {
                case 0: offsets.0 = corner
                case 1: offsets.1 = corner
                default: offsets.2 = corner
                }
                weights[r] = rect.weight
            }
            return Stump(rects: offsets, weightsAndThreshold: weights, left: stump.left, right: stump.right)
        }
        norm = corners(1, 1, cascade.windowWidth - 2, cascade.windowHeight - 2)
        normArea = Double((cascade.windowWidth - 2) * (cascade.windowHeight - 2))
    }

    var stageCount: Int { stages.thresholds.count }

    /// Status of a window after the lanes: -1 flat (variance test failed), s >= 0 rejected at
    /// stage s, or `resume(s)` (<= -2): stages before s passed, continue one at a time from s.
    @inline(__always) static func resume(_ stage: Int) -> Int64 { Int64(-2 - stage) }

    /// Classifies the windows at positions 0, step, 2 step, ... (`count` of them, rounded up to
    /// a multiple of 8) of the row starting at `sum`/`squares`, into `status` and `factors`.
    func classifyRow<Step: LaneStep>(
        _: Step.Type, sum: UnsafePointer<Int32>, squares: UnsafePointer<UInt32>, count: Int,
        status: UnsafeMutablePointer<Int64>, factors: UnsafeMutablePointer<Float>
    ) {
        stages.stumps.withUnsafeBufferPointer { stumps in
            stages.starts.withUnsafeBufferPointer { starts in
                stages.thresholds.withUnsafeBufferPointer { thresholds in
                    var chunk = 0
                    while chunk < count {
                        let offset = chunk * Step.width
                        let (factor, usable) = varianceFactors(Step.self, sum + offset, squares + offset)
                        let state = vectorStages(
                            Step.self, sum + offset, factor: factor, undecided: usable,
                            stumps: stumps.baseAddress!, starts: starts, thresholds: thresholds)
                        UnsafeMutableRawPointer(status + chunk).storeBytes(of: state, as: SIMD8<Int64>.self)
                        UnsafeMutableRawPointer(factors + chunk).storeBytes(of: factor, as: SIMD8<Float>.self)
                        chunk += 8
                    }
                }
            }
        }
    }

    /// OpenCV's variance normalisation for eight windows: nf = A sum(x^2) - sum(x)^2 in double,
    /// factor = (float)(1 / sqrt(nf)); usable when nf > 0 and A * factor < 0.1 (else flat).
    @inline(__always)
    func varianceFactors<Step: LaneStep>(_: Step.Type, _ sum: UnsafePointer<Int32>, _ squares: UnsafePointer<UInt32>)
        -> (SIMD8<Float>, SIMDMask<SIMD8<Int64>>)
    {
        let values = Step.rectangle(sum, norm)
        let squareSums = SIMD8<UInt32>(
            truncatingIfNeeded: Step.rectangle(UnsafeRawPointer(squares).assumingMemoryBound(to: Int32.self), norm))
        let v = Lanes.doubles(values)
        let nf = normArea * Lanes.doubles(squareSums) - v * v
        let factor = Lanes.floats(1 / Lanes.squareRoots(nf))
        let usable = (nf .> 0) .& (normArea * Lanes.doubles(factor) .< 0.1)
        return (factor, usable)
    }

    /// Runs stages in lanes while enough windows are undecided; returns each lane's status.
    @inline(__always)
    func vectorStages<Step: LaneStep>(
        _: Step.Type, _ sum: UnsafePointer<Int32>, factor: SIMD8<Float>, undecided start: SIMDMask<SIMD8<Int64>>,
        stumps: UnsafePointer<Stump>, starts: UnsafeBufferPointer<Int>,
        thresholds: UnsafeBufferPointer<Double>
    ) -> SIMD8<Int64> {
        var state = SIMD8<Int64>(repeating: -1)
        var undecided = start
        var stage = 0
        while stage < thresholds.count {
            let lanes = SIMD8<Int64>(repeating: 0).replacing(with: 1, where: undecided).wrappedSum()
            if lanes < Self.lanesWorthVectorising { break }
            var total = SIMD8<Double>.zero
            for k in starts[stage]..<starts[stage + 1] {
                let stump = stumps[k]
                let wt = stump.weightsAndThreshold
                var value = wt[0] * Lanes.floats(Step.rectangle(sum, stump.rects.0))
                value += wt[1] * Lanes.floats(Step.rectangle(sum, stump.rects.1))
                if wt[2] != 0 { value += wt[2] * Lanes.floats(Step.rectangle(sum, stump.rects.2)) }
                let leaf = SIMD8<Float>(repeating: stump.right).replacing(
                    with: stump.left, where: value * factor .< wt[3])
                total += Lanes.doubles(leaf)
            }
            let rejected = undecided .& (total .< thresholds[stage])
            state.replace(with: Int64(stage), where: rejected)
            undecided = undecided .& .!rejected
            stage += 1
        }
        state.replace(with: Self.resume(stage), where: undecided)
        return state
    }

    /// One window from stage `first` on: 1 accepted, -s rejected at stage s (0 = first stage).
    @inline(__always)
    func run(_ sum: UnsafePointer<Int32>, factor: Float, from first: Int) -> Int {
        stages.stumps.withUnsafeBufferPointer { stumps in
            stages.starts.withUnsafeBufferPointer { starts in
                stages.thresholds.withUnsafeBufferPointer { thresholds in
                    @inline(__always) func rectangle(_ o: SIMD4<Int32>) -> Float {
                        Float(sum[Int(o[0])] &- sum[Int(o[1])] &- sum[Int(o[2])] &+ sum[Int(o[3])])
                    }
                    for stage in first..<thresholds.count {
                        var total = 0.0
                        for k in starts[stage]..<starts[stage + 1] {
                            let stump = stumps[k]
                            let wt = stump.weightsAndThreshold
                            var value = wt[0] * rectangle(stump.rects.0)
                            value += wt[1] * rectangle(stump.rects.1)
                            if wt[2] != 0 { value += wt[2] * rectangle(stump.rects.2) }
                            total += Double(value * factor < wt[3] ? stump.left : stump.right)
                        }
                        if total < thresholds[stage] { return -stage }
                    }
                    return 1
                }
            }
        }
    }
}

/// How eight neighbouring windows of a row are read from an integral image: every column (step
/// 1) or every second column (step 2, OpenCV's step below scale 2).
protocol LaneStep {
    static var width: Int { get }
    /// The eight integral values at p, p + width, ..., p + 7 width.
    static func load(_ p: UnsafePointer<Int32>) -> SIMD8<Int32>
}

extension LaneStep {
    /// Eight rectangle sums from the four corner offsets, wrapping in 32 bits as OpenCV's do.
    @inline(__always) static func rectangle(_ p: UnsafePointer<Int32>, _ o: SIMD4<Int32>) -> SIMD8<Int32> {
        load(p + Int(o[0])) &- load(p + Int(o[1])) &- load(p + Int(o[2])) &+ load(p + Int(o[3]))
    }
}

enum EveryColumn: LaneStep {
    static var width: Int { 1 }
    @inline(__always) static func load(_ p: UnsafePointer<Int32>) -> SIMD8<Int32> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD8<Int32>.self)
    }
}

enum EverySecondColumn: LaneStep {
    static var width: Int { 2 }
    @inline(__always) static func load(_ p: UnsafePointer<Int32>) -> SIMD8<Int32> {
        UnsafeRawPointer(p).loadUnaligned(as: SIMD16<Int32>.self).evenHalf
    }
}

/// A cascade's stumps in one flat array in evaluation order, with the stage boundaries and the
/// stage thresholds as the double that OpenCV compares its double stage sums with.
struct FlatStages<Stump: Sendable>: Sendable {
    let stumps: [Stump]
    /// Stage s covers stumps starts[s] ..< starts[s + 1].
    let starts: [Int]
    let thresholds: [Double]

    /// `make` turns a stump (and its index in evaluation order) into the evaluator's form.
    init(_ cascade: CascadeClassifier, make: (CascadeClassifier.Stump, Int) -> Stump) {
        var stumps: [Stump] = []
        stumps.reserveCapacity(cascade.stages.reduce(0) { $0 + $1.stumps.count })
        var starts = [0]
        for stage in cascade.stages {
            for stump in stage.stumps { stumps.append(make(stump, stumps.count)) }
            starts.append(stumps.count)
        }
        self.stumps = stumps
        self.starts = starts
        thresholds = cascade.stages.map { Double($0.threshold) }
    }
}

/// Lane-wise conversions and square roots written out lane by lane, so that they are inlined
/// (and vectorised by LLVM) in the stage loop. The standard library's generic
/// `SIMD8<Float>(SIMD8<Int32>)` and `squareRoot()` compiled to calls here (the conversion to one
/// `cvtdq2ps` pair behind a call, the square root to eight calls of libm's `sqrt`), and a call in
/// the stump loop spills every live vector register. Each lane is the same IEEE operation, so
/// the values are the same.
enum Lanes {
    @inline(__always) static func floats(_ v: SIMD8<Int32>) -> SIMD8<Float> { map(v) { Float($0) } }
    @inline(__always) static func floats(_ v: SIMD8<Double>) -> SIMD8<Float> { map(v) { Float($0) } }
    @inline(__always) static func doubles(_ v: SIMD8<Int32>) -> SIMD8<Double> { map(v) { Double($0) } }
    @inline(__always) static func doubles(_ v: SIMD8<UInt32>) -> SIMD8<Double> { map(v) { Double($0) } }
    @inline(__always) static func doubles(_ v: SIMD8<Float>) -> SIMD8<Double> { map(v) { Double($0) } }
    @inline(__always) static func squareRoots(_ v: SIMD8<Double>) -> SIMD8<Double> { map(v) { $0.squareRoot() } }

    /// `f` of each lane, spelled out lane by lane.
    @inline(__always) static func map<T: SIMDScalar, R: SIMDScalar>(_ v: SIMD8<T>, _ f: (T) -> R) -> SIMD8<R> {
        SIMD8(f(v[0]), f(v[1]), f(v[2]), f(v[3]), f(v[4]), f(v[5]), f(v[6]), f(v[7]))
    }
}

/// Flattened Haar cascades by integral-image stride, at most ``capacity`` of them (about 190 KB
/// each for OpenCV's frontal-face cascade): flattening walks every stump and took a quarter of a
/// run on small images when it was done per image.
final class HaarScannerCache: Sendable {
    static let capacity = 16
    private let scanners = Mutex<[Int: HaarScanner]>([:])

    /// Strides flattened and kept.
    var count: Int { scanners.withLock { $0.count } }

    func scanner(_ cascade: CascadeClassifier, stride: Int) -> HaarScanner {
        if let known = scanners.withLock({ $0[stride] }) { return known }
        let made = HaarScanner(cascade: cascade, stride: stride)
        scanners.withLock {
            if $0.count >= Self.capacity { $0.removeAll() }
            $0[stride] = made
        }
        return made
    }
}

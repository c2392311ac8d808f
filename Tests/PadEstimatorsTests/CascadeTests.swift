import Foundation
import Testing
@testable import PadEstimators
@testable import PadImage
import TestSupport
import PadVocabulary

/// Detections compared with OpenCV 4.14's `CascadeClassifier.detectMultiScale2` on the same
/// photos (Fixtures/cascade/make_expected.py wrote the photos and expected.json).
@Suite struct CascadeTests {
    static let folder = Bundle.module.url(forResource: "Fixtures/cascade", withExtension: nil)!.path
    static var expected: [String: Any] {
        let data = try! Data(contentsOf: URL(fileURLWithPath: folder + "/expected.json"))
        return try! JSONSerialization.jsonObject(with: data) as! [String: Any]
    }

    static func boxes(_ list: [[Int]]) -> [[Int]] { list.sorted { $0.lexicographicallyPrecedes($1) } }

    @Test(.thorough, arguments: ["haar_face", "lbp_face", "haar_eye"])
    func agreesWithOpenCV(_ key: String) throws {
        let settings = (Self.expected["cascades"] as! [String: [String: Any]])[key]!
        let cascade = try CascadeClassifier(contentsOfFile: "/usr/share/opencv4/" + (settings["file"] as! String))
        let detector = CascadeDetector(cascade: cascade)
        let images = Self.expected["images"] as! [String: [String: [[Int]]]]
        var agreeing = 0, identical = 0
        for (file, byCascade) in images.sorted(by: { $0.key < $1.key }) {
            let plane = GrayPlane(try ImageDecoder().decode(fileAt: Self.folder + "/" + file))
            let found = detector.detect(
                in: plane, scaleFactor: settings["scaleFactor"] as! Double,
                minNeighbors: settings["minNeighbors"] as! Int)
            let mine = Self.boxes(found.map { [$0.x, $0.y, $0.width, $0.height, $0.neighbors] })
            let theirs = Self.boxes(byCascade[key]!)
            if mine == theirs { identical += 1 }
            // The issue's criterion: same count, and IoU >= 0.9 for every matched box.
            let matched = theirs.allSatisfy { t in
                let tb = Box(x: Double(t[0]), y: Double(t[1]), width: Double(t[2]), height: Double(t[3]))
                return mine.contains { m in
                    Box(x: Double(m[0]), y: Double(m[1]), width: Double(m[2]), height: Double(m[3])).iou(tb) >= 0.9
                }
            }
            if mine.count == theirs.count && matched { agreeing += 1 }
        }
        #expect(Double(agreeing) >= 0.9 * Double(images.count), "\(key): \(agreeing) of \(images.count) agree")
        // Today the agreement is exact (boxes and neighbour counts) on every photo; keep it so.
        #expect(identical == images.count, "\(key): \(identical) of \(images.count) identical")
    }

    @Test func missingAndMalformedCascadesAreClearErrors() throws {
        #expect(throws: CascadeError.self) { try CascadeClassifier(contentsOfFile: "/nonexistent/cascade.xml") }
        let bad = TestFolder.root + "/bad-cascade-\(UUID().uuidString).xml"
        defer { try? FileManager.default.removeItem(atPath: bad) }
        try "<opencv_storage><cascade><featureType>HAAR</featureType>".write(
            toFile: bad, atomically: true, encoding: .utf8)
        #expect { try CascadeClassifier(contentsOfFile: bad) } throws: { "\($0)".contains(bad) }
    }

    /// The cascade is flattened once per integral-image stride and shared (``HaarScannerCache``):
    /// one detector over images of two sizes, in turn and twice, finds what a fresh detector
    /// finds on each, and keeps one flattening per size.
    @Test func oneFlatteningPerImageSizeFindsWhatAFreshDetectorFinds() throws {
        let cascade = try CascadeClassifier(
            contentsOfFile: "/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml")
        let shared = CascadeDetector(cascade: cascade)
        let files = ["photo_astronaut_bright.jpg", "photo_astronaut_crop.jpg", "photo_astronaut_dark.jpg"]
        let planes = try files.map { GrayPlane(try ImageDecoder().decode(fileAt: Self.folder + "/" + $0)) }
        let widths = Set(planes.map(\.width))
        #expect(widths.count == 2, "two widths, two strides")
        for plane in planes + planes {
            let fresh = CascadeDetector(cascade: cascade).detect(in: plane, minNeighbors: 0)
            #expect(shared.detect(in: plane, minNeighbors: 0) == fresh)
            #expect(!fresh.isEmpty)
        }
        #expect(shared.haarScanners.count == widths.count)
    }

    @Test func tinyFlatAndGrayImagesGiveNoDetectionsWithoutCrashing() throws {
        let cascade = try CascadeClassifier(
            contentsOfFile: "/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml")
        let detector = CascadeDetector(cascade: cascade)
        for (w, h, v) in [(1, 1, 0), (23, 23, 128), (24, 24, 128), (200, 150, 0), (200, 150, 255)] {
            let plane = GrayPlane(width: w, height: h, pixels: [UInt8](repeating: UInt8(v), count: w * h))
            #expect(detector.detect(in: plane).isEmpty)
        }
    }

    /// Raw windows (minNeighbors 0) and grouped boxes from OpenCV 4.14 on photos and crops that
    /// exercise what the lane scanner and the scale list must get exactly right: skipped scales
    /// (minimum size), a maximum size, other scale factors, both window steps (2 below scale 2,
    /// then 1), images barely larger than the window, a minimum size above the image, the eye
    /// cascade on a face's upper part (clipped after grouping), and LBP (Fixtures/cascade/make_edge_cases.py).
    @Test func edgeCasesAgreeWithOpenCV() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.folder + "/edge_cases.json"))
        let cases = try #require(
            (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["cases"] as? [[String: Any]])
        #expect(cases.count == 21)
        var detectors: [String: CascadeDetector] = [:]
        for c in cases {
            let file = c["cascade"] as! String
            if detectors[file] == nil {
                detectors[file] = CascadeDetector(
                    cascade: try CascadeClassifier(contentsOfFile: "/usr/share/opencv4/" + file))
            }
            let photo = c["photo"] as! String
            let path =
                photo.hasPrefix("sample:")
                ? FaceChoiceTests.sample + "/" + photo.dropFirst(7) : Self.folder + "/" + photo
            var plane = GrayPlane(try ImageDecoder().decode(fileAt: path))
            if let crop = c["crop"] as? [Int] {
                plane = plane.cropped(x: crop[0], y: crop[1], width: crop[2], height: crop[3])
            }
            let minSize = c["minSize"] as! Int, maxSize = c["maxSize"] as! Int
            let found = detectors[file]!.detect(
                in: plane, scaleFactor: c["scaleFactor"] as! Double, minNeighbors: c["minNeighbors"] as! Int,
                minSize: (minSize, minSize), maxSize: maxSize == 0 ? nil : (maxSize, maxSize))
            let mine = Self.boxes(found.map { [$0.x, $0.y, $0.width, $0.height, $0.neighbors] })
            #expect(mine == Self.boxes(c["expected"] as! [[Int]]), "\(c["name"]!)")
        }
    }

    /// The lane scanner (variance test and first stages in lanes while enough windows are
    /// undecided, the rest one at a time from the stage they reached) accepts exactly the raw
    /// windows of a plain scalar walk that runs every visited window through all stages, for both
    /// window steps and both Haar cascades.
    @Test(arguments: ["haarcascade_frontalface_default.xml", "haarcascade_eye.xml"])
    func laneScannerEqualsAScalarWalk(_ file: String) throws {
        let cascade = try CascadeClassifier(contentsOfFile: "/usr/share/opencv4/haarcascades/" + file)
        let detector = CascadeDetector(cascade: cascade)
        var total = 0
        for photo in ["photo_astronaut_s50.jpg", "photo_other_chelsea.jpg"] {
            let plane = GrayPlane(try ImageDecoder().decode(fileAt: Self.folder + "/" + photo))
            let lanes = detector.detectWindows(in: plane, scaleFactor: 1.1).map { [$0.0, $0.1, $0.2, $0.3] }
            let scalar = Self.scalarWindows(cascade, plane, scaleFactor: 1.1)
            #expect(lanes == scalar, "\(file) \(photo): \(lanes.count) vs \(scalar.count) windows")
            total += scalar.count
        }
        #expect(total > 20, "the photos must give raw windows for the comparison to mean something")
    }

    /// The inlined lane conversions give the standard library's generic conversions bit for bit,
    /// on values where rounding to float matters (above 2^24), at the integer limits, and for the
    /// square root on zero, subnormal, negative and huge variances.
    @Test func laneConversionsEqualTheStandardLibrary() {
        let ints: [Int32] = [0, 1, -1, 16_777_217, -16_777_219, 123_456_789, .max, .min]
        let unsigned: [UInt32] = [0, 1, 16_777_217, 2_147_483_649, 4_000_000_001, .max, 77, 255 * 255 * 24]
        let doubles: [Double] = [0, 4.9e-324, -1, 2.5, 1e300, .infinity, 3.0000001, 0.1]
        let i = SIMD8<Int32>(ints), u = SIMD8<UInt32>(unsigned), d = SIMD8<Double>(doubles)
        let f = SIMD8<Float>(i)
        #expect(Lanes.floats(i) == SIMD8<Float>(i))
        #expect(Lanes.floats(d) == SIMD8<Float>(d))
        #expect(Lanes.doubles(i) == SIMD8<Double>(i))
        #expect(Lanes.doubles(u) == SIMD8<Double>(u))
        #expect(Lanes.doubles(f) == SIMD8<Double>(f))
        let roots = Lanes.squareRoots(d), expected = d.squareRoot()
        for lane in 0..<8 { #expect(roots[lane].bitPattern == expected[lane].bitPattern, "lane \(lane)") }
        #expect(Lanes.squareRoots(SIMD8(repeating: -4))[0].isNaN)
    }

    /// Scales scanned on several threads give the one-thread windows in the same order (so the
    /// same grouping), for both Haar cascades and the LBP one, with and without a minimum size,
    /// for more workers than scales too; and the detections of `detect` are the same.
    @Test(arguments: [
        "haarcascades/haarcascade_frontalface_default.xml", "haarcascades/haarcascade_eye.xml",
        "lbpcascades/lbpcascade_frontalface_improved.xml",
    ])
    func parallelScalesGiveTheSameWindows(_ file: String) throws {
        let detector = CascadeDetector(cascade: try CascadeClassifier(contentsOfFile: "/usr/share/opencv4/" + file))
        let plane = GrayPlane(try ImageDecoder().decode(fileAt: Self.folder + "/photo_astronaut_s100.jpg"))
        for minSize in [(0, 0), (40, 40)] {
            let one = detector.detectWindows(in: plane, scaleFactor: 1.1, minSize: minSize).map {
                [$0.0, $0.1, $0.2, $0.3]
            }
            #expect(one.count > 5, "\(file): the photo must give windows")
            for workers in [2, 64] {
                let many = detector.detectWindows(in: plane, scaleFactor: 1.1, minSize: minSize, workers: workers)
                #expect(many.map { [$0.0, $0.1, $0.2, $0.3] } == one, "\(file) min \(minSize) workers \(workers)")
            }
            #expect(
                detector.detect(in: plane, minSize: minSize, workers: 2) == detector.detect(in: plane, minSize: minSize)
            )
        }
    }

    /// Longest-processing-time grouping by hand: work [10, 1, 1, 8] on 2 workers puts 10 alone
    /// and 8 + 1 + 1 together; more workers than scales give one scale each; one worker, one group.
    @Test func scaleGroupsBalanceWork() {
        #expect(CascadeDetector.scaleGroups(work: [10, 1, 1, 8], workers: 2) == [[0], [1, 2, 3]])
        #expect(CascadeDetector.scaleGroups(work: [5, 5], workers: 4) == [[0], [1]])
        #expect(CascadeDetector.scaleGroups(work: [5, 4, 3], workers: 1) == [[0, 1, 2]])
        #expect(CascadeDetector.scaleGroups(work: [9, 7, 6, 5, 4, 3], workers: 3) == [[0, 5], [1, 4], [2, 3]])
    }

    /// detectWindows written one window at a time: OpenCV's variance factor in double, every
    /// stage from the first with ``HaarScanner/run(_:factor:from:)``, OpenCV's row walk.
    static func scalarWindows(_ cascade: CascadeClassifier, _ plane: GrayPlane, scaleFactor: Double) -> [[Int]] {
        let (W, H) = (cascade.windowWidth, cascade.windowHeight)
        let scales = CascadeDetector.scales(
            width: plane.width, height: plane.height, window: (W, H), scaleFactor: scaleFactor, minSize: (0, 0),
            maxSize: (plane.width, plane.height))
        let largest = CascadeDetector.scaledSize(plane, scales[0])
        let stripes = (largest.width + 1 - W + 31) / 32
        var found: [[Int]] = []
        for scale in scales {
            let size = CascadeDetector.scaledSize(plane, scale)
            var integral = StridedIntegral(width: size.width, height: size.height, squares: true)
            integral.fill(plane.resized(width: size.width, height: size.height))
            let haar = HaarScanner(cascade: cascade, stride: integral.stride), n = haar.norm
            let step = scale >= 2 ? 1 : 2
            let rows = CascadeDetector.rowLimit(workingHeight: size.height + 1 - H, step: step, stripes: stripes)
            let window = (
                CascadeDetector.round(Double(Float(W) * scale)), CascadeDetector.round(Double(Float(H) * scale))
            )
            integral.sum.withUnsafeBufferPointer { sum in
                for y in stride(from: 0, to: min(size.height + 1 - H, rows), by: step) {
                    var x = 0
                    while x < size.width + 1 - W {
                        let p = y * integral.stride + x
                        func corners<T: FixedWidthInteger>(_ a: [T]) -> T {
                            a[p + Int(n[0])] &- a[p + Int(n[1])] &- a[p + Int(n[2])] &+ a[p + Int(n[3])]
                        }
                        let s = Double(corners(integral.sum)), q = Double(corners(integral.squares))
                        let nf = haar.normArea * q - s * s
                        let factor = Float(1 / nf.squareRoot())
                        let usable = nf > 0 && haar.normArea * Double(factor) < 0.1
                        let result = usable ? haar.run(sum.baseAddress! + p, factor: factor, from: 0) : -1
                        if result > 0 {
                            found.append([
                                CascadeDetector.round(Double(Float(x) * scale)),
                                CascadeDetector.round(Double(Float(y) * scale)), window.0, window.1,
                            ])
                        }
                        x += result == 0 ? 2 * step : step
                    }
                }
            }
        }
        return found
    }

    /// The resize that builds each scale (row-cached, unchecked pointers) equals the plain
    /// bilinear fixed-point definition it replaced, pixel for pixel, for every scale the face
    /// detector uses on a 640 x 480 image and for odd sizes (upscales included).
    @Test func scaledImagesEqualThePlainBilinearDefinition() throws {
        let photo = GrayPlane(try ImageDecoder().decode(fileAt: Self.folder + "/photo_astronaut_pad.jpg"))
        let plane = photo.cropped(x: 0, y: 0, width: 640, height: 480)
        var sizes = CascadeDetector.scales(
            width: 640, height: 480, window: (24, 24), scaleFactor: 1.1, minSize: (0, 0), maxSize: (640, 480)
        )
        .map { CascadeDetector.scaledSize(plane, $0) }
        sizes += [(1, 1), (639, 1), (1, 479), (641, 481), (1000, 37), (25, 25)]
        #expect(sizes.count == 38)
        for size in sizes {
            #expect(
                plane.resized(width: size.width, height: size.height)
                    == Self.plainBilinear(plane, size.width, size.height), "\(size)")
        }
    }

    /// INTER_LINEAR_EXACT as GrayPlane.resized documents it, written the slow obvious way.
    static func plainBilinear(_ p: GrayPlane, _ dw: Int, _ dh: Int) -> GrayPlane {
        func taps(_ d: Int, _ dst: Int, _ src: Int) -> (Int, Int32) {
            var f = (Double(d) + 0.5) * Double(src) / Double(dst) - 0.5
            var s = Int(f.rounded(.down))
            f -= Double(s)
            if s < 0 { s = 0; f = 0 }
            if s >= src - 1 { s = src - 1; f = 0 }
            return (s, Int32((f * 256).rounded()))
        }
        var out = [UInt8](repeating: 0, count: dw * dh)
        for y in 0..<dh {
            let (sy, b) = taps(y, dh, p.height)
            for x in 0..<dw {
                let (sx, a) = taps(x, dw, p.width)
                func h(_ row: Int) -> Int32 {
                    Int32(p.pixels[row * p.width + sx]) * (256 - a) + Int32(
                        p.pixels[row * p.width + min(sx + 1, p.width - 1)]) * a
                }
                let v = h(sy) * (256 - b) + h(min(sy + 1, p.height - 1)) * b
                out[y * dw + x] = UInt8(min(255, (v + 32768) >> 16))
            }
        }
        return GrayPlane(width: dw, height: dh, pixels: out)
    }
}

import Foundation
import PadVocabulary
import Testing
@testable import PadSamples
@testable import PadEstimators
@testable import PadImage

/// Quality outputs against an independent NumPy/OpenCV implementation (Fixtures/quality/).
@Suite struct QualityTests {
    @Test(arguments: ["photo_astronaut_s100.jpg", "photo_camera.jpg", "photo_other_coffee.jpg"])
    func wholeImageMatchesNumPyReference(_ file: String) throws {
        let folder = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.path
        let json = try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: folder + "/quality/expected.json")))
        let expected = (json as! [String: [String: String]])[file]!.mapValues { Double($0)! }
        let image = try ImageDecoder().decode(fileAt: folder + "/cascade/" + file)
        var input = EstimatorInput(sample: Sample(id: file, path: file, label: .bonaFide), image: image)
        let estimator = QualityEstimator()
        let values = Dictionary(uniqueKeysWithValues: zip(estimator.outputNames, try estimator.measure(&input)))
        #expect(values["quality.region"] == 0)
        for (name, reference) in expected {
            // CIELAB: OpenCV converts in float32; everything else is exact up to summation order.
            let tolerance = name == "quality.natural_colour" ? 0.05 : 1e-9 * max(1, abs(reference))
            #expect(abs(values[name]! - reference) <= tolerance, "\(file) \(name): \(values[name]!) vs \(reference)")
        }
    }

    /// 4x4 gray image, values by hand.
    @Test func handComputedSmallRegion() {
        // Two rows of 0 and two rows of 255 (gray: L = linearised value, 0 and 255).
        let l: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 255, 255, 255, 255, 255, 255]
        let region = Region(x0: 0, y0: 0, x1: 4, y1: 4)
        let stats = QualityMeasures.histogramStatistics(l, width: 4, region: region)
        #expect(stats.mean == 127.5)
        #expect(stats.variance == 127.5 * 127.5)
        #expect(stats.underexposure == 0.5 && stats.overexposure == 0.5)
        #expect(stats.entropy == 1)
        // Left and right halves have the same histogram.
        #expect(QualityMeasures.illuminationUniformity(l, width: 4, region: region) == 1)
        // Laplacian with reflect-101 borders: rows 1 and 2 see the step (+-255), rows 0 and 3 see 0
        // ... row 0 reflects row 1 (0) -> 0; row 1: 0 + 255 + 0 + 0 - 0 = 255; row 2: -255; row 3: 0.
        // Mean 0, variance (8 x 255^2) / 16.
        #expect(QualityMeasures.laplacianVariance(l, width: 4, region: region) == 255.0 * 255.0 / 2)
        #expect(QualityMeasures.laplacianVariance(l, width: 4, region: Region(x0: 0, y0: 0, x1: 2, y1: 4)).isNaN)
    }

    /// Mean L outside the face box, by hand on a 4x4 plane.
    @Test func backgroundLuminanceByHand() {
        // Rows: 0..3 are 10, 20, 30, 40 (all four pixels each); face = the centre 2x2 (rows 1-2,
        // columns 1-2: 20, 20, 30, 30). Outside: 4 x 10 + 2 x 20 + 2 x 30 + 4 x 40 = 300 over 12.
        let l: [UInt8] = [10, 10, 10, 10, 20, 20, 20, 20, 30, 30, 30, 30, 40, 40, 40, 40]
        #expect(QualityMeasures.backgroundLuminance(l, width: 4, face: Region(x0: 1, y0: 1, x1: 3, y1: 3)) == 25)
        #expect(QualityMeasures.backgroundLuminance(l, width: 4, face: Region(x0: 0, y0: 0, x1: 4, y1: 4)).isNaN)
        // Through the estimator: a face box makes it the mean outside; no face gives NaN.
        var image = Image(width: 4, height: 4, format: .gray)
        image.pixels = l
        var input = EstimatorInput(
            sample: Sample(id: "q", path: "q", label: .bonaFide), image: image,
            face: Box(x: 1, y: 1, width: 2, height: 2))
        let estimator = QualityEstimator()
        let values = Dictionary(uniqueKeysWithValues: zip(estimator.outputNames, try! estimator.measure(&input)))
        #expect(
            values["quality.background_luminance"] == Double(
                ColorSpaces.luminanceImage(image).enumerated()
                    .filter { !(1...2).contains($0.offset / 4) || !(1...2).contains($0.offset % 4) }.map {
                        Int($0.element)
                    }.reduce(0, +)) / 12)
        input.face = nil
        #expect(try! estimator.measure(&input).last!.isNaN)
    }

    /// The example in ``QualityEstimator``'s doc comment: assessments by output name, a value or
    /// the reason the measure could not assess; `measure` writes the same, NaN for a reason.
    @Test func assessmentsByNameExample() throws {
        // Two rows of 0 over two rows of 255 (gray: L = 0 and 255), no face box.
        let pixels: [UInt8] = [0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 255, 255, 255, 255, 255, 255]
        let input = EstimatorInput(
            sample: Sample(id: "q", path: "q", label: .bonaFide),
            image: Image(width: 4, height: 4, format: .gray, pixels: pixels))
        let assessments = QualityEstimator().assess(input)
        #expect(assessments["region"] == .value(0))
        #expect(assessments["luminance_mean"] == .value(127.5))
        #expect(assessments["sharpness"] == .value(255.0 * 255.0 / 2))
        #expect(assessments["background_luminance"] == .notAssessable(reason: "no face region"))
        #expect(assessments["background_uniformity"] == .notAssessable(reason: "no face region"))
        var measured = input
        let values = try QualityEstimator().measure(&measured)
        for (output, value) in zip(QualityEstimator.declaredOutputs, values) {
            let raw = assessments[output.name]!.rawValue
            #expect(raw == value || (raw.isNaN && value.isNaN), "\(output.name)")
        }
        // 2x2 and flat: the Laplacian needs 3x3, Crete's blur needs a difference.
        let tiny = EstimatorInput(
            sample: Sample(id: "t", path: "t", label: .bonaFide),
            image: Image(width: 2, height: 2, format: .gray, pixels: [9, 9, 9, 9]))
        let small = QualityEstimator().assess(tiny)
        #expect(small["sharpness"] == .notAssessable(reason: "region smaller than 3x3"))
        #expect(small["blur"] == .notAssessable(reason: "region flat or smaller than 2x2"))
        #expect(small["contrast"] == .value(0))
    }

    /// Every measure returns exactly one assessment per output it declares (no more, none
    /// missing), on a face region and on the whole image of a real photo.
    @Test func everyMeasureAssessesExactlyItsDeclaredOutputs() throws {
        let folder = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.path
        let image = try ImageDecoder().decode(fileAt: folder + "/cascade/photo_camera.jpg")
        let luminance = ColorSpaces.luminanceImage(image)
        let face = Region(x0: image.width / 4, y0: image.height / 4, x1: image.width / 2, y1: image.height / 2)
        let whole = Region(x0: 0, y0: 0, x1: image.width, y1: image.height)
        for (region, onFace) in [(face, true), (whole, false)] {
            let context = QualityContext(image: image, luminance: luminance, region: region, onFace: onFace)
            for measure in QualityEstimator.measures {
                let names = measure.outputs.map(\.name)
                #expect(measure.assess(context).keys.sorted() == names.sorted(), "\(type(of: measure))")
            }
        }
    }

    /// The estimator's columns are the measures' assessments taken by output name: on a face
    /// region of a real photo every column equals its own measure's assessment of that name,
    /// and `region` comes first.
    @Test func columnsAreTheMeasuresAssessmentsByName() throws {
        let folder = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.path
        let image = try ImageDecoder().decode(fileAt: folder + "/cascade/photo_astronaut_s100.jpg")
        let box = Box(x: 20, y: 10, width: 50, height: 60)
        var input = EstimatorInput(
            sample: Sample(id: "q", path: "q", label: .bonaFide), image: image, face: box)
        let values = try QualityEstimator().measure(&input)
        let context = QualityContext(
            image: image, luminance: ColorSpaces.luminanceImage(image), region: Region(x0: 20, y0: 10, x1: 70, y1: 70),
            onFace: true)
        var expected: [Double] = [1] // region: the face box
        for measure in QualityEstimator.measures {
            let byName = measure.assess(context)
            expected += measure.outputs.map { byName[$0.name]!.rawValue }
        }
        #expect(values.count == QualityEstimator.declaredOutputs.count)
        for (output, (value, reference)) in zip(QualityEstimator.declaredOutputs, zip(values, expected)) {
            #expect(value == reference || (value.isNaN && reference.isNaN), "\(output.name)")
        }
        // Mean and variance of L differ here, so a swap inside LuminanceMeasure would show.
        #expect(expected[1] != expected[2])
    }

    /// A measure that fills several outputs, returned in any order, lands in its declared
    /// columns; an output it forgets is not assessable and says so; a measure that needs a face
    /// is not run without one.
    @Test func assemblyPlacesEachAssessmentByOutputName() {
        struct TwoOutputs: QualityMeasure {
            let outputs = ["first", "second"].map {
                OutputDescriptor(name: $0, unit: "", range: .unbounded, direction: .none, summary: $0)
            }
            func assess(_ context: QualityContext) -> [String: QualityAssessment] {
                ["second": .value(2), "first": .value(1)]
            }
        }
        struct Forgetful: QualityMeasure {
            var needsFace: Bool
            let outputs = [OutputDescriptor(name: "third", unit: "", range: .unbounded, direction: .none, summary: "")]
            func assess(_ context: QualityContext) -> [String: QualityAssessment] { ["other": .value(3)] }
        }
        let image = Image(width: 2, height: 2, format: .gray, pixels: [1, 2, 3, 4])
        let region = Region(x0: 0, y0: 0, x1: 2, y1: 2)
        let whole = QualityContext(image: image, luminance: [1, 2, 3, 4], region: region, onFace: false)
        #expect(
            QualityEstimator.assemble([TwoOutputs(), Forgetful(needsFace: false)], on: whole) == [
                .value(1), .value(2), .notAssessable(reason: "Forgetful did not assess third"),
            ])
        #expect(
            QualityEstimator.assemble([Forgetful(needsFace: true), TwoOutputs()], on: whole) == [
                .notAssessable(reason: "no face region"), .value(1), .value(2),
            ])
    }

    /// Column names and order are the CSV contract: `region`, then the measures' outputs, in
    /// this order.
    @Test func declaredOutputsAreTheMeasuresInColumnOrder() {
        #expect(
            QualityEstimator.declaredOutputs.map(\.name) == [
                "region", "luminance_mean", "luminance_variance", "underexposure", "overexposure", "dynamic_range",
                "illumination_uniformity", "specularity", "sharpness", "blur", "contrast", "natural_colour",
                "background_uniformity", "background_luminance",
            ])
    }

    /// L through the truncating conversion equals floor(255 Y + 0.5) (the OFIQ definition) on
    /// an RGB grid (every 5th code per channel, 255 included).
    @Test func luminanceEqualsTheFloorDefinition() {
        let codes = Array(stride(from: 0, through: 255, by: 5))
        var pixels: [UInt8] = []
        for r in codes { for g in codes { for b in codes { pixels += [UInt8(r), UInt8(g), UInt8(b)] } } }
        let image = Image(width: pixels.count / 3, height: 1, format: .rgb, pixels: pixels)
        let (tr, tg, tb) = ColorSpaces.linearWeighted
        let expected = (0..<image.width).map { i in
            let y = tr[Int(pixels[3 * i])] + tg[Int(pixels[3 * i + 1])] + tb[Int(pixels[3 * i + 2])]
            return UInt8(min(255, (255 * y + 0.5).rounded(.down)))
        }
        #expect(ColorSpaces.luminanceImage(image) == expected)
    }

    @Test func ofiqLuminanceOfPrimaries() {
        // L = floor(255 Y + 0.5) with Y the weighted linear value: pure red -> 0.2126 * 255 = 54.2 -> 54.
        let image = Image(width: 3, height: 1, format: .rgb, pixels: [255, 0, 0, 0, 255, 0, 0, 0, 255])
        #expect(ColorSpaces.luminanceImage(image) == [54, 182, 18])
        #expect(ColorSpaces.grayLuminance[255] == 255 && ColorSpaces.grayLuminance[0] == 0)
    }
    /// The inlined cube root is glibc's algorithm step for step, so it must give the library's
    /// bits: on the X/Xn, Y, Z/Zn of an RGB grid (every 3rd code per channel, the inputs CIELAB
    /// sees) and on 200,000 doubles spread over 2^-60 ... 2^60 (fixed-seed generator).
    @Test func cubeRootHasTheLibraryBits() {
        let linear = QualityMeasures.linearTable
        var mismatches = 0, checked = 0
        for r in stride(from: 0, to: 256, by: 3) {
            for g in stride(from: 0, to: 256, by: 3) {
                for b in stride(from: 0, to: 256, by: 3) {
                    let (lr, lg, lb) = (linear[r], linear[g], linear[b])
                    for t in [
                        (0.4124564 * lr + 0.3575761 * lg + 0.1804375 * lb) / 0.95047,
                        0.2126729 * lr + 0.7151522 * lg + 0.0721750 * lb,
                        (0.0193339 * lr + 0.1191920 * lg + 0.9503041 * lb) / 1.08883,
                    ] where t > 216.0 / 24389.0 {
                        checked += 1
                        if QualityMeasures.cubeRoot(t).bitPattern != cbrt(t).bitPattern { mismatches += 1 }
                    }
                }
            }
        }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<200_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let t = Double(state >> 11) / Double(1 << 53) * pow(2.0, Double(Int(state % 121) - 60))
            guard t.isNormal else { continue }
            checked += 1
            if QualityMeasures.cubeRoot(t).bitPattern != cbrt(t).bitPattern { mismatches += 1 }
        }
        #expect(checked > 800_000)
        #expect(mismatches == 0)
        // Like the library's, the result is within an ulp of the true root, not always exact.
        #expect(abs(QualityMeasures.cubeRoot(27) - 3) <= 3.0.ulp)
        #expect(abs(QualityMeasures.cubeRoot(0.125) - 0.5) <= 0.5.ulp)
        #expect(abs(QualityMeasures.cubeRoot(0.5) - 0.7937005259840998) <= 0.7937005259840998.ulp)
    }

    /// meanLab through the inlined cube root equals the same sum through the library's cbrt, bit
    /// for bit, on a photo fixture (the natural_colour column must not change).
    @Test func meanLabEqualsTheLibraryCubeRootSum() throws {
        let folder = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.path
        let image = try ImageDecoder().decode(fileAt: folder + "/cascade/photo_astronaut_s100.jpg")
        let region = Region(x0: 3, y0: 5, x1: image.width - 7, y1: image.height - 2)
        let lab = QualityMeasures.meanLab(image, region: region)
        let reference = Self.pixelLoopMeanLab(image, region: region)
        #expect(image.format == .rgb)
        #expect(lab.l.bitPattern == reference.l.bitPattern)
        #expect(lab.a.bitPattern == reference.a.bitPattern)
        #expect(lab.b.bitPattern == reference.b.bitPattern)
    }

    /// The CIELAB mean one pixel at a time through the library's cbrt (dark pixels take the
    /// linear segment): the definition `QualityMeasures.meanLab` must equal bit for bit.
    static func pixelLoopMeanLab(_ image: Image, region: Region) -> (l: Double, a: Double, b: Double) {
        let linear = QualityMeasures.linearTable
        func f(_ t: Double) -> Double { t > 216.0 / 24389.0 ? cbrt(t) : (24389.0 / 27.0 * t + 16) / 116 }
        var sumL = 0.0, sumA = 0.0, sumB = 0.0
        for y in region.y0..<region.y1 {
            for x in region.x0..<region.x1 {
                let i = (y * image.width + x) * image.channels
                let r = linear[Int(image.pixels[i])]
                let g = image.channels == 3 ? linear[Int(image.pixels[i + 1])] : r
                let b = image.channels == 3 ? linear[Int(image.pixels[i + 2])] : r
                let fx = f((0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047)
                let fy = f(0.2126729 * r + 0.7151522 * g + 0.0721750 * b)
                let fz = f((0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883)
                sumL += 116 * fy - 16
                sumA += 500 * (fx - fy)
                sumB += 200 * (fy - fz)
            }
        }
        let n = Double(region.count)
        return (sumL / n, sumA / n, sumB / n)
    }

    /// meanLab takes four pixels at a time in lanes; on every region width from 1 to 9 (so every
    /// count of lanes in the last group), at several offsets, on RGB and gray images of
    /// pseudo-random pixels, it equals the one-pixel-at-a-time sum through the library's cbrt
    /// bit for bit (dark pixels take the linear segment, the rest the cube root).
    @Test func meanLabLanesEqualThePixelLoop() {
        var state: UInt64 = 12345
        func next() -> UInt8 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
        let rgb = Image(width: 13, height: 5, format: .rgb, pixels: (0..<(13 * 5 * 3)).map { _ in next() })
        let gray = Image(width: 13, height: 5, format: .gray, pixels: (0..<(13 * 5)).map { _ in next() / 4 })
        var compared = 0
        for image in [rgb, gray] {
            for width in 1...9 {
                for x0 in [0, 3, 13 - width] {
                    let region = Region(x0: x0, y0: 1, x1: x0 + width, y1: 5)
                    let lab = QualityMeasures.meanLab(image, region: region)
                    let reference = Self.pixelLoopMeanLab(image, region: region)
                    #expect(lab.l.bitPattern == reference.l.bitPattern, "\(image.format) \(region)")
                    #expect(lab.a.bitPattern == reference.a.bitPattern, "\(image.format) \(region)")
                    #expect(lab.b.bitPattern == reference.b.bitPattern, "\(image.format) \(region)")
                    compared += 1
                }
            }
        }
        #expect(compared == 54)
    }

    /// meanLab keeps recent colours' terms in a direct-mapped table (256 slots for a region this
    /// size). On images of a few colours repeated in varying orders (groups all in the table,
    /// groups with one new colour, colours that evict each other's slot), RGB and gray, it equals
    /// the one-pixel-at-a-time sum bit for bit, and the table is hit.
    @Test func meanLabColourTableEqualsThePixelLoop() {
        var state: UInt64 = 99
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % bound
        }
        var palette: [[UInt8]] = []
        for k in 0..<600 {
            let r = UInt8(k % 256), g = UInt8((k * 7) % 256), b = UInt8((k * 13) % 251)
            palette.append([r, g, b])
        }
        for colours in [1, 3, 40, 600] {
            let rgb = Image(
                width: 64, height: 40, format: .rgb,
                pixels: (0..<(64 * 40)).flatMap { _ in palette[next(colours)] })
            let gray = Image(
                width: 64, height: 40, format: .gray, pixels: (0..<(64 * 40)).map { _ in UInt8(next(colours) % 256) })
            for image in [rgb, gray] {
                for region in [Region(x0: 0, y0: 0, x1: 64, y1: 40), Region(x0: 5, y0: 3, x1: 62, y1: 39)] {
                    let lab = QualityMeasures.meanLab(image, region: region)
                    let reference = Self.pixelLoopMeanLab(image, region: region)
                    #expect(lab.l.bitPattern == reference.l.bitPattern, "\(colours) \(image.format) \(region)")
                    #expect(lab.a.bitPattern == reference.a.bitPattern, "\(colours) \(image.format) \(region)")
                    #expect(lab.b.bitPattern == reference.b.bitPattern, "\(colours) \(image.format) \(region)")
                }
            }
        }
        var cache = QualityMeasures.LabTermCache(pixels: 64 * 40)
        #expect(cache.keys.count == 1024)
        let hit = cache.withTable { table in
            let keys = SIMD4<UInt32>(1, 2, 3, 1)
            let slots = table.slots(keys)
            let before = table.holds(keys, at: slots)
            for lane in 0..<4 { table.store((Double(lane), 0, 0), key: keys[lane], at: slots[lane]) }
            return (before, table.holds(keys, at: slots), table.terms(at: slots[0]).l)
        }
        #expect(hit.0 == false && hit.1 == true && hit.2 == 3, "the last store of a key wins its slot")
    }

    /// Crete's blur as first written (whole-region Double planes, column-order vertical pass),
    /// kept here as the definition the row-order integer version must equal bit for bit.
    static func plainCreteBlur(_ l: [UInt8], width: Int, region: Region) -> Double {
        guard region.width >= 2, region.height >= 2 else { return .nan }
        let (vertical, horizontal) = plainCreteDirections(l, width: width, region: region)
        if vertical.isNaN && horizontal.isNaN { return .nan }
        if vertical.isNaN { return horizontal }
        if horizontal.isNaN { return vertical }
        return max(vertical, horizontal)
    }

    /// Each direction of the plain definition (a region of at least 2x2).
    static func plainCreteDirections(_ l: [UInt8], width: Int, region: Region) -> (vertical: Double, horizontal: Double)
    {
        let w = region.width, h = region.height
        var f = [Double](repeating: 0, count: w * h)
        for y in 0..<h { for x in 0..<w { f[y * w + x] = Double(l[(region.y0 + y) * width + region.x0 + x]) } }
        func directional(horizontal: Bool) -> Double {
            var blurred = [Double](repeating: 0, count: w * h)
            let length = horizontal ? w : h, lines = horizontal ? h : w
            var line = [Double](repeating: 0, count: length)
            for k in 0..<lines {
                for t in 0..<length { line[t] = horizontal ? f[k * w + t] : f[t * w + k] }
                var window = 0.0
                for d in -4...4 { window += line[min(max(d, 0), length - 1)] }
                for t in 0..<length {
                    if horizontal { blurred[k * w + t] = window / 9 } else { blurred[t * w + k] = window / 9 }
                    window += line[min(t + 5, length - 1)] - line[max(t - 4, 0)]
                }
            }
            var sumF = 0.0, sumV = 0.0
            for y in (horizontal ? 0 : 1)..<h {
                for x in (horizontal ? 1 : 0)..<w {
                    let i = y * w + x, j = horizontal ? i - 1 : i - w
                    let dF = abs(f[i] - f[j]), dB = abs(blurred[i] - blurred[j])
                    sumF += dF
                    sumV += max(0, dF - dB)
                }
            }
            return sumF > 0 ? (sumF - sumV) / sumF : .nan
        }
        return (directional(horizontal: false), directional(horizontal: true))
    }

    /// The row-order Crete blur equals the plain definition bit for bit on a photo's L plane, for
    /// regions from 2x2 (shorter than the 9-tap window) to the whole image, and on flat and
    /// one-row-striped planes (NaN directions).
    @Test func creteBlurEqualsThePlainDefinition() throws {
        let folder = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.path
        let image = try ImageDecoder().decode(fileAt: folder + "/cascade/photo_camera.jpg")
        let l = ColorSpaces.luminanceImage(image), width = image.width
        let regions = [
            Region(x0: 0, y0: 0, x1: width, y1: image.height), Region(x0: 10, y0: 20, x1: 12, y1: 22),
            Region(x0: 5, y0: 7, x1: 8, y1: 30), Region(x0: 100, y0: 50, x1: 109, y1: 58),
            Region(x0: 33, y0: 41, x1: 200, y1: 177), Region(x0: width - 17, y0: 3, x1: width, y1: 12),
        ]
        for region in regions {
            let fast = QualityMeasures.creteBlur(l, width: width, region: region)
            let plain = Self.plainCreteBlur(l, width: width, region: region)
            #expect(fast.bitPattern == plain.bitPattern, "\(region): \(fast) vs \(plain)")
            // Both directions, not only the larger: they are summed in one interleaved loop.
            let both = QualityMeasures.creteDirections(l, width: width, region: region)
            let plainBoth = Self.plainCreteDirections(l, width: width, region: region)
            #expect(both.vertical.bitPattern == plainBoth.vertical.bitPattern, "vertical \(region)")
            #expect(both.horizontal.bitPattern == plainBoth.horizontal.bitPattern, "horizontal \(region)")
        }
        let flat = [UInt8](repeating: 90, count: 12 * 10)
        let region = Region(x0: 0, y0: 0, x1: 12, y1: 10)
        #expect(QualityMeasures.creteBlur(flat, width: 12, region: region).isNaN)
        let stripes = (0..<120).map { UInt8(($0 / 12) % 2 * 200) } // rows alternate 0 / 200
        #expect(
            QualityMeasures.creteBlur(stripes, width: 12, region: region).bitPattern
                == Self.plainCreteBlur(stripes, width: 12, region: region).bitPattern)
    }
}

extension QualityTests {
    /// The background gradient as first written: every interior pixel outside the face, one at a time.
    static func plainBackgroundGradient(_ l: [UInt8], width: Int, height: Int, face: Region) -> Double {
        var sum = 0.0, count = 0
        for y in 1..<(height - 1) {
            for x in 1..<(width - 1) where !(y >= face.y0 && y < face.y1 && x >= face.x0 && x < face.x1) {
                func p(_ dx: Int, _ dy: Int) -> Int { Int(l[(y + dy) * width + x + dx]) }
                let gx = (p(1, -1) + 2 * p(1, 0) + p(1, 1)) - (p(-1, -1) + 2 * p(-1, 0) + p(-1, 1))
                let gy = (p(-1, 1) + 2 * p(0, 1) + p(1, 1)) - (p(-1, -1) + 2 * p(0, -1) + p(1, -1))
                sum += Double(gx * gx + gy * gy).squareRoot()
                count += 1
            }
        }
        return count > 0 ? sum / Double(count) : .nan
    }

    /// The lane version equals the pixel loop bit for bit on a photo's L plane, for faces inside,
    /// on every edge, over the whole image (NaN), and runs of every length 0 to 17 beside them.
    @Test func backgroundGradientEqualsThePixelLoop() throws {
        let folder = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.path
        let image = try ImageDecoder().decode(fileAt: folder + "/cascade/photo_camera.jpg")
        let l = ColorSpaces.luminanceImage(image), width = image.width, height = image.height
        var faces = [
            Region(x0: 40, y0: 30, x1: 140, y1: 150), Region(x0: 0, y0: 0, x1: 50, y1: 60),
            Region(x0: width - 33, y0: height - 20, x1: width, y1: height),
            Region(x0: 0, y0: 0, x1: width, y1: height), Region(x0: 1, y0: 1, x1: width - 1, y1: height - 1),
        ]
        for run in 0...17 { faces.append(Region(x0: 1 + run, y0: 5, x1: width - 1 - run, y1: 9)) }
        for face in faces {
            let fast = QualityMeasures.backgroundGradient(l, width: width, height: height, face: face)
            let plain = Self.plainBackgroundGradient(l, width: width, height: height, face: face)
            #expect(fast.bitPattern == plain.bitPattern, "\(face): \(fast) vs \(plain)")
        }
        #expect(QualityMeasures.backgroundGradient(l, width: width, height: height, face: faces[3]).isNaN)
        // Planes 3 to 12 pixels wide: only runs shorter than the eight lanes.
        for w in 3...12 {
            let small = (0..<(w * 5)).map { UInt8(($0 * 37) % 251) }
            let face = Region(x0: 1, y0: 2, x1: 2, y1: 3)
            #expect(
                QualityMeasures.backgroundGradient(small, width: w, height: 5, face: face).bitPattern
                    == Self.plainBackgroundGradient(small, width: w, height: 5, face: face).bitPattern)
        }
    }
}

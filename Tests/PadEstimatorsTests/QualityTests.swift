import Foundation
import Testing
@testable import PadDataset
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

    /// Column names and order are the CSV contract: one measure type per output, in this order.
    @Test func declaredOutputsAreTheMeasuresInColumnOrder() {
        #expect(
            QualityEstimator.declaredOutputs.map(\.name) == [
                "region", "luminance_mean", "luminance_variance", "underexposure", "overexposure", "dynamic_range",
                "illumination_uniformity", "specularity", "sharpness", "blur", "contrast", "natural_colour",
                "background_uniformity", "background_luminance",
            ])
    }

    @Test func ofiqLuminanceOfPrimaries() {
        // L = floor(255 Y + 0.5) with Y the weighted linear value: pure red -> 0.2126 * 255 = 54.2 -> 54.
        let image = Image(width: 3, height: 1, format: .rgb, pixels: [255, 0, 0, 0, 255, 0, 0, 0, 255])
        #expect(ColorSpaces.luminanceImage(image) == [54, 182, 18])
        #expect(ColorSpaces.grayLuminance[255] == 255 && ColorSpaces.grayLuminance[0] == 0)
    }
}

import Foundation
import Testing
@testable import PadSamples
@testable import PadEstimators
@testable import PadImage
import PadVocabulary

/// Face and eye outputs against the same procedure run with OpenCV (Fixtures/cascade/make_expected.py,
/// section "estimators").
@Suite struct FaceEyesTests {
    static let face = try! FaceEstimator(cascadeDirectory: "/usr/share/opencv4")
    static let eyes = try! EyesEstimator(cascadeDirectory: "/usr/share/opencv4")

    static func measure(_ file: String, useBox: Box? = nil) throws -> [String: Double] {
        let image = try ImageDecoder().decode(fileAt: CascadeTests.folder + "/" + file)
        var input = EstimatorInput(
            sample: Sample(id: file, path: file, label: .bonaFide, faceBox: useBox), image: image)
        var out: [String: Double] = [:]
        for (estimator, values) in [
            (face as any Estimator, try face.measure(&input)), (eyes as any Estimator, try eyes.measure(&input)),
        ] {
            for (name, value) in zip(estimator.outputNames, values) { out[name] = value }
        }
        return out
    }

    @Test(arguments: [
        "photo_astronaut_s100.jpg", "photo_astronaut_pad.jpg", "photo_astronaut_rot.jpg", "photo_other_coffee.jpg",
    ])
    func matchesOpenCVProcedure(_ file: String) throws {
        let expected = (CascadeTests.expected["estimators"] as! [String: [String: Double]])[file]!
        let mine = try Self.measure(file)
        for (name, value) in expected {
            #expect(abs(mine[name]! - value) < 1e-9, "\(file) \(name): \(mine[name]!) vs OpenCV \(value)")
        }
        if expected["face.count"] == 0 {
            #expect(mine["face.width"]!.isNaN && mine["eyes.distance_px"]!.isNaN)
        }
    }

    @Test func derivedGeometryByHand() throws {
        // photo_astronaut_s100.jpg is 512x512; face (177, 66, 95, 95).
        let m = try Self.measure("photo_astronaut_s100.jpg")
        #expect(m["face.border_px"] == 66) // top edge is nearest
        #expect(abs(m["face.size_ratio"]! - 95.0 / 512.0) < 1e-12)
        let dx = 177 + 47.5 - 256.0, dy = 66 + 47.5 - 256.0
        #expect(abs(m["face.center_offset"]! - (dx * dx + dy * dy).squareRoot() / (512 * 2.0.squareRoot() / 2)) < 1e-12)
        #expect(m["face.source"] == 0)
    }

    @Test func datasetBoxIsUsedWhenAsked() throws {
        let estimator = try FaceEstimator(cascadeDirectory: "/usr/share/opencv4", useDatasetBox: true)
        let image = try ImageDecoder().decode(fileAt: CascadeTests.folder + "/photo_other_coffee.jpg")
        var input = EstimatorInput(
            sample: Sample(id: "c", path: "c", label: .bonaFide, faceBox: Box(x: 10, y: 20, width: 50, height: 60)),
            image: image)
        let values = try estimator.measure(&input)
        #expect(values[0] == 1 && values[1] == 10 && values[4] == 60 && values[9] == 1)
        #expect(input.face == Box(x: 10, y: 20, width: 50, height: 60))
    }

    /// face.offset_x = (x + w/2 - W/2) / W, face.offset_y = (y + h/2 - H/2) / H, signed.
    @Test func signedOffsetsOfAKnownBoxByHand() throws {
        let estimator = try FaceEstimator(cascadeDirectory: "/usr/share/opencv4", useDatasetBox: true)
        let image = Image(width: 100, height: 50, format: .gray)
        func offsets(_ box: Box) throws -> (Double, Double) {
            var input = EstimatorInput(sample: Sample(id: "b", path: "b", label: .bonaFide, faceBox: box), image: image)
            let values = Dictionary(uniqueKeysWithValues: zip(estimator.outputNames, try estimator.measure(&input)))
            return (values["face.offset_x"]!, values["face.offset_y"]!)
        }
        // Centre (25, 25): a quarter of the width left of the centre (50), vertically centred.
        #expect(try offsets(Box(x: 10, y: 20, width: 30, height: 10)) == (-0.25, 0))
        // Centre (80, 5): 30 px right of 50 over 100; 20 px above 25 over 50.
        #expect(try offsets(Box(x: 60, y: 0, width: 40, height: 10)) == (0.3, -0.4))
        // Detector box on the 512x512 photo: (177, 66, 95, 95), centre (224.5, 113.5).
        let m = try Self.measure("photo_astronaut_s100.jpg")
        #expect(m["face.offset_x"] == (224.5 - 256) / 512 && m["face.offset_y"] == (113.5 - 256) / 512)
        // No face: NaN offsets, count 0, source 0 (detector).
        var empty = EstimatorInput(
            sample: Sample(id: "e", path: "e", label: .bonaFide), image: Image(width: 64, height: 48, format: .gray))
        let none = Dictionary(uniqueKeysWithValues: zip(Self.face.outputNames, try Self.face.measure(&empty)))
        #expect(
            none["face.count"] == 0 && none["face.source"] == 0 && none["face.offset_x"]!.isNaN
                && none["face.offset_y"]!.isNaN)
    }

    @Test func tinyAndFlatImagesGiveNaNNotCrashes() throws {
        for image in [
            Image(width: 1, height: 1, format: .gray), Image(width: 64, height: 48, format: .rgb),
            Image(width: 64, height: 48, format: .gray, pixels: [UInt8](repeating: 255, count: 64 * 48)),
        ] {
            var input = EstimatorInput(sample: Sample(id: "t", path: "t", label: .bonaFide), image: image)
            let f = try Self.face.measure(&input), e = try Self.eyes.measure(&input)
            #expect(f[0] == 0 && f[3].isNaN && e[1].isNaN)
            let q = try QualityEstimator().measure(&input)
            #expect(q[0] == 0) // whole image
            #expect(q.count == QualityEstimator().outputs.count)
        }
    }
}

/// The face the measurements are taken on: the best-supported detection, not the largest.
@Suite struct FaceChoiceTests {
    static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("datasets/sample").path

    /// Sample image 000008 has two detections: a larger background box with 5 neighbours and the
    /// face with 40 (its box equals the manifest's face box, 238.3, 107.1, 70.1 x 70.1, to a pixel).
    /// The largest-box rule measured the background; the support rule measures the face.
    @Test func mostNeighboursWinsOverLargestBox() throws {
        let path = Self.sample + "/eval/bonafide/000008.jpg"
        let image = try ImageDecoder().decode(fileAt: path)
        let detections = FaceEyesTests.face.detector.detect(
            in: GrayPlane(image), scaleFactor: 1.1, minNeighbors: 3, minSize: (38, 38))
        #expect(detections.count == 2)
        let largest = detections.max { $0.width * $0.height < $1.width * $1.height }!
        #expect(largest.neighbors == 5)
        var input = EstimatorInput(sample: Sample(id: "000008", path: path, label: .bonaFide), image: image)
        let values = try FaceEyesTests.face.measure(&input)
        let named = Dictionary(uniqueKeysWithValues: zip(FaceEyesTests.face.outputNames, values))
        // Two detections, one face: the background box has no second-cascade agreement (issue 28).
        #expect(named["face.neighbors"] == 40 && named["face.count"] == 1)
        #expect(
            abs(named["face.x"]! - 238.3) < 1 && abs(named["face.y"]! - 107.1) < 1
                && abs(named["face.width"]! - 70.1) < 1)
    }
}

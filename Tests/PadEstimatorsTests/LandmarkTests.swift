import Foundation
import PadDataset
import PadImage
import Testing
@testable import PadEstimators

/// dlib's 68-point model (Debian's libdlib-data), read and evaluated by padbench, against dlib's
/// own points (PyPI dlib-bin, Fixtures/landmarks/make_expected.py) on the committed sample.
@Suite struct ShapePredictorTests {
    static let modelPath = LandmarksEstimator.defaultModelPath
    /// Read once per test run (about 100 MB).
    static let model: ShapePredictorModel = {
        do { return try ShapePredictorReader.read(contentsOfFile: modelPath) } catch {
            fatalError("\(error)")
        }
    }()
    static let fixtures = Bundle.module.url(forResource: "Fixtures/landmarks", withExtension: nil)!.path
    static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("datasets/sample").path

    struct Expected: Decodable {
        struct Face: Decodable {
            var source: String
            var rect: [Int]
            var points: [[Int]]
        }
        struct Entry: Decodable {
            var path: String
            var width: Int
            var height: Int
            var gray_fnv1a64: String
            var faces: [Face]
        }
        struct Model: Decodable {
            var bytes: Int
            var sha256: String
        }
        struct Mapping: Decodable {
            var scale: Double
            var shift_x: Double
            var shift_y: Double
        }
        var model: Model
        var mapping: Mapping
        var images: [Entry]
    }

    static func expected() throws -> Expected {
        try JSONDecoder().decode(
            Expected.self, from: Data(contentsOf: URL(fileURLWithPath: fixtures + "/expected.json")))
    }

    @Test func readsDebianModel() throws {
        let model = Self.model
        #expect(model.parts == 68)
        #expect(model.levels == 15)
        #expect(model.treesPerLevel == 500)
        #expect(model.splitsPerTree == 15)
        #expect(model.featuresPerLevel == 500)
        #expect(model.leafValues.count == 15 * 500 * 16 * 136)
        // The mean shape lies in the unit square of the face box (dlib's normalising transform).
        #expect(model.initialShape.allSatisfy { $0 > -0.2 && $0 < 1.2 })
    }

    /// Every point of every face equals dlib's (after floor(x + 0.5), as dlib rounds its parts):
    /// 80 sample photos, the manifest's box mapped to dlib's convention and every HOG detection,
    /// each fed the grey plane dlib saw (checked by its hash).
    @Test func equalsDlibOnSampleFaces() throws {
        let expected = try Self.expected()
        var faces = 0, mismatches: [String] = []
        for entry in expected.images {
            let image = try ImageDecoder().decode(fileAt: Self.sample + "/" + entry.path)
            let gray = GrayPlane(image)
            #expect(FNV1a.hex(FNV1a.hash(bytes: gray.pixels)) == entry.gray_fnv1a64, "grey plane of \(entry.path)")
            for face in entry.faces {
                let rectangle = DlibRectangle(
                    left: face.rect[0], top: face.rect[1], right: face.rect[2], bottom: face.rect[3])
                let points = Self.model.landmarks(in: gray, rectangle: rectangle)
                let rounded = points.map { [Int(($0.x + 0.5).rounded(.down)), Int(($0.y + 0.5).rounded(.down))] }
                if rounded != face.points { mismatches.append("\(entry.path) \(face.source) \(rectangle)") }
                faces += 1
            }
        }
        #expect(faces >= 80)
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(faces) faces differ: \(mismatches.prefix(5))")
    }
}

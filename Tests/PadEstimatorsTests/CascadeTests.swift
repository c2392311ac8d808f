import Foundation
import Testing
@testable import PadEstimators
@testable import PadImage

/// Detections compared with OpenCV 4.14's `CascadeClassifier.detectMultiScale2` on the same
/// photos (Fixtures/cascade/make_expected.py wrote the photos and expected.json).
@Suite struct CascadeTests {
    static let folder = Bundle.module.url(forResource: "Fixtures/cascade", withExtension: nil)!.path
    static var expected: [String: Any] {
        let data = try! Data(contentsOf: URL(fileURLWithPath: folder + "/expected.json"))
        return try! JSONSerialization.jsonObject(with: data) as! [String: Any]
    }

    static func boxes(_ list: [[Int]]) -> [[Int]] { list.sorted { $0.lexicographicallyPrecedes($1) } }

    @Test(arguments: ["haar_face", "lbp_face", "haar_eye"])
    func agreesWithOpenCV(_ key: String) throws {
        let settings = (Self.expected["cascades"] as! [String: [String: Any]])[key]!
        let cascade = try CascadeClassifier(contentsOfFile: "/usr/share/opencv4/" + (settings["file"] as! String))
        let detector = CascadeDetector(cascade: cascade)
        let images = Self.expected["images"] as! [String: [String: [[Int]]]]
        var agreeing = 0, identical = 0
        for (file, byCascade) in images.sorted(by: { $0.key < $1.key }) {
            let plane = GrayPlane(try ImageDecoder().decode(fileAt: Self.folder + "/" + file))
            let found = detector.detect(in: plane, scaleFactor: settings["scaleFactor"] as! Double,
                                        minNeighbors: settings["minNeighbors"] as! Int)
            let mine = Self.boxes(found.map { [$0.x, $0.y, $0.width, $0.height, $0.neighbors] })
            let theirs = Self.boxes(byCascade[key]!)
            if mine == theirs { identical += 1 }
            // The criterion: same count, and IoU >= 0.9 for every matched box.
            let matched = theirs.allSatisfy { t in
                let tb = Box(x: Double(t[0]), y: Double(t[1]), width: Double(t[2]), height: Double(t[3]))
                return mine.contains { m in Box(x: Double(m[0]), y: Double(m[1]), width: Double(m[2]), height: Double(m[3])).iou(tb) >= 0.9 }
            }
            if mine.count == theirs.count && matched { agreeing += 1 }
        }
        #expect(Double(agreeing) >= 0.9 * Double(images.count), "\(key): \(agreeing) of \(images.count) agree")
        // Today the agreement is exact (boxes and neighbour counts) on every photo; keep it so.
        #expect(identical == images.count, "\(key): \(identical) of \(images.count) identical")
    }

    @Test func missingAndMalformedCascadesAreClearErrors() throws {
        #expect(throws: CascadeError.self) { try CascadeClassifier(contentsOfFile: "/nonexistent/cascade.xml") }
        let bad = NSTemporaryDirectory() + "bad-cascade-\(UUID().uuidString).xml"
        try "<opencv_storage><cascade><featureType>HAAR</featureType>".write(toFile: bad, atomically: true, encoding: .utf8)
        #expect { try CascadeClassifier(contentsOfFile: bad) } throws: { "\($0)".contains(bad) }
    }

    @Test func tinyFlatAndGrayImagesGiveNoDetectionsWithoutCrashing() throws {
        let cascade = try CascadeClassifier(contentsOfFile: "/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml")
        let detector = CascadeDetector(cascade: cascade)
        for (w, h, v) in [(1, 1, 0), (23, 23, 128), (24, 24, 128), (200, 150, 0), (200, 150, 255)] {
            let plane = GrayPlane(width: w, height: h, pixels: [UInt8](repeating: UInt8(v), count: w * h))
            #expect(detector.detect(in: plane).isEmpty)
        }
    }
}

import Foundation
import Testing
@testable import PadSamples
@testable import PadEstimators
@testable import PadImage
import TestSupport

/// The face count and confidence (``DetectionAgreement``) against OpenCV 4.14 running the same
/// procedure (Fixtures/cascade/make_agreement.py wrote agreement.json).
@Suite struct FaceCountTests {
    static var reference: [String: [[String: Any]]] {
        let url = URL(fileURLWithPath: CascadeTests.folder + "/agreement.json")
        let json = try! JSONSerialization.jsonObject(with: try! Data(contentsOf: url)) as! [String: Any]
        return json["images"] as! [String: [[String: Any]]]
    }

    static func path(_ key: String) -> String {
        key.hasPrefix("sample:") ? FaceChoiceTests.sample + "/" + key.dropFirst(7) : CascadeTests.folder + "/" + key
    }

    static func measure(_ path: String) throws -> [String: Double] {
        let image = try ImageDecoder().decode(fileAt: path)
        var input = EstimatorInput(sample: Sample(id: path, path: path, label: .bonaFide), image: image)
        let values = try FaceEyesTests.face.measure(&input)
        return Dictionary(uniqueKeysWithValues: zip(FaceEyesTests.face.outputNames, values))
    }

    /// Every detection's box, neighbours and agreement equal OpenCV's on the 80 sample photos and
    /// the 19 cascade photos (agreement to 1e-12: the same integer boxes, IoU in double); the count
    /// is the detections with agreement >= 0.5 and the chosen face is a counted one first, then the
    /// one with most neighbours.
    @Test(.thorough) func agreementCountAndChoiceEqualOpenCV() throws {
        let reference = Self.reference
        #expect(reference.count == 99)
        var compared = 0, counts: [Int: Int] = [:]
        for (key, expected) in reference.sorted(by: { $0.key < $1.key }) {
            let plane = GrayPlane(try ImageDecoder().decode(fileAt: Self.path(key)))
            let minimum = max(24, Int((0.08 * Double(min(plane.width, plane.height))).rounded()))
            let found = FaceEyesTests.face.detector.detect(in: plane, minNeighbors: 3, minSize: (minimum, minimum))
            try #require(found.count == expected.count, "\(key)")
            var agreements: [Double] = []
            for detection in found {
                let box = [detection.x, detection.y, detection.width, detection.height]
                let their = try #require(expected.first { $0["box"] as! [Int] == box }, "\(key) \(box)")
                #expect(detection.neighbors == their["neighbors"] as! Int, "\(key)")
                agreements.append(FaceEyesTests.face.agreement.agreement(of: detection, in: plane))
                #expect(abs(agreements.last! - (their["agreement"] as! Double)) < 1e-12, "\(key) \(box)")
                compared += 1
            }
            let count = expected.filter { ($0["agreement"] as! Double) >= 0.5 }.count
            counts[count, default: 0] += 1
            let chosen = FaceEstimator.choose(found, agreements: agreements)
            #expect(chosen?.count ?? 0 == count, "\(key)")
            if let chosen {
                let most = expected.filter { ($0["agreement"] as! Double) >= (count > 0 ? 0.5 : 0) }
                    .map { $0["neighbors"] as! Int }.max()!
                #expect(found[chosen.best].neighbors == most, "\(key)")
            }
        }
        #expect(compared == 84)
        // Two faces only on the photo that shows the astronaut twice; none on the cameraman (a
        // profile the frontal cascades find only in part) nor on the photos without a face.
        #expect(counts[2] == 1 && counts[1] == 51 && counts[0] == 47)
    }

    /// The criterion: one face on each of the sample's 20 eval bona fide photos (the grouped
    /// detections alone also count the shuttle behind the astronaut on 11 of them), each with a
    /// confidence of at least 0.5; and the estimator's count and confidence are OpenCV's.
    @Test func evalBonaFidePhotosHaveOneFace() throws {
        let reference = Self.reference
        let keys = reference.keys.filter { $0.hasPrefix("sample:eval/bonafide/") }.sorted()
        #expect(keys.count == 20)
        #expect(keys.filter { reference[$0]!.count == 2 }.count == 11)
        for key in keys {
            let m = try Self.measure(Self.path(key))
            #expect(m["face.count"] == 1, "\(key)")
            #expect(m["face.confidence"]! >= 0.79 && m["face.confidence"]! <= 1, "\(key)")
            let face = reference[key]!.filter { ($0["agreement"] as! Double) >= 0.5 }.max {
                ($0["neighbors"] as! Int) < ($1["neighbors"] as! Int)
            }!
            #expect(abs(m["face.confidence"]! - (face["agreement"] as! Double)) < 1e-12, "\(key)")
            #expect(m["face.width"] == Double((face["box"] as! [Int])[2]), "\(key)")
        }
    }

    /// Real multi-face data: two and three different bona fide photos of the sample placed side by
    /// side in one image (composed here, written with padbench's PNG encoder and decoded back, so
    /// the estimator sees a real file's pixels) count 2 and 3 faces. Each photo also shows the
    /// space shuttle behind the astronaut, which the grouped detections find as a second face on
    /// each of these three (4-5 neighbours against the face's 40-50) and which must not count:
    /// the raw detections outnumber the faces in each composite. The same photos alone count 1 each.
    @Test func sideBySidePhotosCountEachFace() throws {
        let names = ["000004", "000008", "000016"]
        let photos = try names.map {
            try ImageDecoder().decode(fileAt: FaceChoiceTests.sample + "/eval/bonafide/\($0).jpg")
        }
        for photo in photos {
            let m = try Self.measure(photo)
            #expect(m["face.count"] == 1)
        }
        for count in [2, 3] {
            let composite = try ImageDecoder().decode(
                try ImageEncoder.png(Self.sideBySide(Array(photos.prefix(count)))))
            #expect(composite.width == 640 * count && composite.height == 480)
            let raw = FaceEyesTests.face.detector.detect(
                in: GrayPlane(composite), scaleFactor: 1.1, minNeighbors: 3, minSize: (38, 38))
            #expect(raw.count > count, "the shuttle is detected in the composite too")
            let m = try Self.measure(composite)
            #expect(m["face.count"] == Double(count), "\(count) photos side by side")
            #expect(m["face.confidence"]! >= 0.5)
        }
    }

    /// RGB photos of equal height placed left to right.
    static func sideBySide(_ photos: [Image]) -> Image {
        let height = photos[0].height, width = photos.reduce(0) { $0 + $1.width }
        var out = Image(width: width, height: height, format: .rgb)
        var left = 0
        for photo in photos {
            for y in 0..<height {
                let row = (y * width + left) * 3
                out.pixels.replaceSubrange(
                    row..<(row + photo.width * 3),
                    with: photo.pixels[(y * photo.width * 3)..<((y + 1) * photo.width * 3)])
            }
            left += photo.width
        }
        return out
    }

    static func measure(_ image: Image) throws -> [String: Double] {
        var input = EstimatorInput(
            sample: Sample(id: "composite", path: "composite.png", label: .bonaFide), image: image)
        let values = try FaceEyesTests.face.measure(&input)
        return Dictionary(uniqueKeysWithValues: zip(FaceEyesTests.face.outputNames, values))
    }
}

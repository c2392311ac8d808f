import Foundation
import PadSamples
import PadImage
import PadVocabulary
import Testing
@testable import PadEstimators
@testable import PadExternal
import TestSupport

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

/// dlib's portable encoding written by hand (serialize.h, float_details.h), for small models the
/// tests can reason about: an integer is a control byte (byte count, 0x80 when negative) and its
/// little-endian bytes; a float is mantissa and exponent integers (value = m x 2^e).
struct DlibWriter {
    var bytes: [UInt8] = []

    mutating func int(_ value: Int64) {
        var magnitude = value.magnitude, body: [UInt8] = []
        repeat {
            body.append(UInt8(magnitude & 0xFF))
            magnitude >>= 8
        } while magnitude != 0
        bytes.append(UInt8(body.count) | (value < 0 ? 0x80 : 0))
        bytes += body
    }

    /// Floats with a 24-bit mantissa, as dlib writes a float: m = frexp(v) x 2^24, e = exp - 24.
    mutating func float(_ value: Float) {
        if value == 0 {
            int(0)
            int(0)
            return
        }
        let exponent = Int64(value.exponent) + 1 - 24
        int(Int64((Double(value) * pow(2, Double(-exponent))).rounded()))
        int(exponent)
    }

    mutating func shape(_ values: [Float]) {
        int(-Int64(values.count))
        int(-1)
        for v in values { float(v) }
    }

    /// A one-level, one-tree model of 2 landmarks: mean shape (0.25, 0.25), (0.75, 0.75); two feature
    /// pixels on the landmarks themselves; one split "pixel 0 - pixel 1 > 10" choosing leaf 0 (moves
    /// landmark 0 by +0.1 in x) or leaf 1 (moves landmark 1 by -0.1 in y).
    static func tinyModel(version: Int64 = 1, splitIndex: Int64 = 1, leafLength: Int = 4) -> [UInt8] {
        var w = DlibWriter()
        w.int(version)
        w.shape([0.25, 0.25, 0.75, 0.75])
        w.int(1) // levels
        w.int(1) // trees
        w.int(1) // splits
        w.int(0)
        w.int(splitIndex)
        w.float(10)
        w.int(2) // leaves
        w.shape(Array([0.1, 0, 0, 0].prefix(leafLength)) + Array(repeating: 0, count: max(0, leafLength - 4)))
        w.shape([0, 0, 0, -0.1])
        w.int(1) // anchor levels
        w.int(2)
        w.int(0)
        w.int(1)
        w.int(1) // delta levels
        w.int(2)
        for _ in 0..<4 { w.float(0) }
        return w.bytes
    }
}

/// The reader refuses malformed files with the offset and the reason, before allocating.
@Suite struct ShapePredictorReaderTests {
    static func refusal(_ bytes: [UInt8]) -> String? {
        do {
            _ = try ShapePredictorReader.read(Data(bytes))
            return nil
        } catch { return error.message }
    }

    /// The tiny model read and evaluated by hand: on a plane whose pixel under landmark 0 is 200 and
    /// under landmark 1 is 50 (difference 150 > 10) the first leaf applies, else the second.
    @Test func tinyModelByHand() throws {
        let model = try ShapePredictorReader.read(Data(DlibWriter.tinyModel()))
        #expect(model.parts == 2 && model.levels == 1 && model.treesPerLevel == 1 && model.splitsPerTree == 1)
        var pixels = [UInt8](repeating: 0, count: 101 * 101)
        pixels[25 * 101 + 25] = 200
        pixels[75 * 101 + 75] = 50
        let rectangle = DlibRectangle(left: 0, top: 0, right: 100, bottom: 100)
        let bright = model.landmarks(in: GrayPlane(width: 101, height: 101, pixels: pixels), rectangle: rectangle)
        // Landmark 0 moved by 0.1 of the 100-pixel side: (25 + 10, 25); landmark 1 unchanged.
        #expect(
            bright.map { [($0.x * 1000).rounded() / 1000, ($0.y * 1000).rounded() / 1000] } == [[35, 25], [75, 75]])
        pixels[25 * 101 + 25] = 55
        let dark = model.landmarks(in: GrayPlane(width: 101, height: 101, pixels: pixels), rectangle: rectangle)
        let rounded = dark.map { [($0.x * 1000).rounded() / 1000, ($0.y * 1000).rounded() / 1000] }
        #expect(rounded == [[25, 25], [75, 65]])
    }

    /// The fuzz target's seeds (Fuzz/make_seeds.py writes them with its own encoder) are models the
    /// reader accepts with the sizes the script gave them.
    @Test func fuzzSeedsAreModels() throws {
        let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus/FuzzShapePredictor").path
        let tiny = try ShapePredictorReader.read(contentsOfFile: corpus + "/tiny.dat")
        #expect(tiny.parts == 3 && tiny.levels == 2 && tiny.treesPerLevel == 2 && tiny.splitsPerTree == 3)
        #expect(tiny.featuresPerLevel == 4 && tiny.initialShape == [0.3, 0.35, 0.7, 0.35, 0.5, 0.75])
        let deep = try ShapePredictorReader.read(contentsOfFile: corpus + "/deep.dat")
        #expect(deep.levels == 1 && deep.splitsPerTree == 15 && deep.leafValues.count == 2 * 16 * 6)
    }

    @Test func everyTruncationIsRefused() {
        let bytes = DlibWriter.tinyModel()
        for length in 0..<bytes.count {
            #expect(Self.refusal(Array(bytes.prefix(length))) != nil, "truncated at \(length)")
        }
    }

    @Test func wrongVersionSizesAndIndicesAreRefused() throws {
        #expect(Self.refusal(DlibWriter.tinyModel(version: 2))?.contains("version 2") == true)
        #expect(Self.refusal(DlibWriter.tinyModel(splitIndex: 2))?.contains("compares feature pixels") == true)
        #expect(Self.refusal(DlibWriter.tinyModel(leafLength: 6))?.contains("leaf has 6 values") == true)
    }

    /// A count of 2^40 trees is refused from the bytes left, not by trying to allocate it.
    @Test func hugeCountsAreRefusedBeforeAllocating() throws {
        var w = DlibWriter()
        w.int(1)
        w.shape([0.25, 0.25, 0.75, 0.75])
        w.int(1)
        w.int(1 << 40)
        #expect(Self.refusal(w.bytes)?.contains("cannot fit") == true)
        var deep = DlibWriter()
        deep.int(1)
        deep.shape([0.25, 0.25, 0.75, 0.75])
        deep.int(3)
        deep.int(1000)
        deep.int(7) // 1000 trees of depth 3 cannot be in the few bytes that follow
        deep.bytes += [UInt8](repeating: 1, count: 64)
        #expect(Self.refusal(deep.bytes)?.contains("cannot fit") == true)
    }

    @Test func nonFiniteAndAsciiFloatsAreRefused() throws {
        var w = DlibWriter()
        w.int(1)
        w.int(-2)
        w.int(-1)
        w.int(0)
        w.int(32002) // NaN
        w.float(0.5)
        #expect(Self.refusal(w.bytes)?.contains("not a finite float") == true)
        // A finite encoding whose value overflows a float: 1 x 2^200 loaded as inf before.
        var huge = DlibWriter()
        huge.int(1)
        huge.int(-2)
        huge.int(-1)
        huge.int(1)
        huge.int(200)
        huge.float(0.5)
        #expect(
            Self.refusal(huge.bytes)?.contains("overflows a float (1 x 2^200)") == true,
            "\(Self.refusal(huge.bytes) ?? "accepted")")
        var ascii = DlibWriter()
        ascii.int(1)
        ascii.int(-2)
        ascii.int(-1)
        ascii.bytes += Array("0.25 0.75 ".utf8)
        #expect(Self.refusal(ascii.bytes)?.contains("binary encoding") == true)
    }

    /// The C library's words, not Foundation's sentence ("The file “x” couldn’t be opened").
    @Test func anUnreadableModelIsNamedWithTheSystemsReason() throws {
        let folder = FileManager.default.temporaryDirectory.path + "/padbench-model-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let error = #expect(throws: ShapePredictorError.self) {
            try ShapePredictorReader.read(contentsOfFile: folder + "/absent.dat")
        }
        #expect(error?.message == "cannot read: No such file or directory", "\(String(describing: error))")
    }

    @Test func missingFileNamesIt() {
        #expect(throws: EstimatorSetupError.self) { try LandmarksEstimator(modelPath: "/nonexistent/model.dat") }
        do { _ = try LandmarksEstimator(modelPath: "/nonexistent/model.dat") } catch {
            #expect("\(error)".contains("/nonexistent/model.dat") && "\(error)".contains("libdlib-data"))
        }
    }
}

/// The head pose fit on synthetic projections of its own template, and against OpenCV's solvePnP.
@Suite struct HeadPoseTests {
    /// 68 image points with the template's six (plus the inner eye corners, for the eye line)
    /// projected at pose (yaw, pitch, roll) relative to the line of sight, the nose tip at `t`.
    static func projected(
        yaw: Double, pitch: Double, roll: Double, t: [Double], width: Int = 640, height: Int = 480
    ) -> [LandmarkPoint] {
        let camera = HeadPoseFit.Camera(width: width, height: height)
        let rotation = Rotation.multiply(
            Rotation.lineOfSight(t), Rotation.fromAngles(yaw: yaw, pitch: pitch, roll: roll))
        var points = [LandmarkPoint](repeating: LandmarkPoint(x: 0, y: 0), count: 68)
        let extra: [(index: Int, x: Double, y: Double, z: Double)] = [(39, -75, 170, -135), (42, 75, 170, -135)]
        for p in HeadPoseFit.template + extra {
            let r = rotation
            let x = r[0] * p.x + r[1] * p.y + r[2] * p.z + t[0]
            let y = r[3] * p.x + r[4] * p.y + r[5] * p.z + t[1]
            let z = r[6] * p.x + r[7] * p.y + r[8] * p.z + t[2]
            let (u, v) = camera.project(x, y, z)
            points[p.index] = LandmarkPoint(x: u, y: v)
        }
        return points
    }

    @Test func syntheticRoundTrips() throws {
        var worst = 0.0
        var poses: [(Double, Double, Double)] = []
        for yaw in [-40.0, -20, -5, 0, 10, 30] {
            for pitch in [-20.0, 0, 12, 25] { for roll in [-15.0, 0, 8] { poses.append((yaw, pitch, roll)) } }
        }
        for (yaw, pitch, roll) in poses {
            for t in [[0.0, 0, -6000], [1500, -900, -5000], [-2000, 700, -9000]] {
                let points = Self.projected(yaw: yaw, pitch: pitch, roll: roll, t: t)
                let pose = try #require(HeadPoseFit.fit(points, width: 640, height: 480))
                worst = max(worst, abs(pose.yaw - yaw), abs(pose.pitch - pitch), abs(pose.roll - roll))
            }
        }
        #expect(worst < 0.5)
    }

    /// The eye-line roll equals the pose's roll for a head facing the camera (yaw and pitch 0),
    /// with the subject's left eye (image right) higher for positive roll.
    @Test func eyeLineRollOfAFrontalHead() throws {
        for roll in [-20.0, -7, 0, 5, 18] {
            let points = Self.projected(yaw: 0, pitch: 0, roll: roll, t: [0, 0, -6000])
            let named = try #require(FaceLandmarks(points))
            #expect(abs(HeadPoseEstimator.eyeLineRoll(named) - roll) < 0.5)
            if roll > 0 { #expect(points[45].y < points[36].y) }
        }
    }

    /// Signs: a face turned to the subject's left moves its nose tip to the image's right of the
    /// eye midpoint; looking down moves the nose tip down towards the mouth.
    @Test func signsFollowISO() throws {
        let turned = Self.projected(yaw: 20, pitch: 0, roll: 0, t: [0, 0, -6000])
        #expect(turned[30].x > (turned[36].x + turned[45].x) / 2)
        let down = Self.projected(yaw: 0, pitch: 20, roll: 0, t: [0, 0, -6000])
        let level = Self.projected(yaw: 0, pitch: 0, roll: 0, t: [0, 0, -6000])
        #expect(down[30].y - down[36].y > level[30].y - level[36].y)
    }

    /// A face off the image centre looking straight at the camera is frontal (line of sight).
    @Test func lineOfSightCorrection() throws {
        let points = Self.projected(yaw: 0, pitch: 0, roll: 0, t: [2500, 1500, -5000])
        let pose = try #require(HeadPoseFit.fit(points, width: 640, height: 480))
        #expect(abs(pose.yaw) < 0.01 && abs(pose.pitch) < 0.01)
        // In camera axes the same head is turned by the ray's angles (about 26 and 15 degrees).
        let (cameraYaw, cameraPitch, _) = Rotation.angles(pose.rotation)
        #expect(abs(cameraYaw) > 20 && abs(cameraPitch) > 10)
    }

    /// The line-of-sight correction against geometry built without ``Rotation/lineOfSight``: a head
    /// whose face axis points at the camera (rotation from cross products: z = -t / |t|, x
    /// perpendicular to z and the camera's y axis) reads (0, 0) anywhere in the image, and a head
    /// above the image centre that looks straight ahead (camera-frame rotation identity) looks up
    /// relative to its line of sight: negative pitch of atan(t.y / -t.z).
    @Test func lineOfSightFromCrossProducts() throws {
        func cross(_ a: [Double], _ b: [Double]) -> [Double] {
            [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
        }
        func unit(_ v: [Double]) -> [Double] { v.map { $0 / (v.map { $0 * $0 }.reduce(0, +)).squareRoot() } }
        func project(_ r: [Double], _ t: [Double]) -> [LandmarkPoint] {
            let camera = HeadPoseFit.Camera(width: 640, height: 480)
            var points = [LandmarkPoint](repeating: LandmarkPoint(x: 0, y: 0), count: 68)
            for p in HeadPoseFit.template {
                let c = (0..<3).map { r[$0 * 3] * p.x + r[$0 * 3 + 1] * p.y + r[$0 * 3 + 2] * p.z + t[$0] }
                let (u, v) = camera.project(c[0], c[1], c[2])
                points[p.index] = LandmarkPoint(x: u, y: v)
            }
            return points
        }
        for t in [[1800.0, 1200, -5000], [-2200, -900, -6000], [0, 1500, -4000]] {
            let z = unit(t.map { -$0 }), x = unit(cross([0, 1, 0], z)), y = cross(z, x)
            let facing = [x[0], y[0], z[0], x[1], y[1], z[1], x[2], y[2], z[2]] // columns x, y, z
            let pose = try #require(HeadPoseFit.fit(project(facing, t), width: 640, height: 480))
            #expect(abs(pose.yaw) < 0.05 && abs(pose.pitch) < 0.05, "\(t)")
        }
        let ahead = try #require(
            HeadPoseFit.fit(project([1, 0, 0, 0, 1, 0, 0, 0, 1], [0, 1500, -4000]), width: 640, height: 480))
        #expect(abs(ahead.pitch + atan(1500.0 / 4000) * 180 / .pi) < 0.05)
    }

    /// An independent estimate of the template's bias: dlib's model stores the mean of its
    /// training shapes (iBUG 300-W, mostly photographed at eye level) as its initial shape. Placed
    /// in the centre of a 640 x 480 image at 100, 200 and 300 px, the mean face reads within 2
    /// degrees of frontal (pitch +1.3, -0.4, -1.5; yaw 0). So the template, the axis signs and the
    /// fit carry no pitch bias for the average face of dlib's points; the sample astronaut's +14
    /// degrees is her own face in those points (eye line to nose tip over nose tip to chin 0.48
    /// against the mean face's 0.44; pitch moves about 3.5 degrees per 0.01 of that ratio).
    @Test func meanShapeOfTheModelReadsFrontal() throws {
        let model = ShapePredictorTests.model
        for side in [100.0, 200, 300] {
            let points = (0..<68).map { i in
                LandmarkPoint(
                    x: 320 - side / 2 + Double(model.initialShape[2 * i]) * side,
                    y: 240 - side / 2 + Double(model.initialShape[2 * i + 1]) * side)
            }
            let pose = try #require(HeadPoseFit.fit(points, width: 640, height: 480))
            #expect(abs(pose.pitch) < 2 && abs(pose.yaw) < 0.1 && abs(pose.roll) < 0.1, "side \(side): \(pose)")
        }
    }

    struct OpenCVPose: Decodable {
        struct Face: Decodable {
            var path: String
            var source: String
            var R: [Double]
            var t: [Double]
            var rms_px: Double
        }
        var faces: [Face]
    }

    /// The same six dlib points of each of the 144 sample faces fitted by OpenCV's solvePnP
    /// (Fixtures/landmarks/make_pose_expected.py). Where OpenCV's answer is a head in front of the
    /// camera (114 faces) the fits agree: rotation matrices within 2e-3 (about 0.1 degree),
    /// translations within 0.2% of the distance, RMS errors within 0.001 px. On 30 profile faces
    /// of the cameraman photo OpenCV's iterative solver ends at the mirror solution behind the camera
    /// (t.z > 0 in this frame): padbench's fit keeps the head in front.
    @Test func equalsOpenCVSolvePnP() throws {
        let expected = try ShapePredictorTests.expected()
        let url = URL(fileURLWithPath: ShapePredictorTests.fixtures + "/pose_opencv.json")
        let opencv = try JSONDecoder().decode(OpenCVPose.self, from: Data(contentsOf: url))
        let faces = expected.images.flatMap { entry in entry.faces.map { (entry, $0) } }
        #expect(faces.count == opencv.faces.count)
        var worstRotation = 0.0, worstTranslation = 0.0, worstError = 0.0, compared = 0, behind = 0
        for ((entry, face), reference) in zip(faces, opencv.faces) {
            #expect(entry.path == reference.path && face.source == reference.source)
            let points = face.points.map { LandmarkPoint(x: Double($0[0]), y: Double($0[1])) }
            let pose = try #require(HeadPoseFit.fit(points, width: entry.width, height: entry.height))
            #expect(pose.translation[2] < 0)
            guard reference.t[2] < 0 else {
                behind += 1
                continue
            }
            compared += 1
            worstRotation = max(worstRotation, zip(pose.rotation, reference.R).map { abs($0 - $1) }.max()!)
            let distance = (reference.t.map { $0 * $0 }.reduce(0, +)).squareRoot()
            worstTranslation = max(
                worstTranslation, zip(pose.translation, reference.t).map { abs($0 - $1) }.max()! / distance)
            worstError = max(worstError, abs(pose.rmsError - reference.rms_px))
            #expect(pose.rmsError <= reference.rms_px + 1e-6)
        }
        #expect(compared == 114 && behind == 30)
        #expect(worstRotation < 2e-3, "largest rotation-matrix difference \(worstRotation)")
        #expect(worstTranslation < 2e-3, "largest translation difference \(worstTranslation) of the distance")
        #expect(worstError < 1e-3, "largest RMS difference \(worstError) px")
    }
}

/// Eye and mouth openness, inter-eye distances and roll on hand-made landmarks.
@Suite struct DerivedMeasureTests {
    /// Corners 36 (0, 0), 39 (30, 0), 42 (70, 0), 45 (100, 0): eye-corner midpoint (50, 0); chin 8 at
    /// (50, 100): T = 100. Right eye (36-41) lids 10 and 12 apart; left eye (42-47) 4 and 4; inner
    /// lips 4, 12, 1 apart.
    static func handMade() -> [LandmarkPoint] {
        var p = [LandmarkPoint](repeating: LandmarkPoint(x: 50, y: 50), count: 68)
        let set: [Int: (Double, Double)] = [
            36: (0, 0), 39: (30, 0), 42: (70, 0), 45: (100, 0), 8: (50, 100),
            37: (10, -5), 41: (10, 5), 38: (20, -6), 40: (20, 6),
            43: (80, -2), 47: (80, 2), 44: (90, -2), 46: (90, 2),
            61: (40, 70), 67: (40, 74), 62: (50, 68), 66: (50, 80), 63: (60, 70), 65: (60, 71),
        ]
        for (i, xy) in set { p[i] = LandmarkPoint(x: xy.0, y: xy.1) }
        return p
    }

    static func run(_ estimator: any Estimator, _ points: [LandmarkPoint]) throws -> [Double] {
        var input = EstimatorInput(
            sample: Sample(id: "hand", path: "hand.png", label: .bonaFide),
            image: Image(width: 200, height: 200, format: .gray, pixels: [UInt8](repeating: 0, count: 40000)))
        input.landmarks = points
        return try estimator.measure(&input)
    }

    @Test func eyeAndMouthOpenness() throws {
        let eyes = try Self.run(EyeStateEstimator(), Self.handMade())
        // left_open 4/100, right_open 12/100, open = min, left EAR (4 + 4)/60, right EAR (10 + 12)/60.
        let expected = [0.04, 0.12, 0.04, 8.0 / 60, 22.0 / 60]
        #expect(zip(eyes, expected).allSatisfy { abs($0 - $1) < 1e-12 }, "\(eyes)")
        let mouth = try Self.run(MouthEstimator(), Self.handMade())
        #expect(abs(mouth[0] - 0.12) < 1e-12)
    }

    @Test func eyeLineRollSign() throws {
        var p = Self.handMade()
        p[42] = LandmarkPoint(x: 70, y: -10)
        p[45] = LandmarkPoint(x: 100, y: -10)
        let head = try Self.run(HeadPoseEstimator(), p)
        // A = (15, 0), B = (85, -10): atan2(10, 70), the subject's left eye higher.
        #expect(abs(head[2] - atan2(10, 70) * 180 / .pi) < 1e-12)
    }

    /// Without landmarks every output is NaN; with the 5-point layout only what corners give.
    @Test func notAssessable() throws {
        for estimator in [EyeStateEstimator(), MouthEstimator(), HeadPoseEstimator()] as [any Estimator] {
            #expect(try Self.run(estimator, []).allSatisfy(\.isNaN))
        }
        let five = [(130.0, 50.0), (110, 51), (30, 50), (50, 51), (80, 90)].map { LandmarkPoint(x: $0.0, y: $0.1) }
        #expect(try Self.run(EyeStateEstimator(), five).allSatisfy(\.isNaN))
        #expect(try Self.run(MouthEstimator(), five).allSatisfy(\.isNaN))
        let head = try Self.run(HeadPoseEstimator(), five)
        #expect(head[0].isNaN && head[1].isNaN && !head[2].isNaN && head[3].isNaN)
        // Eye centres (40, 50.5) and (120, 50.5): roll atan2(0, 80) = 0.
        #expect(abs(head[2]) < 1e-12)
    }
}

/// The estimator on the sample: the box mapping, the points, the distances, the options.
@Suite struct LandmarksEstimatorTests {
    static let estimator = LandmarksEstimator(
        model: ShapePredictorTests.model, path: LandmarksEstimator.defaultModelPath, hash: "test", bytes: 0)

    /// The mapping of every manifest box equals make_expected.py's (an independent implementation).
    @Test func boxMappingEqualsTheGenerator() throws {
        let expected = try ShapePredictorTests.expected()
        let manifest = try String(contentsOfFile: ShapePredictorTests.sample + "/manifest.csv", encoding: .utf8)
        var boxes: [String: Box] = [:]
        for line in manifest.split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            // Video rows of the sample carry no face box.
            guard f.count > 8, let x = Double(f[5]), let y = Double(f[6]), let w = Double(f[7]), let h = Double(f[8])
            else { continue }
            boxes[f[0]] = Box(x: x, y: y, width: w, height: h)
        }
        #expect(expected.mapping.scale == 0.95 && expected.mapping.shift_y == 0.108 && expected.mapping.shift_x == 0)
        for entry in expected.images {
            let face = try #require(entry.faces.first { $0.source == "manifest" })
            let r = LandmarksEstimator.BoxMapping().rectangle(for: try #require(boxes[entry.path]))
            #expect([r.left, r.top, r.right, r.bottom] == face.rect, "\(entry.path)")
        }
    }

    @Test func measuresTheSampleFace() throws {
        let expected = try ShapePredictorTests.expected()
        let entry = try #require(expected.images.first { $0.path == "eval/bonafide/000000.jpg" })
        let face = try #require(entry.faces.first { $0.source == "manifest" })
        var input = EstimatorInput(
            sample: Sample(id: "000000", path: entry.path, label: .bonaFide),
            image: try ImageDecoder().decode(fileAt: ShapePredictorTests.sample + "/" + entry.path),
            face: Box(x: 239.9, y: 32.6, width: 88.1, height: 88.1))
        let values = try Self.estimator.measure(&input)
        #expect(values.count == LandmarksEstimator.declaredOutputs.count)
        #expect(values[0] == 68 && values[1] == 1)
        let rounded = input.landmarks.map { [Int(($0.x + 0.5).rounded(.down)), Int(($0.y + 0.5).rounded(.down))] }
        #expect(rounded == face.points)
        // From dlib's rounded points: eye centres (mean of 36-41, 42-47) and corner midpoints.
        let p = face.points.map { LandmarkPoint(x: Double($0[0]), y: Double($0[1])) }
        let centres = (FaceLandmarks.mean(Array(p[36...41])), FaceLandmarks.mean(Array(p[42...47])))
        let corners = (FaceLandmarks.mean([p[36], p[39]]), FaceLandmarks.mean([p[42], p[45]]))
        #expect(abs(values[2] - FaceLandmarks.distance(centres.0, centres.1)) < 1)
        #expect(abs(values[3] - FaceLandmarks.distance(corners.0, corners.1)) < 1)
        #expect(values[3] > 25 && values[3] < 45)
    }

    @Test func pointsAreOutputsOnRequestAndNoFaceIsNaN() throws {
        let withPoints = LandmarksEstimator(
            model: ShapePredictorTests.model, path: "m", hash: "h", bytes: 0, points: true)
        #expect(withPoints.outputNames.count == 4 + 136)
        #expect(withPoints.outputNames[4] == "landmarks.x0" && withPoints.outputNames.last == "landmarks.y67")
        let image = try ImageDecoder().decode(fileAt: ShapePredictorTests.sample + "/eval/bonafide/000000.jpg")
        var input = EstimatorInput(sample: Sample(id: "a", path: "a", label: .bonaFide), image: image)
        let none = try withPoints.measure(&input)
        #expect(none.count == 140 && none[0] == 0 && none.dropFirst().allSatisfy(\.isNaN) && input.landmarks.isEmpty)
        input.face = Box(x: 239.9, y: 32.6, width: 88.1, height: 88.1)
        let found = try withPoints.measure(&input)
        #expect(found[4] == input.landmarks[0].x && found[139] == input.landmarks[67].y)
    }
}

/// External estimators see the face box and the landmarks padbench measured.
@Suite struct ExternalRequestTests {
    static let sample = Sample(id: "a1", path: "eval/a1.jpg", label: .bonaFide)
    static let image = Image(width: 4, height: 4, format: .gray, pixels: [UInt8](repeating: 0, count: 16))

    /// A program that records every request line in `log` and answers `seen: 1`.
    static func recorder(_ log: String) -> String {
        "sh -c 'read d; echo \"{\\\"outputs\\\": [\\\"seen\\\"]}\"; while read line; do "
            + "printf \"%s\\n\" \"$line\" >> \(log); "
            + "echo \"{\\\"id\\\": \\\"a1\\\", \\\"outputs\\\": {\\\"seen\\\": 1}}\"; done'"
    }

    @Test func requestCarriesFaceAndLandmarksOnTheWire() throws {
        let log = TestFolder.root + "/padbench-external-\(UUID().uuidString).jsonl"
        defer { try? FileManager.default.removeItem(atPath: log) }
        let external = try ExternalEstimator(name: "rec", command: Self.recorder(log), timeout: 10)
        defer { external.shutDown() }
        var plain = EstimatorInput(sample: Self.sample, image: Self.image)
        #expect(try external.measure(&plain) == [1])
        var measured = EstimatorInput(
            sample: Self.sample, image: Self.image, face: Box(x: 239.9, y: 32.6, width: 88.1, height: 88.1))
        measured.landmarks = (0..<68).map { LandmarkPoint(x: 240 + Double($0) * 1.00049, y: 40.123456) }
        #expect(try external.measure(&measured) == [1])
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2)
        let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        // Nothing measured: the request as before, plus how the still is stored (no EXIF: upright).
        #expect(Set(first.keys) == ["id", "path", "orientation", "upright"])
        #expect(first["orientation"] as? Int == 1 && first["upright"] as? Bool == true)
        let second = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        #expect(second["id"] as? String == "a1" && second["path"] as? String == "eval/a1.jpg")
        #expect(second["face"] as? [Double] == [239.9, 32.6, 88.1, 88.1])
        let points = try #require(second["landmarks"] as? [[Double]])
        #expect(points.count == 68 && points[0] == [240, 40.123] && points[67] == [307.033, 40.123])
    }
}

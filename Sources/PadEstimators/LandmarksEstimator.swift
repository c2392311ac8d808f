import Foundation
import PadImage
import PadText
import PadVocabulary

/// Facial landmarks from dlib's regression-tree model (Kazemi & Sullivan, CVPR 2014), read from
/// the user's installed file and evaluated by padbench (``ShapePredictorModel``), seeded from the
/// chosen face box; the eye distances the capture SDKs gate on (MiSnap EyeMinDistance 90 /
/// EyeMaxDistance 160 px, Aware's minimum eye separation).
///
/// Example: `LandmarksEstimatorTests.measuresTheSampleFace` in `Tests/PadEstimatorsTests/LandmarkTests.swift`.
/// Seed: the model was trained on boxes of dlib's HOG frontal detector, which sit lower and tighter
/// than OpenCV's Haar box. The face box (x, y, w, h) becomes dlib's rectangle by ``BoxMapping``:
/// centre (x + w/2 + shift_x w, y + h/2 + shift_y w), side scale x w, corners rounded with
/// floor(v + 0.5) (``BoxMapping/haarCascade`` for the cascade's box, fit on 42 photos by
/// Fixtures/landmarks/fit_box_mapping.py: median width ratio 0.950, centre shift 0.108 w down, -0.007 w
/// across, taken as 0; ``BoxMapping/ultraFace`` for the CNN's box: 0.999, 0.0635 w down).
/// Outputs (all NaN when there is no face box or it is under 8 px):
/// - `parts`: landmarks found (68 or 5; 0 without a face);
/// - `in_frame`: fraction of the landmarks inside the image (below 1: the face leaves the frame,
///   points there are extrapolated);
/// - `eye_distance_px`: distance between the eye centres, each the mean of the eye's six points
///   (68-point model; NaN with the 5-point model, which has no eyelid points);
/// - `eye_distance_ofiq_px`: distance between the midpoints of each eye's two corners, OFIQ's
///   inter-eye distance (ISO/IEC 29794-5 reference, `FaceMeasures::InterEyeDistance`) without its
///   1 / cos(yaw) correction (the `head` estimator's yaw is not known here);
/// - with `points` (`--estimators landmarks.points`): `x0`, `y0`, ... the landmarks themselves.
package struct LandmarksEstimator: Estimator {
    package let name = "landmarks"
    package let version = "1.0.0"
    package var dependencies: [String] { ["face"] }
    package let model: ShapePredictorModel
    package let modelPath: String
    /// FNV-1a 64 of the model file (hex), computed when it is read.
    package let modelHash: String
    package let mapping: BoxMapping
    /// Also output every landmark's coordinates.
    package let points: Bool

    /// Debian's `libdlib-data` file.
    package static let defaultModelPath = "/usr/share/dlib/shape_predictor_68_face_landmarks.dat"
    /// Files padbench knows by size and FNV-1a 64, with their SHA-256 (checked with sha256sum) and licence.
    static let knownModels: [String: (sha256: String, licence: String)] = [
        "99693937:7c05f798ff870fb4": (
            "fbdc2cb80eb9aa7a758672cbfdda32ba6300efe9b6e6c7a299ff7e736b11b92f",
            "dlib 68-point model: released by dlib as CC0, trained on iBUG 300-W, whose terms exclude commercial use"
        ),
        "9150489:8cf06d8d2c988ec6": (
            "c4b1e9804792707d3a405c2c16a80a20269e6675021f64a41d30fffafbc41888",
            "dlib 5-point model: released by dlib as CC0, trained on dlib's own data"
        ),
    ]

    package var outputs: [OutputDescriptor] { Self.declaredOutputs + (points ? Self.pointOutputs(model.parts) : []) }
    /// Declared by type, so profiles are validated without reading the model file.
    package static let declaredOutputs: [OutputDescriptor] = [
        .init(name: "parts", unit: "points", range: .nonNegative, direction: .none, summary: "landmarks found"),
        .init(
            name: "in_frame", unit: "", range: 0...1, direction: .higherIsBetter,
            summary: "fraction of landmarks inside the image"),
        .init(
            name: "eye_distance_px", unit: "px", range: .nonNegative, direction: .none,
            summary: "eye centres (mean of six points) apart"),
        .init(
            name: "eye_distance_ofiq_px", unit: "px", range: .nonNegative, direction: .none,
            summary: "eye-corner midpoints apart (OFIQ)"),
    ]

    /// `x0`, `y0`, `x1`, ... for a model of `parts` landmarks.
    package static func pointOutputs(_ parts: Int) -> [OutputDescriptor] {
        (0..<parts).flatMap { i in
            ["x", "y"].map { axis in
                OutputDescriptor(
                    name: "\(axis)\(i)", unit: "px", range: .unbounded, direction: .none,
                    summary: "landmark \(i), \(axis)")
            }
        }
    }

    package var parameters: [String: String] {
        let known = Self.knownModels["\(modelBytes):\(modelHash)"]
        var values = [
            "model": modelPath, "model_fnv1a64": modelHash, "model_bytes": "\(modelBytes)",
            "model_parts": "\(model.parts)", "box_scale": "\(mapping.scale)", "box_shift_x": "\(mapping.shiftX)",
            "box_shift_y": "\(mapping.shiftY)", "points": "\(points)",
            "licence": known?.licence ?? Self.licenceNote(parts: model.parts),
        ]
        if let known { values["model_sha256"] = known.sha256 }
        return values
    }
    let modelBytes: Int

    static func licenceNote(parts: Int) -> String {
        parts == 5
            ? "dlib 5-point model: released by dlib as CC0, trained on dlib's own data"
            : "user-supplied model: check its licence (dlib's 68-point file is CC0 but trained on iBUG 300-W, "
                + "non-commercial)"
    }

    /// Largest landmark model file read.
    package static let maximumModelBytes = 1 << 30

    /// Reads the model file (cold start: about 100 MB for the 68-point model).
    package init(modelPath: String = defaultModelPath, mapping: BoxMapping = .init(), points: Bool = false) throws {
        let data: Data
        // A regular file (stat) of at most 1 GiB (dlib's 68-point model is 99.7 MB), mapped, never
        // copied: a FIFO, a directory or `/proc/self/pagemap` is one line naming the file.
        if let failure = RegularFile.check(modelPath) {
            throw EstimatorSetupError(
                estimator: "landmarks",
                message: "landmark model \(failure); install Debian's libdlib-data or give --landmark-model FILE")
        }
        if let size = RegularFile.size(modelPath), size > Self.maximumModelBytes {
            throw EstimatorSetupError(
                estimator: "landmarks",
                message: "landmark model \(modelPath): \(size) bytes, over the \(Self.maximumModelBytes)-byte limit")
        }
        do { data = try Data(contentsOf: URL(fileURLWithPath: modelPath), options: .alwaysMapped) } catch {
            throw EstimatorSetupError(
                estimator: "landmarks",
                message:
                    "cannot read the landmark model \(modelPath) (\(RegularFile.reason(error))); "
                    + "install Debian's libdlib-data or give --landmark-model FILE")
        }
        let model: ShapePredictorModel
        do { model = try ShapePredictorReader.read(data, path: modelPath) } catch {
            throw EstimatorSetupError(estimator: "landmarks", message: "\(error)")
        }
        let hash = data.withUnsafeBytes { FNV1a.hash($0.bindMemory(to: UInt8.self)) }
        self.init(
            model: model, path: modelPath, hash: FNV1a.hex(hash), bytes: data.count, mapping: mapping, points: points)
    }

    /// An estimator over a model already read (tests share one).
    package init(
        model: ShapePredictorModel, path: String, hash: String, bytes: Int, mapping: BoxMapping = .init(),
        points: Bool = false
    ) {
        self.model = model
        modelPath = path
        modelHash = hash
        modelBytes = bytes
        self.mapping = mapping
        self.points = points
    }

    package func measure(_ input: inout EstimatorInput) throws(EstimatorFailure) -> [Double] {
        let missing = [Double](repeating: .nan, count: outputs.count)
        guard let face = input.face, face.width >= 8, face.height >= 8 else {
            input.landmarks = []
            return [0] + missing.dropFirst()
        }
        if input.gray == nil { input.gray = GrayPlane(input.image) }
        let found = model.landmarks(in: input.gray!, rectangle: mapping.rectangle(for: face))
        input.landmarks = found
        let width = Double(input.image.width), height = Double(input.image.height)
        let inside = found.filter { $0.x >= 0 && $0.y >= 0 && $0.x < width && $0.y < height }.count
        var values = [Double(found.count), Double(inside) / Double(found.count)]
        if let named = FaceLandmarks(found) {
            let centres = (named.eyeCentre(left: true), named.eyeCentre(left: false))
            values.append(centres.0.flatMap { a in centres.1.map { FaceLandmarks.distance(a, $0) } } ?? .nan)
            values.append(FaceLandmarks.distance(named.cornerMidpoint(left: true), named.cornerMidpoint(left: false)))
        } else {
            values += [.nan, .nan] // a model of another layout: no named eyes
        }
        if points { values += found.flatMap { [$0.x, $0.y] } }
        return values
    }

    /// How a face box becomes the rectangle dlib's model expects (see the type's comment).
    package struct BoxMapping: Sendable, Equatable {
        package var scale: Double
        package var shiftX: Double
        package var shiftY: Double
        package init(scale: Double = 0.95, shiftX: Double = 0, shiftY: Double = 0.108) {
            self.scale = scale
            self.shiftX = shiftX
            self.shiftY = shiftY
        }

        /// For OpenCV's Haar cascade box (fit on 42 photos, `Fixtures/landmarks/fit_box_mapping.py`).
        package static let haarCascade = BoxMapping(scale: 0.95, shiftX: 0, shiftY: 0.108)
        /// For UltraFace's box (fit on 54 photos against dlib's HOG detector by
        /// `Fixtures/onnx/fit_box_mapping_ultraface.py`: median width ratio 0.999, centre shift
        /// 0.0635 w down and 0.005 w across, taken as 0). The RFB-640 box is taken as the same.
        package static let ultraFace = BoxMapping(scale: 0.999, shiftX: 0, shiftY: 0.0635)

        /// Centre moved by (shiftX w, shiftY w), a square of side scale x w, corners rounded with
        /// floor(v + 0.5); right and bottom inclusive, as dlib's rectangles.
        package func rectangle(for box: Box) -> DlibRectangle {
            let cx = box.x + box.width / 2 + shiftX * box.width, cy = box.y + box.height / 2 + shiftY * box.width
            let side = scale * box.width
            let left = Int((cx - side / 2 + 0.5).rounded(.down)), top = Int((cy - side / 2 + 0.5).rounded(.down))
            let size = Int((side + 0.5).rounded(.down))
            return DlibRectangle(left: left, top: top, right: left + size - 1, bottom: top + size - 1)
        }
    }
}

// landmarks-timing: times padbench's landmark evaluation alone, per face, so `make benchmark` can
// print it beside dlib's own C++ shape_predictor (landmarks_dlib.cpp) on the same faces.
//
// Usage: landmarks-timing MODEL DATASET OUT [ROUNDS]
// For every sample of DATASET/manifest.csv with a face box: decode the image with padbench's
// ImageDecoder, make the grey plane (GrayPlane), map the box to dlib's rectangle (LandmarksEstimator's
// default BoxMapping), and write OUT/<n>.pgm and a line "<n>.pgm left top right bottom" to
// OUT/faces.txt, so dlib is fed the very same planes and rectangles. Then evaluates every face once
// as warm-up and ROUNDS times (default 20) timed, writes the points (floor(x + 0.5), as dlib rounds)
// to OUT/points-padbench.txt and prints one JSON line: faces, rounds, microseconds per face (mean
// over all), the model's read time in ms.
import Foundation
import PadDataset
import PadEstimators
import PadImage

@main
struct LandmarksTiming {
    static func main() throws {
        let arguments = CommandLine.arguments
        guard arguments.count >= 4 else {
            FileHandle.standardError.write(Data("usage: landmarks-timing MODEL DATASET OUT [ROUNDS]\n".utf8))
            exit(64)
        }
        let (modelPath, dataset, out) = (arguments[1], arguments[2], arguments[3])
        let rounds = arguments.count > 4 ? Int(arguments[4]) ?? 20 : 20
        let clock = ContinuousClock()
        let started = clock.now
        let model = try ShapePredictorReader.read(contentsOfFile: modelPath)
        let readMs = milliseconds(clock.now - started)
        let faces = try prepare(dataset: dataset, out: out)
        var points: [[LandmarkPoint]] = faces.map { model.landmarks(in: $0.plane, rectangle: $0.rectangle) }
        let timed = clock.now
        for _ in 0..<rounds {
            points = faces.map { model.landmarks(in: $0.plane, rectangle: $0.rectangle) }
        }
        let perFace = milliseconds(clock.now - timed) * 1000 / Double(rounds * faces.count)
        let text = points.map { face in
            face.map { "\(Int(($0.x + 0.5).rounded(.down))) \(Int(($0.y + 0.5).rounded(.down)))" }.joined(
                separator: " ")
        }
        try (text.joined(separator: "\n") + "\n").write(
            toFile: out + "/points-padbench.txt", atomically: true, encoding: .utf8)
        print(#"{"faces":\#(faces.count),"rounds":\#(rounds),"us_per_face":\#(perFace),"model_read_ms":\#(readMs)}"#)
    }

    static func milliseconds(_ d: Duration) -> Double {
        Double(d.components.seconds) * 1e3 + Double(d.components.attoseconds) * 1e-15
    }

    /// The faces of the dataset's manifest boxes, written as PGM planes and a rectangle list.
    static func prepare(dataset: String, out: String) throws -> [(plane: GrayPlane, rectangle: DlibRectangle)] {
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let samples = try DatasetLoader().load(dataset).samples
        var faces: [(plane: GrayPlane, rectangle: DlibRectangle)] = []
        var list = ""
        for sample in samples {
            guard let box = sample.faceBox else { continue }
            let plane = GrayPlane(try ImageDecoder().decode(fileAt: sample.path))
            let r = LandmarksEstimator.BoxMapping().rectangle(for: box)
            let name = "\(faces.count).pgm"
            var pgm = Array("P5\n\(plane.width) \(plane.height)\n255\n".utf8)
            pgm += plane.pixels
            FileManager.default.createFile(atPath: out + "/" + name, contents: Data(pgm))
            list += "\(name) \(r.left) \(r.top) \(r.right) \(r.bottom)\n"
            faces.append((plane, r))
        }
        try list.write(toFile: out + "/faces.txt", atomically: true, encoding: .utf8)
        return faces
    }
}

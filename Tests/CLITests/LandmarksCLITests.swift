import Foundation
import Testing

/// The landmark estimators as a user runs them: a missing model file, the points as columns, the
/// model recorded in the manifest.
@Suite struct LandmarksCLITests {
    static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("datasets/sample").path

    /// Two photos of the sample (one frontal face, one profile) as a manifest dataset.
    static func smallDataset() throws -> String {
        let dir = CommandLineTests.folder()
        let manifest = try String(contentsOfFile: sample + "/manifest.csv", encoding: .utf8).split(separator: "\n")
        for line in manifest.dropFirst().prefix(2) {
            let path = String(line.split(separator: ",")[0])
            try FileManager.default.createDirectory(
                atPath: dir + "/" + (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: sample + "/" + path, toPath: dir + "/" + path)
        }
        try (manifest.prefix(3).joined(separator: "\n") + "\n").write(
            toFile: dir + "/manifest.csv", atomically: true, encoding: .utf8)
        return dir
    }

    @Test func missingModelIsOneLineAndListStillWorks() throws {
        let list = try CommandLineTests.run(["estimators", "list", "--landmark-model", "/nonexistent/sp.dat"])
        #expect(list.status == 0)
        #expect(
            list.out.contains("landmarks: ") && list.out.contains("not available")
                && list.out.contains("/nonexistent/sp.dat"))
        #expect(list.out.contains("face 1.4.0") && list.out.contains("landmarks.eye_distance_px"))
        let dir = try Self.smallDataset()
        let bench = try CommandLineTests.run([
            "bench", "--dataset", dir, "--profiles", "basic", "--estimators", "head", "--landmark-model",
            "/nonexistent/sp.dat", "--out", dir + "/run", "--quiet",
        ])
        #expect(bench.status == 1)
        #expect(bench.err.contains("/nonexistent/sp.dat") && bench.err.contains("libdlib-data"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/run"))
    }

    @Test func pointsBecomeColumnsAndTheManifestNamesTheModel() throws {
        let dir = try Self.smallDataset()
        let bench = try CommandLineTests.run([
            "bench", "--dataset", dir, "--profiles", "basic", "--estimators", "landmarks.points,head,eye_state,mouth",
            "--out", dir + "/run", "--quiet",
        ])
        #expect(bench.status == 0, "\(bench.err)")
        let samples = try String(contentsOfFile: dir + "/run/samples.csv", encoding: .utf8)
        let header = samples.split(separator: "\n")[0].split(separator: ",").map(String.init)
        for column in [
            "landmarks.parts", "landmarks.eye_distance_px", "landmarks.eye_distance_ofiq_px", "landmarks.x0",
            "landmarks.y67", "head.yaw_deg", "head.pitch_deg", "head.roll_deg", "eye_state.left_open",
            "eye_state.right_open", "eye_state.left_ear", "eye_state.right_ear", "mouth.open",
        ] {
            #expect(header.contains(column), "\(column)")
        }
        let frontal = samples.split(separator: "\n").first { $0.hasPrefix("eval/bonafide/000000.jpg") }
        let values = try #require(frontal).split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let value = { (name: String) in Double(values[header.firstIndex(of: name)!]) }
        #expect(value("landmarks.parts") == 68)
        #expect(try #require(value("landmarks.eye_distance_ofiq_px")) > 25)
        #expect(abs(try #require(value("head.yaw_deg"))) < 30)
        let manifest = try String(contentsOfFile: dir + "/run/manifest.json", encoding: .utf8)
        for fragment in [
            "shape_predictor_68_face_landmarks.dat", "7c05f798ff870fb4",
            "fbdc2cb80eb9aa7a758672cbfdda32ba6300efe9b6e6c7a299ff7e736b11b92f", "iBUG 300-W",
        ] {
            #expect(manifest.contains(fragment), "\(fragment)")
        }
    }
}

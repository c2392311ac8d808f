import Foundation
import Testing
@testable import PadArchive
@testable import PadBench
@testable import PadDataset
@testable import PadSamples
@testable import PadEstimators
@testable import PadExternal
@testable import PadImage
import PadVocabulary

/// The external-estimator protocol with examples/external/pad_estimator.py, which misbehaves on
/// purpose for ids containing crash, hang, garbage or wrongid.
@Suite struct ExternalEstimatorTests {
    static var script: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("examples/external/pad_estimator.py").path
    }

    @Test func misbehavingProgramFailsOnlyThoseSamplesAndTheRunFinishes() async throws {
        let root = Fixture.folder()
        var manifest = "path,label,species,split,subject\n"
        let names = ["ok1", "crash", "ok2", "garbage", "ok3", "wrongid", "ok4", "hang", "ok5"]
        for (i, name) in names.enumerated() {
            Fixture.write(try ImageEncoder.jpeg(Fixture.image(contrast: 10 + i, seed: i)), root + "/\(name).jpg")
            manifest += "\(name).jpg,\(i % 2 == 0 ? "bonafide" : "attack"),\(i % 2 == 0 ? "" : "print"),,\n"
        }
        try manifest.write(toFile: root + "/manifest.csv", atomically: true, encoding: .utf8)
        var options = EstimatorOptions(externalCommands: ["pad": "python3 \(Self.script)"], externalTimeout: 2)
        options.cascadeDirectory = "/usr/share/opencv4"
        let job = BenchJob(
            dataset: try DatasetLoader().load(root), profiles: [], extraEstimators: ["pad"], estimatorOptions: options,
            outputFolder: root + "/run", concurrency: 2)
        let outcome = try await BenchRunner().run(job)
        let statuses = Dictionary(uniqueKeysWithValues: zip(outcome.table.ids, outcome.table.statuses.map(\.field)))
        #expect(statuses["crash.jpg"] == "estimator_error")
        #expect(statuses["garbage.jpg"] == "estimator_error")
        #expect(statuses["wrongid.jpg"] == "estimator_error")
        #expect(statuses["hang.jpg"] == "timeout")
        for ok in ["ok1", "ok2", "ok3", "ok4", "ok5"] {
            #expect(statuses["\(ok).jpg"] == "ok", "\(ok) after a restart")
        }
        #expect(outcome.table.count == names.count)
        let scores = outcome.table.column(named: "pad.score")!
        for (i, id) in outcome.table.ids.enumerated() where statuses[id] == "ok" {
            #expect(scores[i] > 0 && scores[i] <= 1)
        }
        let manifestJSON = try RunManifest.decode(
            from: ResultArchiveReader(path: outcome.archivePath).entry(named: "manifest.json"))
        #expect(manifestJSON.estimators.first { $0.name == "pad" }?.version == "example-1")
    }

    /// A run whose only estimator is a program that reads the file itself decodes no pixels: a still
    /// damaged after its header reaches the program, which says what it finds, and the dataset box
    /// is clipped to the header's size. A program that asks for `rgb24` gets padbench's decode, and
    /// its failure.
    @Test func stillsAreNotDecodedForProgramsThatReadTheFileThemselves() throws {
        let root = Fixture.folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let jpeg = try ImageEncoder.jpeg(Fixture.image(contrast: 10, seed: 1))
        Fixture.write(Array(jpeg.prefix(jpeg.count - 200)), root + "/cut.jpg")
        let program = root + "/size.py"
        try """
        import json, os, sys
        for line in sys.stdin:
            request = json.loads(line)
            if request.get("describe"):
                print(json.dumps({"outputs": ["bytes", "face_width"], "input": sys.argv[1]}), flush=True)
                continue
            face = request.get("face", [0, 0, -1, 0])
            print(json.dumps({"id": request["id"], "outputs": {"bytes": os.path.getsize(request["path"]), "face_width": face[2]}}), flush=True)
        """.write(toFile: program, atomically: true, encoding: .utf8)
        let sample = Sample(
            id: "cut.jpg", path: root + "/cut.jpg", label: .bonaFide, faceBox: Box(x: 90, y: 0, width: 20, height: 10))
        for input in ["path", "rgb24"] {
            let estimator = try ExternalEstimator(name: "x", command: "python3 \(program) \(input)", timeout: 10)
            defer { estimator.shutDown() }
            let measurer = SampleMeasurer(estimators: [estimator])
            #expect(measurer.decodesStills == (input == "rgb24"))
            let outcome = measurer.measure(sample, index: 0)
            if input == "path" {
                // The image is 96 pixels wide: the box from x 90 keeps 6 of its 20.
                #expect(outcome.status == .ok && outcome.values == [Double(jpeg.count - 200), 6])
            } else {
                #expect(outcome.status.code == .decodeError, "\(outcome.status)")
            }
        }
    }

    @Test func programThatExitsAtStartIsASetupError() {
        #expect { try ExternalEstimator(name: "bad", command: "sh -c 'exit 1'", timeout: 2) } throws: {
            "\($0)".contains("did not describe itself")
        }
        // Answers describe with an empty list, then keeps reading (so the answer, not its exit, is what is judged).
        #expect {
            try ExternalEstimator(
                name: "bad", command: "sh -c 'read line; echo \"{\\\"outputs\\\": []}\"; cat > /dev/null'", timeout: 2)
        } throws: {
            "\($0)".contains("list of output names")
        }
    }
}

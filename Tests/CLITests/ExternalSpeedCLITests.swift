import Foundation
import Testing

/// External programs at their own speed, as a user runs them: a pipelined program shared by every
/// worker, the box padbench would use, and `--external-processes`' checks.
@Suite struct ExternalSpeedCLITests {
    /// A program that declares `max_in_flight` 16 and answers in reverse order of arrival: one process
    /// serves the whole run (it logs its pid), every sample gets its own answer, counts add up, and
    /// the manifest records the protocol options.
    @Test func aPipelinedProgramServesTheRunFromOneProcess() throws {
        let dir = try LandmarksCLITests.smallDataset()
        // A third sample with no face in it but a box in the manifest.
        var gray = Data("P6\n64 48\n255\n".utf8)
        gray.append(Data(repeating: 128, count: 64 * 48 * 3))
        try gray.write(to: URL(fileURLWithPath: dir + "/flat.ppm"))
        let manifest = try String(contentsOfFile: dir + "/manifest.csv", encoding: .utf8)
        // A fourth stored with EXIF orientation 6 (rotated when decoded): the request says so.
        try FileManager.default.copyItem(
            atPath: NetworksCLITests.root + "/Tests/PadImageTests/Fixtures/orient6.jpg", toPath: dir + "/orient6.jpg")
        try (manifest + "flat.ppm,bonafide,,eval,nobody,10,8,30,30\norient6.jpg,bonafide,,eval,nobody,,,,\n").write(
            toFile: dir + "/manifest.csv", atomically: true, encoding: .utf8)
        let script = """
            import json, os, sys, threading, time
            log = open(sys.argv[1], "a")
            out_lock = threading.Lock()
            def answer(obj):
                with out_lock:
                    sys.stdout.write(json.dumps(obj) + "\\n"); sys.stdout.flush()
            def later(r):
                time.sleep(0.2)
                answer({"id": r["id"], "outputs": {"pid": os.getpid(), "dataset_box": 1 if r.get("face_source") == "dataset" else 0, "orientation": r["orientation"]}})
            for line in sys.stdin:
                r = json.loads(line)
                if r.get("describe"):
                    answer({"outputs": ["pid", "dataset_box", "orientation"], "max_in_flight": 16}); continue
                log.write(r["id"] + "\\n"); log.flush()
                threading.Thread(target=later, args=(r,)).start()
            """
        try script.write(toFile: dir + "/slow.py", atomically: true, encoding: .utf8)
        let bench = try CommandLineTests.run([
            "bench", "--dataset", dir, "--profiles", "basic", "--external",
            "slow=python3 \(dir)/slow.py \(dir)/log", "--concurrency", "8", "--quiet", "--out", dir + "/run",
        ])
        #expect(bench.status == 0, "\(bench.err)")
        #expect(bench.out.contains("samples 4 = ok 4 + failed 0"))
        let rows = try String(contentsOfFile: dir + "/run/samples.csv", encoding: .utf8).split(separator: "\n")
        let header = rows[0].split(separator: ",").map(String.init)
        let pids = Set(
            rows.dropFirst().map {
                $0.split(separator: ",", omittingEmptySubsequences: false)[header.firstIndex(of: "slow.pid")!]
            })
        #expect(pids.count == 1, "one process for the whole run: \(pids)")
        // The photos' faces come from the detector; the flat image's from the manifest, and it says so.
        let given = rows.dropFirst().map {
            $0.split(separator: ",", omittingEmptySubsequences: false)[header.firstIndex(of: "slow.dataset_box")!]
        }
        #expect(given.prefix(3) == ["0", "0", "1"])
        let orientations = rows.dropFirst().map {
            $0.split(separator: ",", omittingEmptySubsequences: false)[header.firstIndex(of: "slow.orientation")!]
        }
        #expect(orientations == ["1", "1", "1", "6"])
        let written = try String(contentsOfFile: dir + "/run/manifest.json", encoding: .utf8)
        #expect(written.contains("\"max_in_flight\" : \"16\"") && written.contains("\"processes\" : \"1\""))
    }

    @Test func externalProcessesIsChecked() throws {
        let dir = try LandmarksCLITests.smallDataset()
        let bad = try CommandLineTests.run([
            "bench", "--dataset", dir, "--external", "x=true", "--external-processes", "0", "--out", dir + "/run",
        ])
        #expect(bad.status == 64 && bad.err.contains("--external-processes must be 1 to 1024, got 0"))
    }

    /// docs/external.md's batched example program (Python onnxruntime, rgb24 pixels, batches of 32) gives
    /// the built-in `minifasnet` estimator's numbers, within 1e-5, from the face box padbench sends.
    @Test func theBatchedExampleEqualsTheNativeEstimator() throws {
        let root = NetworksCLITests.root
        let dir = try LandmarksCLITests.smallDataset()
        let bench = try CommandLineTests.run([
            "bench", "--dataset", dir, "--profiles", "basic", "--estimators", "minifasnet", "--external",
            "mfn=\(root)/.venv/bin/python \(root)/examples/external/minifasnet_batched.py", "--quiet", "--out",
            dir + "/run",
        ])
        #expect(bench.status == 0, "\(bench.err)")
        let rows = try String(contentsOfFile: dir + "/run/samples.csv", encoding: .utf8).split(separator: "\n")
        let header = rows[0].split(separator: ",").map(String.init)
        #expect(rows.count == 3)
        for row in rows.dropFirst() {
            let values = row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            for output in ["score", "v2", "v1se"] {
                let native = try #require(Double(values[header.firstIndex(of: "minifasnet.\(output)")!]))
                let external = try #require(Double(values[header.firstIndex(of: "mfn.\(output)")!]))
                #expect(abs(native - external) <= 1e-5, "\(output): \(native) vs \(external)")
            }
        }
        let manifest = try String(contentsOfFile: dir + "/run/manifest.json", encoding: .utf8)
        #expect(manifest.contains("\"batch\" : \"32\"") && manifest.contains("\"input\" : \"rgb24\""))
    }
}

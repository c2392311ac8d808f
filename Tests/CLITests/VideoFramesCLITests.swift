import Foundation
import Testing

/// Video frames reach every consumer as decoded frames (issue 29): `train` decodes the sampled
/// frames as `bench` does (it read each video as an image and failed every frame), and an external
/// estimator gets each frame itself as a PPM with its presentation and frame number (it got the
/// clip's path for every frame). Both failed on 15b46ab.
@Suite struct VideoFramesCLITests {
    typealias CLI = ProfileOutputsCLITests

    /// `count` synthetic MJPEG clips of 6 frames of 64x48 (half bona fide), all in split `split`.
    static func clips(_ dir: String, count: Int, split: String? = nil) throws -> String {
        let data = dir + "/clips"
        let synth = try CommandLineTests.run([
            "dataset", "synth", "--video", "--sources", CLI.root + "/datasets/sources", "--out", data, "--count",
            String(count), "--size", "64x48", "--clip-frames", "6", "--codec", "mjpeg",
        ])
        #expect(synth.status == 0, "\(synth.err)")
        if let split {
            let lines = try String(contentsOfFile: data + "/manifest.csv", encoding: .utf8).split(separator: "\n")
            let moved = lines.dropFirst().map { line in
                var fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                fields[3] = split
                return fields.joined(separator: ",")
            }
            try ([String(lines[0])] + moved).joined(separator: "\n").appending("\n").write(
                toFile: data + "/manifest.csv", atomically: true, encoding: .utf8)
        }
        return data
    }

    /// Frame `k` of `video` as the `ffmpeg` command line decodes it (`-pix_fmt rgb24`), or any
    /// image file's pixels, written by ffmpeg to `raw` and read back.
    static func ffmpegRGB(_ input: String, frame k: Int?, _ raw: String) throws -> Data {
        let select = k.map { "-vf 'select=eq(n\\,\($0))' -vsync passthrough " } ?? ""
        let r = try CLI.padbench(
            [
                "-c",
                "ffmpeg -nostdin -loglevel error -y -i '\(input)' \(select)-pix_fmt rgb24 -f rawvideo '\(raw)'",
            ], shell: true)
        #expect(r.status == 0, "\(r.stderr)")
        return try Data(contentsOf: URL(fileURLWithPath: raw))
    }

    /// The clips' paths relative to the dataset (its presentation ids), in manifest order.
    static func manifestClips(_ data: String) throws -> [String] {
        try String(contentsOfFile: data + "/manifest.csv", encoding: .utf8).split(separator: "\n").dropFirst()
            .map { String($0.split(separator: ",")[0]) }
    }

    @Test func trainDecodesTheSampledFramesOfVideos() throws {
        let dir = CommandLineTests.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let data = try Self.clips(dir, count: 4, split: "train")
        let fromClips = try CLI.padbench(["train", "--dataset", data, "--frames", "3", "--out", dir + "/clips.json"])
        #expect(fromClips.status == 0, "\(fromClips.stderr)")
        #expect(fromClips.stdout.hasPrefix("trained on 12 samples of split train (0 failed to process)\n"))
        let stepped = try CLI.padbench(["train", "--dataset", data, "--frame-step", "4", "--out", dir + "/step.json"])
        #expect(stepped.stdout.hasPrefix("trained on 8 samples of split train (0 failed to process)\n"))
        let standard = try CLI.padbench(["train", "--dataset", data, "--out", dir + "/all.json"])
        #expect(standard.stdout.hasPrefix("trained on 24 samples of split train (0 failed to process)\n"))

        // The same frames extracted by ffmpeg as PNG (frames 1, 3, 5 of 6: the middle of 3 parts)
        // train the same model: the features are those of the same pixels.
        let stills = dir + "/stills"
        try FileManager.default.createDirectory(atPath: stills, withIntermediateDirectories: true)
        var manifest = "path,label,species,split,subject,x,y,w,h\n"
        for line in try String(contentsOfFile: data + "/manifest.csv", encoding: .utf8).split(separator: "\n")
            .dropFirst()
        {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            for k in [1, 3, 5] {
                let name = fields[0].replacingOccurrences(of: "/", with: "_") + "-\(k).png"
                let r = try CLI.padbench(
                    [
                        "-c",
                        "ffmpeg -nostdin -loglevel error -i '\(data)/\(fields[0])' -vf 'select=eq(n\\,\(k))' "
                            + "-vsync passthrough -pix_fmt rgb24 '\(stills)/\(name)'",
                    ], shell: true)
                #expect(r.status == 0, "\(r.stderr)")
                manifest += ([name] + fields.dropFirst().map(String.init)).joined(separator: ",") + "\n"
            }
        }
        try manifest.write(toFile: stills + "/manifest.csv", atomically: true, encoding: .utf8)
        let fromStills = try CLI.padbench(["train", "--dataset", stills, "--out", dir + "/stills.json"])
        #expect(fromStills.stdout.hasPrefix("trained on 12 samples of split train (0 failed to process)\n"))
        func model(_ name: String) throws -> [String: Any] {
            let data = try Data(contentsOf: URL(fileURLWithPath: dir + "/" + name))
            return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
        let video = try model("clips.json"), still = try model("stills.json")
        let videoMean = try #require(video["mean"] as? [Double]), stillMean = try #require(still["mean"] as? [Double])
        #expect(videoMean.count == 354 && videoMean == stillMean)
        #expect((video["weights"] as? [Double]) == (still["weights"] as? [Double]))
    }

    @Test func anExternalEstimatorGetsEachDecodedFrameWithItsPresentationAndNumber() throws {
        let dir = CommandLineTests.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let data = try Self.clips(dir, count: 2)
        let seen = dir + "/seen"
        try FileManager.default.createDirectory(atPath: seen, withIntermediateDirectories: true)
        // Keeps a copy of every image it is given and logs each request with whether its file existed.
        let script = """
            import json, os, shutil, sys
            seen, n = sys.argv[1], 0
            for line in sys.stdin:
                r = json.loads(line)
                if r.get("describe"):
                    print(json.dumps({"outputs": ["bytes"], "version": "1"}), flush=True)
                    continue
                r["existed"] = os.path.isfile(r["path"])
                shutil.copy(r["path"], os.path.join(seen, "%d.ppm" % n))
                n += 1
                with open(os.path.join(seen, "requests.jsonl"), "a") as log:
                    log.write(json.dumps(r) + "\\n")
                print(json.dumps({"id": r["id"], "outputs": {"bytes": os.path.getsize(r["path"])}}), flush=True)
            """
        try script.write(toFile: dir + "/probe.py", atomically: true, encoding: .utf8)
        let bench = try CLI.padbench([
            "bench", "--dataset", data, "--frames", "3", "--estimators", "image", "--external",
            "probe=python3 \(dir)/probe.py \(seen)", "--concurrency", "1", "--quiet", "--out", dir + "/run",
        ])
        #expect(bench.status == 0, "\(bench.stderr)")
        let requests = try String(contentsOfFile: seen + "/requests.jsonl", encoding: .utf8).split(separator: "\n")
            .map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(requests.count == 6)
        let clips = try Self.manifestClips(data)
        var pixels: [Data] = []
        for (n, request) in requests.enumerated() {
            let presentation = try #require(request["presentation"] as? String)
            let frame = try #require(request["frame"] as? Int)
            let path = try #require(request["path"] as? String)
            #expect(clips.contains(presentation) && [1, 3, 5].contains(frame), "\(request)")
            #expect(request["id"] as? String == "\(presentation)#\(frame)")
            #expect(request["video"] as? String == data + "/" + presentation)
            #expect(abs((request["time"] as? Double ?? -1) - Double(frame) / 15) < 1e-9, "\(request)")
            // A PPM that existed while the program read it and is gone after the run.
            #expect(path.hasSuffix(".ppm") && request["existed"] as? Bool == true)
            #expect(!FileManager.default.fileExists(atPath: path))
            let given = try Self.ffmpegRGB(seen + "/\(n).ppm", frame: nil, dir + "/given.rgb")
            let decoded = try Self.ffmpegRGB(data + "/" + presentation, frame: frame, dir + "/decoded.rgb")
            #expect(given.count == 64 * 48 * 3 && given == decoded, "frame \(frame) of \(presentation)")
            pixels.append(given)
        }
        #expect(Set(pixels).count == 6, "every frame the program saw is a different image")
    }
}

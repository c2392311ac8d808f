import Foundation
import Testing

/// Videos as a user meets them: synthesised clips, `dataset check` on them (with a file that is
/// not a video), and `bench` measuring their frames with the broken video recorded, not fatal.
@Suite struct VideoCLITests {
    typealias CLI = CommandLineTests

    @Test func synthesisedClipsAreCheckedAndBenchedFrameByFrame() throws {
        let dir = CLI.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let data = dir + "/clips"
        let synth = try CLI.run(
            [
                "dataset", "synth", "--video", "--sources", ProfileOutputsCLITests.root + "/datasets/sources", "--out",
                data, "--count", "4", "--size", "64x48", "--clip-frames", "6", "--codec", "mjpeg",
            ])
        #expect(synth.status == 0, "\(synth.err)")
        #expect(synth.out.hasPrefix("wrote 4 clips of 6 frames and manifest.csv to \(data)"))
        try "not a video".write(toFile: data + "/broken.avi", atomically: true, encoding: .utf8)
        var manifest = try String(contentsOfFile: data + "/manifest.csv", encoding: .utf8)
        manifest += "broken.avi,attack,print,eval,someone,,,,\n"
        try manifest.write(toFile: data + "/manifest.csv", atomically: true, encoding: .utf8)

        let check = try CLI.run(["dataset", "check", data, "--frames", "3"])
        #expect(check.status == 1)
        #expect(check.out.contains("\(data): 13 samples\n") || check.out.contains("13 samples"))
        #expect(check.out.contains("presentations: 5; frames per presentation: min 1, median 3, max 3\n"))
        #expect(check.out.contains("videos: 5 (1 cannot be opened); frames in the files: min 6, max 6\n"))
        #expect(check.out.contains("\(data)/broken.avi: video cannot be opened: unsupported_format"))

        let bench = try CLI.run([
            "bench", "--dataset", data, "--frames", "2", "--profiles", "basic", "--quiet", "--out", dir + "/run",
        ])
        #expect(bench.status == 0, "\(bench.err)")
        let rows = try String(contentsOfFile: dir + "/run/samples.csv", encoding: .utf8).split(separator: "\n")
        #expect(rows.count == 1 + 4 * 2 + 1)
        #expect(rows[0].hasPrefix("id,path,label,species,split,subject,presentation,frame,time,status,error,"))
        // 6 frames in 2 parts: frames 1 and 4, at 1/15 and 4/15 s.
        let first = rows[1].split(separator: ",", omittingEmptySubsequences: false)
        #expect(first[0].hasSuffix(".avi#1") && first[7] == "1" && first[9] == "ok")
        #expect(abs(Double(first[8])! - 1.0 / 15) < 1e-9)
        let broken = rows.first { $0.hasPrefix("broken.avi,") }
        #expect(
            broken?.contains(",unsupported_format,\"not a video padbench reads (AVI, MOV, MP4, MKV, WebM): ") == true)
    }

    @Test func bothFrameOptionsAtOnceIsAUsageError() throws {
        let result = try CLI.run(["dataset", "check", "somewhere", "--frames", "3", "--frame-step", "2"])
        #expect(result.status == 64)
        #expect(result.err.contains("give --frames or --frame-step, not both"))
    }
}

/// `scripts/rebuild-sample.sh` rebuilds the committed sample byte for byte; its video part, checked
/// here (the stills take a minute in a debug build and are the generator's own determinism): the
/// synthesised clips, named `video/<split>/<class>/clipNNNNNN.avi` as the script names them, are
/// the committed files, and their manifest rows are the committed `video/` rows.
@Suite struct SampleRebuildCLITests {
    @Test func videoPartRebuildsByteForByte() throws {
        let root = ProfileOutputsCLITests.root
        let dir = CommandLineTests.folder()
        let synth = try CommandLineTests.run(
            [
                "dataset", "synth", "--video", "--sources", "datasets/sources", "--out", dir + "/clips", "--count", "8",
                "--clip-frames", "8", "--seed", "20261127",
            ], in: root)
        #expect(synth.status == 0, "\(synth.err)")
        let made = try String(contentsOfFile: dir + "/clips/manifest.csv", encoding: .utf8).split(separator: "\n")
        let committed = try String(contentsOfFile: root + "/datasets/sample/manifest.csv", encoding: .utf8)
            .split(separator: "\n").filter { $0.hasPrefix("video/") }.map(String.init)
        var rows: [String] = []
        for line in made.dropFirst() {
            let path = String(line.prefix { $0 != "," })
            let name =
                "video/" + (path as NSString).deletingLastPathComponent + "/clip"
                + (path as NSString).lastPathComponent
            rows.append(name + line.dropFirst(path.count))
            let rebuilt = try Data(contentsOf: URL(fileURLWithPath: dir + "/clips/" + path))
            #expect(
                rebuilt == (try Data(contentsOf: URL(fileURLWithPath: root + "/datasets/sample/" + name))), "\(name)")
        }
        #expect(rows == committed)
        try? FileManager.default.removeItem(atPath: dir)
    }
}

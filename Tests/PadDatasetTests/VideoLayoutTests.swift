import Foundation
import Testing
@testable import PadDataset
@testable import PadSamples
import PadImage
import PadVideo
import TestSupport

/// Videos in datasets: frames sampled into samples of one presentation, in every layout that
/// holds videos, and `dataset check`'s counts. Clips are written by padbench's own encoder.
@Suite struct VideoLayoutTests {
    /// A 12-frame clip at 10 frames/s (Motion JPEG in AVI, whatever the extension says).
    static func writeClip(_ path: String, frames: Int = 12) throws {
        let images = (0..<frames).map { t in
            Image(
                width: 32, height: 24, format: .rgb, pixels: (0..<(32 * 24 * 3)).map { UInt8(($0 / 3 + t * 5) % 200) })
        }
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(VideoEncoder.encode(images, rate: 10, codec: .mjpeg)).write(to: URL(fileURLWithPath: path))
    }

    static func folder() throws -> String {
        let path = TestFolder.root + "/padbench-videolayout-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func write(_ text: String, _ path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// A clip `eval/bonafide/a.avi` and an 8x8 grey PNG still at `still` under `root`.
    static func clipAndStill(_ root: String, still: String) throws {
        try writeClip(root + "/eval/bonafide/a.avi")
        try Data(ImageEncoder.png(Image(width: 8, height: 8, format: .gray))).write(
            to: URL(fileURLWithPath: root + "/" + still))
    }

    /// A still image whose id is a frame's (`a.avi#3` beside `a.avi`) is two samples of one id,
    /// which every id-keyed table merges: a `duplicate_id` problem naming the file and the video.
    @Test func aStillNamedLikeAFrameIsADuplicateID() throws {
        let root = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Self.clipAndStill(root, still: "eval/bonafide/a.avi#3")
        try Self.write(
            "path,label,species,split,subject\neval/bonafide/a.avi,bonafide,,eval,s1\n"
                + "eval/bonafide/a.avi#3,bonafide,,eval,s1\n", root + "/manifest.csv")
        let loaded = try DatasetLoader(video: VideoOptions(sampling: .step(1))).load(root)
        #expect(loaded.problems.map(\.kind) == [.duplicateID])
        #expect(
            loaded.problems.first?.message
                == "the still image's id 'eval/bonafide/a.avi#3' is also the id of a video frame (frame 3 of the "
                + "video listed as 'eval/bonafide/a.avi'); rename the file")
        // Sampling that leaves frame 3 out: no clash.
        let few = try DatasetLoader(video: VideoOptions(sampling: .count(1))).load(root)
        #expect(few.problems.isEmpty)
    }

    @Test func aManifestVideoBecomesItsSampledFramesAndABrokenOneStaysOneSample() throws {
        let root = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Self.clipAndStill(root, still: "eval/bonafide/b.png")
        try Self.write("not a video", root + "/eval/attack/print/c.avi")
        try Self.write(
            "path,label,species,split,subject\neval/bonafide/a.avi,bonafide,,eval,s1\n"
                + "eval/bonafide/b.png,bonafide,,eval,s2\neval/attack/print/c.avi,attack,print,eval,s3\n",
            root + "/manifest.csv")
        let loaded = try DatasetLoader(video: VideoOptions(sampling: .count(4))).load(root)
        let samples = Array(loaded.samples)
        // 12 frames in 4 parts: frames 1, 4, 7, 10, shown at 0.1, 0.4, 0.7 and 1.0 s.
        #expect(
            samples.map(\.id) == [
                "eval/bonafide/a.avi#1", "eval/bonafide/a.avi#4", "eval/bonafide/a.avi#7",
                "eval/bonafide/a.avi#10", "eval/bonafide/b.png", "eval/attack/print/c.avi",
            ])
        #expect(
            samples.map(\.presentation) == Array(repeating: "eval/bonafide/a.avi", count: 4) + [
                "eval/bonafide/b.png", "eval/attack/print/c.avi",
            ])
        #expect(samples.map(\.frameIndex) == [1, 4, 7, 10, nil, nil])
        #expect(samples.prefix(4).map { ($0.timestamp! * 10).rounded() } == [1, 4, 7, 10])
        #expect(samples[0].path == root + "/eval/bonafide/a.avi" && samples[0].subject == "s1")
        #expect(loaded.problems.isEmpty) // an unopenable video is a failed sample, not a listing problem
        #expect(loaded.videos.map(\.frameCount) == [12, 0])
        #expect(loaded.videos[1].error?.statusCode == .unsupportedFormat)

        let check = DatasetCheck.run(loaded)
        #expect(check.text.contains("presentations: 3; frames per presentation: min 1, median 1, max 4\n"))
        #expect(check.text.contains("videos: 2 (1 cannot be opened); frames in the files: min 12, max 12\n"))
        // Presentations beside frames: a.avi's 4 frames are one bona fide presentation.
        #expect(
            check.text.contains("label:\n  attack: 1 sample, 1 presentation\n  bonafide: 5 samples, 2 presentations\n"))
        #expect(check.text.contains("  s1: 4 samples, 1 presentation\n"))
        #expect(check.problems.map(\.kind) == [.undecodable])
        #expect(check.problems.first?.file == root + "/eval/attack/print/c.avi")
    }

    @Test func frameStepTakesEveryKthFrameOfATreeVideo() throws {
        let root = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Self.writeClip(root + "/attack/replay/z.mkv")
        let loaded = try DatasetLoader(video: VideoOptions(sampling: .step(5))).load(root)
        #expect(loaded.layout == .tree)
        #expect(
            loaded.samples.map(\.id) == ["attack/replay/z.mkv#0", "attack/replay/z.mkv#5", "attack/replay/z.mkv#10"])
        #expect(loaded.samples.allSatisfy { $0.label == .attack(species: "replay") })
    }

    @Test func ouluNPUVideosTakeTheirSplitFromTheProtocolOrTheirFolder() throws {
        let root = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Self.writeClip(root + "/Train_files/1_1_01_1.avi")
        try Self.writeClip(root + "/Dev_files/1_1_21_2.avi")
        try Self.writeClip(root + "/Test_files/2_3_36_5.avi")
        try Self.write("+1,1_1_01_1\n", root + "/Protocols/Protocol_1/Train.txt")
        try Self.write("-1,1_1_21_2\n", root + "/Protocols/Protocol_1/Dev.txt")
        try Self.write("-1,2_3_36_5\n", root + "/Protocols/Protocol_1/Test.txt")
        for loader in [
            DatasetLoader(video: VideoOptions(sampling: .count(2))),
            DatasetLoader(ouluProtocol: 1, video: VideoOptions(sampling: .count(2))),
        ] {
            let loaded = try loader.load(root)
            #expect(loaded.layout == .ouluNPU && loaded.problems.isEmpty)
            let samples = Array(loaded.samples)
            #expect(
                samples.map(\.id) == [
                    "Dev_files/1_1_21_2.avi#3", "Dev_files/1_1_21_2.avi#9",
                    "Test_files/2_3_36_5.avi#3", "Test_files/2_3_36_5.avi#9",
                    "Train_files/1_1_01_1.avi#3", "Train_files/1_1_01_1.avi#9",
                ])
            #expect(samples.map(\.split) == [.dev, .dev, .eval, .eval, .train, .train])
            #expect(
                samples.map(\.label) == [
                    .attack(species: "print"), .attack(species: "print"),
                    .attack(species: "replay"), .attack(species: "replay"), .bonaFide, .bonaFide,
                ])
            #expect(samples.map(\.subject) == ["21", "21", "36", "36", "01", "01"])
            #expect(samples[0].presentation == "Dev_files/1_1_21_2.avi")
        }
    }

    @Test func extractedOuluNPUFramesOfOneVideoAreOnePresentation() throws {
        let root = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let png = try ImageEncoder.png(Image(width: 8, height: 8, format: .gray))
        for name in ["1_1_01_1_frame0.png", "1_1_01_1_frame1.png", "1_1_01_2_frame0.png"] {
            try FileManager.default.createDirectory(atPath: root + "/frames", withIntermediateDirectories: true)
            try Data(png).write(to: URL(fileURLWithPath: root + "/frames/" + name))
        }
        try FileManager.default.createDirectory(atPath: root + "/Protocols", withIntermediateDirectories: true)
        let loaded = try DatasetLoader().load(root)
        #expect(loaded.samples.map(\.presentation) == ["1_1_01_1", "1_1_01_1", "1_1_01_2"])
    }

    @Test func replayAttackTreeSkipsEnrolmentAndReadsSpeciesAndClientFromNames() throws {
        let root = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let files = [
            "train/real/client001_session01_webcam_authenticate_adverse_1.mov",
            "train/attack/hand/attack_highdef_client001_session01_highdef_photo_adverse.mov",
            "devel/attack/fixed/attack_print_client002_session01_highdef_photo_controlled.mov",
            "test/attack/fixed/attack_mobile_client003_session01_mobile_video_adverse.mov",
            "enroll/train/client001_session01_enroll.mov",
        ]
        for file in files { try Self.writeClip(root + "/" + file, frames: 3) }
        let loaded = try DatasetLoader(video: VideoOptions(sampling: .count(1))).load(root)
        #expect(loaded.layout == .replayAttack && loaded.problems.isEmpty)
        let samples = Array(loaded.samples)
        let byPresentation = Dictionary(uniqueKeysWithValues: samples.map { ($0.presentation, $0) })
        #expect(byPresentation.count == 4)
        #expect(byPresentation[files[0]]?.label == .bonaFide && byPresentation[files[0]]?.split == .train)
        #expect(byPresentation[files[1]]?.label == .attack(species: "replay-photo"))
        #expect(byPresentation[files[2]]?.label == .attack(species: "print") && byPresentation[files[2]]?.split == .dev)
        #expect(byPresentation[files[3]]?.label == .attack(species: "replay-video"))
        #expect(byPresentation[files[3]]?.split == .eval && byPresentation[files[3]]?.subject == "client003")
        #expect(samples.allSatisfy { $0.frameIndex == 1 })
    }

    @Test func aListWhoseFirstSampleIsAFrameKeepsItsFrameIndexAndTime() {
        var list = SampleList(root: "r")
        list.append(
            Sample(
                id: "v.avi#3", path: "r/v.avi", label: .bonaFide, presentation: "v.avi", frameIndex: 3, timestamp: 0.1))
        list.append(
            Sample(
                id: "v.avi#9", path: "r/v.avi", label: .bonaFide, presentation: "v.avi", frameIndex: 9, timestamp: 0.3))
        #expect(list.map(\.frameIndex) == [3, 9])
        #expect(list.map(\.timestamp) == [0.1, 0.3])
    }
}

@Suite struct VideoShardTests {
    @Test func theFramesOfOneVideoStayInOneShard() {
        let frames = (0..<40).map { k in
            Sample(
                id: "v\(k % 4).avi#\(k)", path: "r/v\(k % 4).avi", label: .bonaFide, presentation: "v\(k % 4).avi",
                frameIndex: k)
        }
        for n in 2...5 {
            for video in 0..<4 {
                let of = frames.filter { $0.presentation == "v\(video).avi" }
                let shards = Set(of.map { sample in (1...n).first { Shard(index: $0, count: n).contains(sample) }! })
                #expect(shards.count == 1)
            }
        }
        // Still images keep their shard: their presentation is their id.
        let still = Sample(id: "a.jpg", path: "r/a.jpg", label: .bonaFide)
        #expect(Shard(index: Int(Shard.fnv1a64("a.jpg") % 3) + 1, count: 3).contains(still))
    }
}

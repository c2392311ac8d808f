import Foundation
import Testing
@testable import PadDataset
@testable import PadImage
import PadVocabulary

/// Layout-faithful fixtures built from the published conventions (datasets/README.md).
@Suite struct PublicLayoutTests {
    static func jpeg(_ w: Int, _ h: Int) throws -> [UInt8] {
        try ImageEncoder.jpeg(Image(width: w, height: h, format: .gray))
    }

    static func labels(_ type: Int, _ spoof: Int) -> String {
        var v = Array(repeating: 0, count: 44)
        v[40] = type
        v[43] = spoof
        return "[" + v.map(String.init).joined(separator: ", ") + "]"
    }

    @Test func celebASpoofLabelsBoxesAndProblems() throws {
        let root = temporaryFolder()
        touch(root + "/Data/train/10001/live/000001.jpg", try Self.jpeg(448, 224))
        try "112 56 44 22 0.99\n".write(
            toFile: root + "/Data/train/10001/live/000001_BB.txt", atomically: true, encoding: .utf8)
        touch(root + "/Data/train/10001/spoof/000002.jpg", try Self.jpeg(224, 224))
        touch(
            root + "/Data/test/7/spoof/000003.png", try ImageEncoder.png(Image(width: 112, height: 112, format: .gray)))
        try "10 20 30\n".write(toFile: root + "/Data/test/7/spoof/000003_BB.txt", atomically: true, encoding: .utf8)
        touch(root + "/Data/test/7/spoof/000004.jpg", try Self.jpeg(224, 224))
        try FileManager.default.createDirectory(atPath: root + "/metas/intra_test", withIntermediateDirectories: true)
        try """
        {
        "Data/train/10001/live/000001.jpg": \(Self.labels(0, 0)),
        "Data/train/10001/spoof/000002.jpg": \(Self.labels(9, 1)),
        "Data/train/10001/spoof/000099.jpg": \(Self.labels(1, 1))
        }
        """.write(toFile: root + "/metas/intra_test/train_label.json", atomically: true, encoding: .utf8)
        try """
        {
        "Data/test/7/spoof/000003.png": \(Self.labels(2, 1)),
        "Data/test/7/spoof/000004.jpg": \(Self.labels(11, 1))
        }
        """.write(toFile: root + "/metas/intra_test/test_label.json", atomically: true, encoding: .utf8)
        let loaded = try DatasetLoader().load(root)
        #expect(loaded.layout == .celebASpoof)
        #expect(loaded.samples.map(\.id) == ["Data/train/10001/live/000001.jpg", "Data/train/10001/spoof/000002.jpg"])
        #expect(loaded.samples.map(\.label) == [.bonaFide, .attack(species: "phone_screen")])
        #expect(loaded.samples[0].split == .train && loaded.samples[0].subject == "10001")
        // 112 56 44 22 in the 224x224 frame, image 448x224: x and width scale by 2.
        #expect(loaded.samples[0].faceBox == Box(x: 224, y: 56, width: 88, height: 22))
        let byMessage = loaded.problems.map {
            "\(($0.file as NSString).lastPathComponent):\($0.line) \($0.kind.rawValue)"
        }.sorted()
        #expect(
            byMessage == [
                "000003_BB.txt:1 bad_line", "test_label.json:3 unknown_label", "train_label.json:4 missing_file",
            ])
    }

    @Test func ouluNPUNamesAndProtocolLists() throws {
        let root = temporaryFolder()
        for name in [
            "1_1_01_1_000.jpg", "1_1_01_2_000.jpg", "2_2_05_4_010.jpg", "3_1_20_5_000.jpg", "6_3_33_3_000.jpg",
        ] {
            touch(root + "/frames/" + name, try Self.jpeg(32, 32))
        }
        touch(root + "/frames/notes.jpg", try Self.jpeg(32, 32))
        try FileManager.default.createDirectory(
            atPath: root + "/Protocols/Protocol_1", withIntermediateDirectories: true)
        try "+1,1_1_01_1\n-1,1_1_01_2\n".write(
            toFile: root + "/Protocols/Protocol_1/Train.txt", atomically: true, encoding: .utf8)
        try "-2,2_2_05_4\n".write(toFile: root + "/Protocols/Protocol_1/Dev.txt", atomically: true, encoding: .utf8)
        try "-1,3_1_20_5\n-1,4_1_40_3\nbogus line\n".write(
            toFile: root + "/Protocols/Protocol_1/Test.txt", atomically: true, encoding: .utf8)
        let loaded = try DatasetLoader(ouluProtocol: 1).load(root)
        #expect(loaded.layout == .ouluNPU)
        #expect(
            loaded.samples.map { ($0.id as NSString).lastPathComponent } == [
                "1_1_01_1_000.jpg", "1_1_01_2_000.jpg", "2_2_05_4_010.jpg", "3_1_20_5_000.jpg",
            ])
        #expect(
            loaded.samples.map(\.label) == [
                .bonaFide, .attack(species: "print"), .attack(species: "replay"), .attack(species: "replay"),
            ])
        #expect(loaded.samples.map(\.split) == [.train, .train, .dev, .eval])
        #expect(loaded.samples[0].subject == "01")
        // Each frame's presentation is its video.
        #expect(loaded.samples.map(\.presentation) == ["1_1_01_1", "1_1_01_2", "2_2_05_4", "3_1_20_5"])
        let kinds = loaded.problems.map { "\($0.kind.rawValue):\($0.line)" }.sorted()
        // notes.jpg is not an OULU name; Test.txt line 3 is malformed; 4_1_40_3 has no frames.
        #expect(kinds == ["bad_line:3", "missing_file:0", "unknown_label:0"])
        // Protocol 3 without a fold: the lists are missing, each named.
        #expect(try DatasetLoader(ouluProtocol: 3).load(root).problems.filter { $0.kind == .missingFile }.count >= 3)
    }
}

import Foundation
import Testing
@testable import PadDataset
@testable import PadImage

func temporaryFolder(_ name: String = #function) -> String {
    let path = NSTemporaryDirectory() + "padbench-dataset-\(name.filter(\.isLetter))-\(UUID().uuidString)"
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

func touch(_ path: String, _ bytes: [UInt8] = [0xFF, 0xD8, 0xFF]) {
    try! FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    try! Data(bytes).write(to: URL(fileURLWithPath: path))
}

@Suite struct ManifestTests {
    @Test func badLinesAreNamedWithTheirLineAndGoodLinesStillLoad() throws {
        let root = temporaryFolder()
        try """
            path,label,species,split,subject,x,y,w,h
            a.jpg,bonafide,,train,s1,1,2,30,40
            b.jpg,attack,print,dev,s2,,,,
            ../escape.jpg,bonafide,,eval,s3,,,,
            /etc/passwd,bonafide,,eval,s3,,,,
            c.jpg,spoofy,,eval,s3,,,,
            d.jpg,attack,,eval,s3,,,,
            e.jpg,bonafide,,later,s3,,,,
            f.jpg,bonafide,,eval,s3,1,2,-5,4
            a.jpg,bonafide,,train,s1,,,,
            g.jpg,bonafide,,eval
            """.write(toFile: root + "/manifest.csv", atomically: true, encoding: .utf8)
        let loaded = try DatasetLoader().load(root)
        #expect(loaded.layout == .manifest)
        #expect(loaded.samples.map(\.id) == ["a.jpg", "b.jpg"])
        #expect(loaded.samples[0].faceBox == Box(x: 1, y: 2, width: 30, height: 40))
        #expect(loaded.samples[1].label == .attack(species: "print") && loaded.samples[1].split == .dev)
        #expect(loaded.problems.map(\.line) == [4, 5, 6, 7, 8, 9, 10, 11])
        #expect(loaded.problems.map(\.kind) == [.escapesRoot, .escapesRoot, .unknownLabel, .unknownLabel, .badLine, .badLine, .duplicateID, .badLine])
        #expect(loaded.problems[2].description == root + "/manifest.csv:6: unknown label 'spoofy' (expected bonafide or attack)")
    }

    @Test func missingFolderIsAnError() {
        #expect(throws: DatasetProblem.self) { try DatasetLoader().load("/nonexistent/padbench") }
    }
}

@Suite struct TreeLayoutTests {
    @Test func splitsLabelsAndSpeciesFromFolders() throws {
        let root = temporaryFolder()
        touch(root + "/train/bonafide/p1/x.jpg")
        touch(root + "/train/attack/print/y.png")
        touch(root + "/eval/attack/replay/sub/z.jpeg")
        touch(root + "/eval/bonafide/notes.txt")
        touch(root + "/eval/attack/loose.jpg")
        let loaded = try DatasetLoader().load(root)
        #expect(loaded.layout == .tree)
        #expect(loaded.samples.map(\.id) == ["eval/attack/replay/sub/z.jpeg", "train/attack/print/y.png", "train/bonafide/p1/x.jpg"])
        #expect(loaded.samples.map(\.label) == [.attack(species: "replay"), .attack(species: "print"), .bonaFide])
        #expect(loaded.samples.map(\.split) == [.eval, .train, .train])
        #expect(loaded.problems.count == 1 && loaded.problems[0].file == "eval/attack/loose.jpg")
    }
}

@Suite struct ShardTests {
    @Test func shardsAreDisjointCoverAndStable() {
        let samples = (0..<1000).map { Sample(id: "img\($0).jpg", path: "", label: .bonaFide) }
        let shards = (1...4).map { k in samples.filter(Shard(index: k, count: 4).contains).map(\.id) }
        #expect(shards.map(\.count).reduce(0, +) == 1000)
        #expect(Set(shards.flatMap { $0 }).count == 1000)
        #expect(shards.allSatisfy { $0.count > 200 && $0.count < 300 })
        // FNV-1a 64 of "a" (reference value from the FNV specification's test vectors).
        #expect(Shard.fnv1a64("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(Shard(parsing: "0/4") == nil && Shard(parsing: "5/4") == nil && Shard(parsing: "2/4") == Shard(index: 2, count: 4))
    }
}

@Suite struct SynthesisTests {
    static func sources() throws -> String {
        let folder = temporaryFolder()
        var photo = Image(width: 64, height: 64, format: .rgb)
        for i in photo.pixels.indices { photo.pixels[i] = UInt8((i * 37) % 251) }
        touch(folder + "/a.png", try ImageEncoder.png(photo))
        touch(folder + "/b.png", try ImageEncoder.png(photo.oriented(.down)))
        try "file,subject,x,y,w,h,licence\na.png,alice,16,16,32,32,test\nb.png,bob,10,12,30,30,test\n"
            .write(toFile: folder + "/sources.csv", atomically: true, encoding: .utf8)
        return folder
    }

    @Test func sameArgumentsGiveIdenticalBytesAndSubjectsNeverShareSplits() throws {
        let generator = try SyntheticDatasetGenerator(sourcesFolder: Self.sources())
        let one = temporaryFolder(), two = temporaryFolder()
        try generator.generate(into: one, count: 8, seed: 5, width: 80, height: 60, concurrency: 2)
        try generator.generate(into: two, count: 8, seed: 5, width: 80, height: 60, concurrency: 1)
        let manifest = try String(contentsOfFile: one + "/manifest.csv", encoding: .utf8)
        #expect(manifest == (try String(contentsOfFile: two + "/manifest.csv", encoding: .utf8)))
        let loaded = try DatasetLoader().load(one)
        #expect(loaded.samples.count == 8 && loaded.problems.isEmpty)
        for sample in loaded.samples {
            let a = try Data(contentsOf: URL(fileURLWithPath: sample.path))
            let b = try Data(contentsOf: URL(fileURLWithPath: two + "/" + sample.id))
            #expect(a == b, "\(sample.id) differs between runs")
            #expect(try ImageDecoder().decode(fileAt: sample.path).width == 80)
        }
        var splitOfSubject: [String: Split] = [:]
        for sample in loaded.samples {
            if let seen = splitOfSubject[sample.subject] { #expect(seen == sample.split) }
            splitOfSubject[sample.subject] = sample.split
        }
        #expect(Set(loaded.samples.compactMap(\.label.species)) == ["print", "replay"])
        #expect(loaded.samples.filter(\.label.isBonaFide).count == 4)
        // A different seed gives different pixels.
        let three = temporaryFolder()
        try generator.generate(into: three, count: 2, seed: 6, width: 80, height: 60)
        let first = loaded.samples.first { $0.id.hasSuffix("000000.jpg") }!
        let other = try DatasetLoader().load(three).samples.first { $0.id.hasSuffix("000000.jpg") }!
        #expect(try Data(contentsOf: URL(fileURLWithPath: first.path)) != Data(contentsOf: URL(fileURLWithPath: other.path)))
    }
}

@Suite struct DatasetCheckTests {
    @Test func reportsMissingUndecodableAndDuplicates() throws {
        let root = temporaryFolder()
        var image = Image(width: 8, height: 8, format: .gray)
        image.pixels[3] = 200
        let jpeg = try ImageEncoder.jpeg(image)
        touch(root + "/bonafide/a.jpg", jpeg)
        touch(root + "/bonafide/copy.jpg", jpeg)
        touch(root + "/attack/print/bad.jpg", Array(jpeg.prefix(20)))
        let check = DatasetCheck.run(try DatasetLoader().load(root))
        #expect(check.byLabel == ["bonafide": 2, "attack": 1])
        #expect(check.problems.map(\.kind).sorted { $0.rawValue < $1.rawValue } == [.duplicateContent, .undecodable])
    }
}

import Foundation
import PadVocabulary
import Testing
import PadDataset
import PadSamples
import PadImage
import PadText

/// The examples the PadDataset doc comments point to, compiled and checked here.
@Suite struct PadDatasetDocExamples {
    static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("datasets/sample").path

    /// ``Shard``: `Shard(parsing: "2/4")` and `samples.filter(shard.contains)`; the four shards
    /// partition the samples.
    @Test func shard() throws {
        let shard = try #require(Shard(parsing: "2/4"))
        #expect(shard == Shard(index: 2, count: 4) && shard.description == "2/4")
        #expect(Shard(parsing: "5/4") == nil && Shard(parsing: "2") == nil)
        let samples = (0..<40).map { Sample(id: "s\($0).jpg", path: "s\($0).jpg", label: .bonaFide) }
        let mine = samples.filter(shard.contains)
        let all = (1...4).map { k in samples.filter(Shard(index: k, count: 4).contains) }
        #expect(all[1] == mine && all.map(\.count).reduce(0, +) == samples.count)
        #expect(Set(all.flatMap { $0.map(\.id) }).count == samples.count)
    }

    /// ``FNV1a``: the published FNV-1a 64 vector for "a", and the value Python computes for
    /// "sample-001.jpg" (`h = ((h ^ b) * 0x100000001b3) mod 2^64` from 0xcbf29ce484222325).
    @Test func fnv1a() {
        #expect(FNV1a.hash("a") == 0xaf63_dc4c_8601_ec8c)
        let h = FNV1a.hash("sample-001.jpg")
        #expect(FNV1a.hex(h) == "89996ce0be726e94")
        #expect(FNV1a.hex(1) == "0000000000000001")
    }

    /// ``Label``: `Label.attack(species: "print")`.
    @Test func label() {
        let label = Label.attack(species: "print")
        #expect(label.csvLabel == "attack" && label.species == "print")
        #expect(Label.bonaFide.csvLabel == "bonafide" && Label.bonaFide.species == nil)
    }

    /// ``DatasetLoader`` and ``DatasetCheck`` on the committed sample (80 images and 8 clips of 8
    /// frames, each frame a sample: 144 samples in 88 presentations, manifest layout).
    @Test func loaderAndCheck() throws {
        let dataset = try DatasetLoader().load(Self.sample)
        #expect(dataset.samples.count == 144 && dataset.problems.isEmpty && dataset.layout == .manifest)
        #expect(dataset.videos.count == 8 && dataset.videos.allSatisfy { $0.frameCount == 8 && $0.error == nil })
        let report = DatasetCheck.run(dataset, decode: false)
        #expect(report.problems.isEmpty)
        #expect(report.byLabel["bonafide", default: 0] + report.byLabel["attack", default: 0] == 144)
        #expect(report.framesPerPresentation.count == 88)
    }

    /// ``SplitMix64``: seeded, reproducible, `uniform(low, high)` within its range.
    @Test func splitMix() {
        var a = SplitMix64(seed: 42), b = SplitMix64(seed: 42)
        let gain = a.uniform(0.8, 1.2)
        #expect(gain >= 0.8 && gain < 1.2 && gain == b.uniform(0.8, 1.2))
        // SplitMix64 reference (Vigna): the first output for seed 0 is 0xe220a8397b1dcdaf.
        var zero = SplitMix64(seed: 0)
        #expect(zero.next() == 0xe220_a839_7b1d_cdaf)
    }

    /// ``PresentationSynthesizer``: a print attack from a flat photo is a decodable JPEG of the
    /// requested size, the same for the same seed.
    @Test func synthesizer() throws {
        let photo = Image(width: 320, height: 240, format: .rgb, pixels: [UInt8](repeating: 128, count: 320 * 240 * 3))
        let box = Box(x: 100, y: 60, width: 100, height: 100)
        var rng = SplitMix64(seed: 7), again = SplitMix64(seed: 7)
        let shot = try PresentationSynthesizer(width: 160, height: 120).make(.print, from: photo, face: box, rng: &rng)
        let repeated = try PresentationSynthesizer(width: 160, height: 120).make(
            .print, from: photo, face: box, rng: &again)
        #expect(shot.jpeg == repeated.jpeg)
        let decoded = try ImageDecoder().decode(shot.jpeg)
        #expect(decoded.width == 160 && decoded.height == 120)
    }
}

/// The examples the PadText doc comments point to (PadText has no test target of its own).
@Suite struct PadTextDocExamples {
    /// ``CSVReader``: BOM skipped, CRLF, a quoted comma and doubled quotes; records keep their line.
    @Test func csvReader() throws {
        let records = try CSVReader.parse(Array("\u{FEFF}a,b\r\n\"x, y\",\"say \"\"hi\"\"\"\r\n".utf8))
        #expect(records.count == 2 && records[0].fields == ["a", "b"])
        #expect(records[1].fields == ["x, y", "say \"hi\""] && records[1].line == 2)
    }

    /// ``RegularFile``: the sample manifest is read; a directory is refused by name.
    @Test func regularFile() throws {
        let bytes = try RegularFile.read(PadDatasetDocExamples.sample + "/manifest.csv")
        #expect(bytes.starts(with: Array("path,label,species,split,subject".utf8)))
        #expect(RegularFile.problem(PadDatasetDocExamples.sample) == "is a directory, not a file")
    }
}

import Foundation
import PadVocabulary
import Testing
@testable import PadDataset
@testable import PadImage

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
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: first.path)) != Data(contentsOf: URL(fileURLWithPath: other.path))
        )
    }
}

import Foundation
import Testing
@testable import PadDataset
@testable import PadImage

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
        #expect(
            loaded.samples.map(\.id) == [
                "eval/attack/replay/sub/z.jpeg", "train/attack/print/y.png", "train/bonafide/p1/x.jpg",
            ])
        #expect(loaded.samples.map(\.label) == [.attack(species: "replay"), .attack(species: "print"), .bonaFide])
        #expect(loaded.samples.map(\.split) == [.eval, .train, .train])
        #expect(loaded.problems.count == 1 && loaded.problems[0].file == "eval/attack/loose.jpg")
    }

    /// `caf\xE9.jpg` (Latin-1) became the id `caf\u{FFFD}.jpg`, measured as a missing file; a name
    /// that really holds U+FFFD is a sample like any other.
    @Test func namesThatAreNotUTF8AreRefusedByName() throws {
        let root = temporaryFolder()
        touch(root + "/bonafide/ok.jpg")
        touch(root + "/bonafide/real\u{FFFD}.jpg")
        let latin: [UInt8] = Array((root + "/bonafide/caf").utf8) + [0xE9] + Array(".jpg".utf8) + [0]
        let fd = latin.withUnsafeBufferPointer {
            open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_CREAT | O_WRONLY, 0o644)
        }
        #expect(fd >= 0)
        close(fd)
        let loaded = try DatasetLoader().load(root)
        #expect(loaded.samples.map(\.id) == ["bonafide/ok.jpg", "bonafide/real\u{FFFD}.jpg"])
        #expect(loaded.problems.count == 1)
        #expect(
            loaded.problems.first?.description
                == root + "/bonafide/caf\u{FFFD}.jpg: name is not UTF-8 (rename the file or its folder)")
    }
}

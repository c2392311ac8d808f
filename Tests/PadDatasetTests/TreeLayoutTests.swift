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
}

import Testing
@testable import PadDataset
import PadSamples

/// The manifest layout's duplicate-id index finds duplicate ids as a dictionary would.
@Suite struct IDIndexTests {
    @Test func idIndexFindsEveryDuplicateAcrossGrowth() {
        var list = SampleList(root: "/r")
        var index = IDIndex()
        // 3000 ids (the index grows from 1024 slots several times), then each one again.
        for i in 0..<3000 {
            #expect(index.firstOrInsert("d\(i / 1000)/\(i).jpg", next: list.count, in: list) == nil)
            list.append(Sample(id: "d\(i / 1000)/\(i).jpg", path: "/r/d\(i / 1000)/\(i).jpg", label: .bonaFide))
        }
        for i in stride(from: 0, to: 3000, by: 7) {
            #expect(index.firstOrInsert("d\(i / 1000)/\(i).jpg", next: list.count, in: list) == i)
        }
    }
}

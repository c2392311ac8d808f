import Foundation
import Testing
@testable import PadSamples
import PadVocabulary

/// The compact sample storage gives back exactly the samples appended (ids, paths, labels,
/// splits, subjects, boxes).
@Suite struct SampleListTests {
    static let samples = [
        Sample(id: "a.jpg", path: "/data/a.jpg", label: .bonaFide, split: .train, subject: "s1"),
        Sample(
            id: "attack/print/long-name-past-fifteen-bytes.jpg",
            path: "/data/attack/print/long-name-past-fifteen-bytes.jpg",
            label: .attack(species: "print"), split: .dev, subject: "s2",
            faceBox: Box(x: 1, y: 2, width: 30, height: 40)),
        // A path that is not root + "/" + id (CelebA-Spoof keys) is kept as given.
        Sample(id: "key/7", path: "/elsewhere/7.png", label: .attack(species: "replay"), split: .eval, subject: "s1"),
        Sample(id: "é ü,\"q\".jpg", path: "/data/é ü,\"q\".jpg", label: .attack(species: "print"), split: .none),
    ]

    @Test func roundTripKeepsEveryField() {
        let list = SampleList(Self.samples, root: "/data")
        #expect(list.count == 4)
        #expect(Array(list) == Self.samples)
        #expect(list.id(1) == "attack/print/long-name-past-fifteen-bytes.jpg")
        #expect(list[2].path == "/elsewhere/7.png" && list[0].path == "/data/a.jpg")
        #expect(list[1].faceBox == Box(x: 1, y: 2, width: 30, height: 40) && list[0].faceBox == nil)
        let odd = list.subset { $0.label.species == "print" }
        #expect(odd.map(\.id) == ["attack/print/long-name-past-fifteen-bytes.jpg", "é ü,\"q\".jpg"])
        #expect(Array(odd) == [Self.samples[1], Self.samples[3]])
        #expect(list.sortedByID().map(\.id) == Self.samples.map(\.id).sorted())
        #expect(Array(list.sortedByID()) == Self.samples.sorted { $0.id < $1.id })
    }

    @Test func stringColumnsAndInternedStrings() {
        var ids = StringColumn()
        for id in ["", "short", "a-string-of-more-than-fifteen-bytes", "ünï"] { ids.append(id) }
        #expect(Array(ids) == ["", "short", "a-string-of-more-than-fifteen-bytes", "ünï"])
        #expect(Array(ids.reordered([3, 1, 2, 0])) == ["ünï", "short", "a-string-of-more-than-fifteen-bytes", ""])
        #expect(ids.equals(1, StringColumn(["x", "short"]), 1) && !ids.equals(0, ids, 1))
        let subjects: InternedStrings = ["s2", "s1", "s2", ""]
        #expect(subjects.codes == [0, 1, 0, 2] && subjects.names == ["s2", "s1", ""])
        // Reordered, the vocabulary is numbered by first appearance in the new order.
        let reordered = subjects.reordered([1, 3, 0, 2])
        #expect(Array(reordered) == ["s1", "", "s2", "s2"])
        #expect(reordered.codes == [0, 1, 2, 2] && reordered.names == ["s1", "", "s2"])
    }
}

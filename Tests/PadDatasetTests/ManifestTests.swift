import Foundation
import Testing
@testable import PadDataset
@testable import PadImage

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
        #expect(
            loaded.problems.map(\.kind) == [
                .escapesRoot, .escapesRoot, .unknownLabel, .unknownLabel, .badLine, .badLine, .duplicateID, .badLine,
            ])
        #expect(
            loaded.problems[2].description == root
                + "/manifest.csv:6: unknown label 'spoofy' (expected bonafide or attack)")
    }

    @Test func missingFolderIsAnError() {
        #expect(throws: DatasetProblem.self) { try DatasetLoader().load("/nonexistent/padbench") }
    }
}

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

    /// Issue 25: `a.jpg\0x` and `a.jpg\0y` opened the same file under two ids and labels; a path
    /// of bytes that are not UTF-8 became a U+FFFD id that no file has.
    @Test func nulBytesAndNamesThatAreNotUTF8AreBadLines() throws {
        let root = temporaryFolder()
        var bytes = Array("path,label,species,split,subject\na.jpg\0x,bonafide,,,s1\na.jpg\0y,attack,print,,s1\n".utf8)
        bytes += Array("b.jpg,bonafide,,,s2\n".utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: root + "/manifest.csv"))
        let loaded = try DatasetLoader().load(root)
        #expect(loaded.samples.map(\.id) == ["b.jpg"])
        #expect(loaded.problems.map(\.kind) == [.badLine, .badLine] && loaded.problems.map(\.line) == [2, 3])
        #expect(loaded.problems[0].description == root + "/manifest.csv:2: path 'a.jpg\\0x' holds a NUL byte")
        // caf\xe9.jpg: Latin-1, not UTF-8.
        let latin = temporaryFolder()
        bytes = Array("path,label,species,split,subject\ncaf".utf8) + [0xE9] + Array(".jpg,bonafide,,,s1\n".utf8)
        bytes += Array("caf\u{E9}.jpg,bonafide,,,s1\n".utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: latin + "/manifest.csv"))
        let read = try DatasetLoader().load(latin)
        #expect(read.samples.map(\.id) == ["caf\u{E9}.jpg"])
        #expect(read.problems.count == 1 && read.problems[0].kind == .badLine && read.problems[0].line == 2)
        #expect(read.problems[0].description.contains("name is not UTF-8"))
    }

    @Test func missingFolderIsAnError() {
        #expect(throws: DatasetProblem.self) { try DatasetLoader().load("/nonexistent/padbench") }
    }
}

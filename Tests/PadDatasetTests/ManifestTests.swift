import Foundation
import Testing
@testable import PadDataset
@testable import PadSamples
@testable import PadImage
import PadVocabulary

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

    /// A column named twice (after trimming and lower-casing) is refused naming both fields:
    /// taking the first silently dropped the second's labels.
    @Test func aColumnNamedTwiceIsRefused() throws {
        let root = temporaryFolder()
        touch(root + "/a.jpg")
        try "path,label,group.age,Group.Age \na.jpg,bonafide,young,old\n".write(
            toFile: root + "/manifest.csv", atomically: true, encoding: .utf8)
        #expect {
            try DatasetLoader().load(root)
        } throws: {
            "\($0)".hasSuffix("manifest.csv:1: column 'group.age' appears twice in the header (fields 3 and 4)")
        }
    }

    @Test func missingFolderIsAnError() {
        #expect(throws: DatasetProblem.self) { try DatasetLoader().load("/nonexistent/padbench") }
    }
}

@Suite struct ManifestPresentationTests {
    /// The optional `presentation` column groups lines; an empty field is a presentation of its own.
    @Test func presentationColumnGroupsFrames() throws {
        let root = temporaryFolder()
        try """
        path,label,species,split,subject,presentation
        v1/f0.jpg,bonafide,,eval,s1,v1
        v1/f1.jpg,bonafide,,eval,s1,v1
        still.jpg,attack,print,eval,s2,
        """.write(toFile: root + "/manifest.csv", atomically: true, encoding: .utf8)
        let loaded = try DatasetLoader().load(root)
        #expect(loaded.problems.isEmpty)
        #expect(loaded.samples.map(\.presentation) == ["v1", "v1", "still.jpg"])
        #expect(loaded.samples.hasPresentations)
        #expect(loaded.samples[2].isOwnPresentation && !loaded.samples[0].isOwnPresentation)
    }

    /// A presentation never spans two labels, species, subjects or splits: the line is a problem
    /// naming both lines, and it is left out.
    @Test func presentationSpanningTwoLabelsSubjectsOrSplitsIsAProblem() throws {
        let root = temporaryFolder()
        try """
        path,label,species,split,subject,presentation
        a.jpg,bonafide,,eval,s1,v1
        b.jpg,attack,print,eval,s1,v1
        c.jpg,bonafide,,eval,s2,v1
        d.jpg,bonafide,,dev,s1,v1
        e.jpg,attack,print,eval,s3,v2
        f.jpg,attack,replay,eval,s3,v2
        g.jpg,bonafide,,eval,s1,v1
        """.write(toFile: root + "/manifest.csv", atomically: true, encoding: .utf8)
        let loaded = try DatasetLoader().load(root)
        #expect(loaded.samples.map(\.id) == ["a.jpg", "e.jpg", "g.jpg"])
        #expect(
            loaded.problems.map(\.message) == [
                "presentation 'v1' spans two labels: 'attack' on line 3, 'bonafide' on line 2",
                "presentation 'v1' spans two subjects: 's2' on line 4, 's1' on line 2",
                "presentation 'v1' spans two splits: 'dev' on line 5, 'eval' on line 2",
                "presentation 'v2' spans two species: 'replay' on line 7, 'print' on line 6",
            ])
    }

    /// Still images: no presentation column in the list, no frames.
    @Test func stillImagesAreTheirOwnPresentations() {
        let list: SampleList = [Sample(id: "a.jpg", path: "/a.jpg", label: .bonaFide)]
        #expect(!list.hasPresentations && list.presentationColumn == nil && list[0].presentation == "a.jpg")
        var frames = SampleList(root: "/d")
        frames.append(Sample(id: "x.jpg", path: "/d/x.jpg", label: .bonaFide))
        frames.append(
            Sample(
                id: Sample.frameID(presentation: "v.avi", frameIndex: 3), path: "/d/v.avi", label: .bonaFide,
                presentation: "v.avi", frameIndex: 3, timestamp: 0.1))
        #expect(frames[0].presentation == "x.jpg" && frames[0].frameIndex == nil)
        #expect(frames[1].id == "v.avi#3" && frames[1].presentation == "v.avi")
        #expect(frames[1].frameIndex == 3 && frames[1].timestamp == 0.1 && frames[1].path == "/d/v.avi")
    }
}

@Suite struct ManifestAttackPotentialTests {
    @Test func attackPotentialColumnGivesEachSpeciesOneLevel() throws {
        let root = temporaryFolder()
        try """
        path,label,species,split,subject,attack_potential
        a.jpg,attack,print,eval,s1,1
        b.jpg,attack,mask,eval,s1,2
        c.jpg,attack,print,eval,s2,
        d.jpg,bonafide,,eval,s2,
        e.jpg,attack,print,eval,s3,2
        """.write(toFile: root + "/manifest.csv", atomically: true, encoding: .utf8)
        let loaded = try DatasetLoader().load(root)
        #expect(loaded.attackPotential == ["print": "1", "mask": "2"])
        #expect(
            loaded.problems.map(\.message) == ["species 'print' has attack potential '2' here and '1' on line 2"])
        #expect(loaded.problems.map(\.line) == [6])
    }
}

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

    /// A tree-layout file that links outside the dataset (here to /proc/self/pagemap, which reads
    /// until memory runs out) is an escapes_root problem of the loader, as in the manifest
    /// layout, so `bench` refuses the dataset before reading it; a link inside stays a sample.
    @Test func linkLeavingTheTreeIsAProblemNotASample() throws {
        let root = temporaryFolder()
        touch(root + "/bonafide/ok.jpg")
        try FileManager.default.createDirectory(atPath: root + "/attack/print", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: root + "/attack/print/pagemap.jpg", withDestinationPath: "/proc/self/pagemap")
        try FileManager.default.createSymbolicLink(atPath: root + "/bonafide/alias.jpg", withDestinationPath: "ok.jpg")
        let loaded = try DatasetLoader().load(root)
        #expect(loaded.samples.map(\.id) == ["bonafide/alias.jpg", "bonafide/ok.jpg"])
        #expect(loaded.problems.count == 1)
        #expect(
            loaded.problems.first?.kind == .escapesRoot && loaded.problems.first?.file == "attack/print/pagemap.jpg")
        #expect(loaded.problems.first?.message.contains("outside the dataset folder") == true)
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

/// Two files whose names are the same text in NFC and NFD bytes are two files on Linux but one id
/// in every table keyed by id: the later is a duplicate_id problem, in a tree and in a manifest.
@Suite struct CanonicalTwinTests {
    static let composed = "caf\u{E9}.jpg", decomposed = "cafe\u{301}.jpg"

    @Test func treeTwinsAreOneSampleAndOneProblem() throws {
        #expect(Array(Self.composed.utf8) != Array(Self.decomposed.utf8) && Self.composed == Self.decomposed)
        let root = temporaryFolder()
        touch(root + "/bonafide/" + Self.composed)
        touch(root + "/bonafide/" + Self.decomposed)
        touch(root + "/bonafide/plain.jpg")
        let loaded = try DatasetLoader().load(root)
        #expect(loaded.samples.count == 2)
        let problems = loaded.problems.filter { $0.kind == .duplicateID }
        #expect(problems.count == 1)
        #expect(problems.first?.message.contains("in another Unicode normalization") == true, "\(problems)")
    }

    @Test func manifestTwinsAreADuplicateLine() throws {
        let root = temporaryFolder()
        touch(root + "/" + Self.composed)
        touch(root + "/" + Self.decomposed)
        try "path,label,species,split,subject\n\(Self.composed),bonafide,,,\n\(Self.decomposed),bonafide,,,\n".write(
            toFile: root + "/manifest.csv", atomically: true, encoding: .utf8)
        let loaded = try DatasetLoader().load(root)
        #expect(loaded.samples.count == 1)
        let problem = try #require(loaded.problems.first { $0.kind == .duplicateID })
        #expect(problem.line == 3 && problem.message.contains("is line 2 in another Unicode normalization"))
    }
}

import Foundation
import Testing
@testable import PadDataset
@testable import PadImage
@testable import PadText
#if canImport(Glibc)
import Glibc
#endif

/// One RFC 4180 reader for every text input; paths in one spelling; files that are not regular
/// files or that leave the dataset folder are refused; implausible face boxes are located errors.
@Suite struct TextInputTests {
    @Test func readerHandlesBOMCRLFQuotesAndLongLines() throws {
        let long = String(repeating: "x", count: 200_000)
        let text =
            "\u{FEFF}a,b,c\r\n\"1,5\",\"say \"\"hi\"\"\",\"two\r\nlines\"\r\n\r\n\(long),,\r\n"
            + (0..<1000).map(String.init).joined(separator: ",") + "\n"
        let records = try CSVReader.parse(Array(text.utf8))
        #expect(records.map(\.line) == [1, 2, 5, 6])
        #expect(records[0].fields == ["a", "b", "c"])
        #expect(records[1].fields == ["1,5", "say \"hi\"", "two\r\nlines"])
        #expect(records[2].fields == [long, "", ""])
        #expect(records[3].fields.count == 1000)
        #expect(throws: CSVSyntaxError(line: 2, "stray quote inside an unquoted field")) {
            try CSVReader.parse(Array("a\nb\"c\n".utf8))
        }
        #expect(throws: CSVSyntaxError(line: 1, "unterminated quoted field")) {
            try CSVReader.parse(Array("\"a\nb".utf8))
        }
        #expect(
            try CSVReader.parse(Array("# note\na\n".utf8), comments: true) == [CSVReader.Record(line: 2, fields: ["a"])]
        )
    }

    /// A journal is read in chunks (``RegularFile/readChunks(_:chunkSize:_:)``): the chunks make up
    /// the file, and what `read` refuses is refused before any chunk is handed over.
    @Test func chunksMakeUpTheFileAndRefuseWhatReadRefuses() throws {
        let path = FileManager.default.temporaryDirectory.path + "/chunks-\(UUID().uuidString).csv"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = (0..<1000).map { "row \($0),\($0 * 7)\n" }.joined()
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        var chunks: [[UInt8]] = []
        try RegularFile.readChunks(path, chunkSize: 97) { chunks.append(Array($0)) }
        #expect(chunks.flatMap { $0 } == Array(text.utf8))
        #expect(chunks.dropLast().allSatisfy { $0.count == 97 })
        var handed = 0
        #expect(throws: RegularFile.Failure.self) {
            try RegularFile.readChunks("/proc/self/status") { handed += $0.count }
        }
        #expect(handed == 0, "a file reporting 0 bytes is refused before any chunk")
        #expect(throws: RegularFile.Failure.self) { try RegularFile.readChunks("/tmp") { _ in } }
    }

    @Test func manifestWithBOMCRLFAndQuotedFieldsLoads() throws {
        let root = temporaryFolder()
        touch(root + "/a b.jpg")
        touch(root + "/c.jpg")
        let manifest =
            "\u{FEFF}path,label,species,split,subject\r\n"
            + "\"a b.jpg\",attack,\"print, glossy\",dev,\"s,1\"\r\nc.jpg,bonafide,,eval,s2\r\n"
        try manifest.write(toFile: root + "/manifest.csv", atomically: true, encoding: .utf8)
        let dataset = try DatasetLoader().load(root)
        #expect(dataset.problems.isEmpty)
        #expect(dataset.samples.map(\.id) == ["a b.jpg", "c.jpg"])
        #expect(dataset.samples[0].label == .attack(species: "print, glossy"))
        #expect(dataset.samples[0].subject == "s,1")
    }

    @Test func oneFileUnderSeveralSpellingsIsADuplicateNamingBothLines() throws {
        let root = temporaryFolder()
        touch(root + "/x.jpg")
        touch(root + "/a/y.jpg")
        let manifest =
            "path,label,species,split,subject\n./x.jpg,bonafide,,,\nx.jpg,bonafide,,,\n"
            + "a//y.jpg,bonafide,,,\na/./y.jpg,bonafide,,,\n"
        try manifest.write(toFile: root + "/manifest.csv", atomically: true, encoding: .utf8)
        let dataset = try DatasetLoader().load(root)
        #expect(dataset.samples.map(\.id) == ["x.jpg", "a/y.jpg"])
        #expect(dataset.problems.map(\.line) == [3, 5])
        #expect(dataset.problems.map(\.kind) == [.duplicateID, .duplicateID])
        #expect(dataset.problems[0].message.contains("line 3") && dataset.problems[0].message.contains("line 2"))
        #expect(dataset.problems[1].message.contains("line 5") && dataset.problems[1].message.contains("line 4"))
    }

    @Test func symbolicLinkLeavingTheDatasetIsRefused() throws {
        let root = temporaryFolder()
        let outside = temporaryFolder("outside")
        touch(outside + "/secret.jpg")
        touch(root + "/in.jpg")
        try FileManager.default.createSymbolicLink(
            atPath: root + "/link.jpg", withDestinationPath: outside + "/secret.jpg")
        // Stays inside: fine.
        try FileManager.default.createSymbolicLink(atPath: root + "/alias.jpg", withDestinationPath: "in.jpg")
        try "path,label,species,split,subject\nlink.jpg,bonafide,,,\nalias.jpg,bonafide,,,\n"
            .write(toFile: root + "/manifest.csv", atomically: true, encoding: .utf8)
        let dataset = try DatasetLoader().load(root)
        #expect(dataset.samples.map(\.id) == ["alias.jpg"])
        #expect(
            dataset.problems.count == 1 && dataset.problems[0].kind == .escapesRoot && dataset.problems[0].line == 2)
        // A tree dataset: `dataset check` reports the link.
        let tree = temporaryFolder("tree")
        touch(tree + "/bonafide/ok.jpg")
        try FileManager.default.createSymbolicLink(
            atPath: tree + "/bonafide/link.jpg", withDestinationPath: outside + "/secret.jpg")
        let check = DatasetCheck.run(try DatasetLoader().load(tree), decode: false)
        #expect(check.problems.contains { $0.kind == .escapesRoot && $0.file.hasSuffix("link.jpg") })
    }

    @Test func implausibleFaceBoxesAreLocatedProblems() throws {
        let root = temporaryFolder()
        for name in ["a", "b", "c", "d", "e"] { touch(root + "/\(name).jpg") }
        let manifest =
            "path,label,species,split,subject,x,y,w,h\na.jpg,bonafide,,,,1e300,0,10,10\nb.jpg,bonafide,,,,nan,0,10,10\n"
            + "c.jpg,bonafide,,,,0,0,-1,10\nd.jpg,bonafide,,,,0,0,1e7,10\ne.jpg,bonafide,,,,2,3,10,10\n"
        try manifest.write(toFile: root + "/manifest.csv", atomically: true, encoding: .utf8)
        let dataset = try DatasetLoader().load(root)
        #expect(dataset.samples.map(\.id) == ["e.jpg"])
        #expect(dataset.problems.map(\.line) == [2, 3, 4, 5])
    }

    @Test func fifoAndDirectoryWhereAFileIsExpectedAreRefusedWithoutBlocking() throws {
        let root = temporaryFolder()
        #expect(mkfifo(root + "/pipe.jpg", 0o644) == 0)
        try FileManager.default.createDirectory(atPath: root + "/dir.jpg", withIntermediateDirectories: true)
        for name in ["pipe.jpg", "dir.jpg"] {
            #expect { try ImageDecoder().decode(fileAt: root + "/" + name) } throws: { error in
                guard case .missingFile(_, let reason)? = error as? ImageError else { return false }
                return reason.contains("not a") || reason.contains("directory")
            }
        }
        // The manifest itself as a FIFO.
        let fifoRoot = temporaryFolder("fifo")
        #expect(mkfifo(fifoRoot + "/manifest.csv", 0o644) == 0)
        #expect { try DatasetLoader().load(fifoRoot) } throws: { "\($0)".contains("FIFO") }
    }
}

/// Synthesis arguments that cannot be generated are refused before anything is allocated.
@Suite struct SynthesisLimitTests {
    @Test(arguments: [(Int.max - 1, 640, 480, 2), (10, 100_000, 100_000, 2), (10, 640, 480, 0), (0, 640, 480, 2)])
    func impossibleArgumentsAreErrorsNotCrashes(_ count: Int, _ width: Int, _ height: Int, _ kinds: Int) throws {
        let generator = try SyntheticDatasetGenerator(sourcesFolder: SynthesisTests.sources())
        let species = Array([PresentationSynthesizer.Kind.print, .replay].prefix(kinds))
        let out = temporaryFolder() + "/out"
        #expect(throws: DatasetProblem.self) {
            try generator.generate(into: out, count: count, seed: 1, species: species, width: width, height: height)
        }
        #expect(!FileManager.default.fileExists(atPath: out + "/manifest.csv"))
    }
}

import Foundation
import PadVocabulary
import Testing
@testable import PadArchive
import TestSupport

/// The examples the PadArchive reader doc comments point to, compiled and checked here.
@Suite struct PadArchiveDocExamples {
    static func folder() -> String {
        let path = TestFolder.root + "/padbench-archive-doc-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// ``CSVTable``: columns by name, records with their line numbers.
    @Test func csvTable() throws {
        let path = Self.folder() + "/summary.csv"
        try "profile,apcer_max\nbasic,0.25\nstrict,0.5\n".write(toFile: path, atomically: true, encoding: .utf8)
        let table = try CSVTable(path: path)
        let apcer = try #require(table.column("apcer_max"))
        #expect(table.records.map(\.line) == [2, 3] && table.records.map { $0.fields[apcer] } == ["0.25", "0.5"])
        #expect(table.column("bpcer") == nil)
    }

    /// ``ZstdStream`` and ``TarReader``: GNU tar's `--zstd` archive read entry by entry.
    @Test func tarOverZstd() throws {
        let folder = Self.folder()
        try "hello\n".write(toFile: folder + "/a.txt", atomically: true, encoding: .utf8)
        try String(repeating: "x", count: 1000).write(toFile: folder + "/b.txt", atomically: true, encoding: .utf8)
        let tar = Process()
        tar.executableURL = URL(fileURLWithPath: "/usr/bin/tar")
        tar.arguments = ["--zstd", "-cf", folder + "/x.tar.zst", "-C", folder, "a.txt", "b.txt"]
        try tar.run()
        tar.waitUntilExit()
        #expect(tar.terminationStatus == 0)
        let reader = TarReader(stream: try ZstdStream(path: folder + "/x.tar.zst", limit: 4 << 30), totalLimit: 4 << 30)
        var entries: [TarReader.Entry] = []
        while let entry = try reader.next() { entries.append(entry) } // data not read is skipped
        #expect(entries.map(\.name) == ["a.txt", "b.txt"] && entries.map(\.size) == [6, 1000])
        let stream = try ZstdStream(path: folder + "/x.tar.zst", limit: 4 << 30)
        var block = [UInt8](repeating: 0, count: 512)
        let n = try block.withUnsafeMutableBytes { try stream.read(into: $0) }
        #expect(n == 512 && block.starts(with: Array("a.txt".utf8)))
    }

    /// ``RunManifest``: encoded (sorted keys, an unbounded range limit left out) and decoded back equal.
    @Test func manifestRoundTrip() throws {
        let manifest = RunManifest(
            kind: "eval", tool: .init(version: "1.2", commandLine: ["padbench", "eval"]),
            conventions: ["tie_rule": "x"],
            dataset: .init(name: "d", path: "p", layout: "manifest", fingerprint: "00ff", samples: 3),
            estimators: [
                .init(
                    name: "q", version: "1", parameters: [:],
                    outputs: [
                        OutputDescriptor(
                            name: "s", unit: "", minimum: 0, maximum: .infinity, direction: .none, summary: "")
                    ],
                    coldStartNanoseconds: 5)
            ],
            profiles: ["basic"],
            machine: .init(hostname: "h", operatingSystem: "o", processors: 1, memoryBytes: 1, concurrency: 1),
            times: .init(started: "s", finished: "f", wallSeconds: 1), counts: ["ok": 3])
        let bytes = try manifest.encoded()
        #expect(!String(decoding: bytes, as: UTF8.self).contains("\"maximum\""))
        let again = try RunManifest.decode(from: bytes)
        #expect(again == manifest && again.tool.version == "1.2" && again.dataset.fingerprint == "00ff")
    }
}

/// The writers' doc-comment examples, run in a fresh folder and read back.
@Suite struct PadArchiveWriterDocExamples {
    static func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    /// ``FileSink``: the bytes written are the file's.
    @Test func fileSink() throws {
        let folder = PadArchiveDocExamples.folder()
        let file = try FileSink(path: folder + "/out.bin")
        try file.write([1, 2, 3])
        try file.close()
        #expect(FileManager.default.contents(atPath: folder + "/out.bin") == Data([1, 2, 3]))
    }

    /// ``CSVWriter``: `CSVFormat.number` is the shortest round-trip decimal.
    @Test func csvWriter() throws {
        let folder = PadArchiveDocExamples.folder()
        let csv = try CSVWriter(path: folder + "/summary.csv")
        try csv.writeRow(["profile", "apcer_max"])
        try csv.writeRow(["basic", CSVFormat.number(0.031)])
        try csv.close()
        #expect(try Self.text(folder + "/summary.csv") == "profile,apcer_max\nbasic,0.031\n")
    }

    /// ``CSVBlock`` and ``CSVPieces``: an id with a comma is quoted (RFC 4180), a piece is
    /// appended as it is.
    @Test func csvBlockAndPieces() throws {
        let folder = PadArchiveDocExamples.folder()
        let csv = try CSVWriter(path: folder + "/ids.csv")
        let id = Array("a,b".utf8)
        try id.withUnsafeBufferPointer { idBytes in
            let block = CSVBlock(writer: csv)
            try block.appendField(utf8: idBytes) // quoted when it needs to be (RFC 4180)
            try block.append(byte: UInt8(ascii: ","))
            try block.appendNumber(0.25)
            try block.append(byte: 0x0A)
            try block.flush()
            var parts = CSVPieces()
            let accepted = parts.add("ok,1,,\n")
            try parts.withPieces { pieces in try block.append(pieces[accepted]) }
            try block.flush()
        }
        try csv.close()
        #expect(try Self.text(folder + "/ids.csv") == "\"a,b\",0.25\nok,1,,\n")
    }

    /// ``ZstdWriter``: one frame that `zstd -dc` decompresses to the bytes written.
    @Test func zstdWriter() throws {
        let folder = PadArchiveDocExamples.folder()
        let bytes = Array("hello, zstd\n".utf8)
        let file = try FileSink(path: folder + "/results.tar.zst")
        let zstd = try ZstdWriter(into: file, path: file.path, level: 6)
        try zstd.write(bytes)
        try zstd.finish() // ends the frame
        try file.close()
        #expect(try ToolProbe.run("/usr/bin/zstd", ["-dc", folder + "/results.tar.zst"]) == "hello, zstd\n")
    }

    /// ``TarWriter``: GNU tar lists what was written, in order.
    @Test func tarWriter() throws {
        let run = PadArchiveDocExamples.folder()
        try "id\nx\n".write(toFile: run + "/samples.csv", atomically: true, encoding: .utf8)
        let bytes = Array("{}".utf8)
        let file = try FileSink(path: run + "/x.tar.zst")
        let zstd = try ZstdWriter(into: file, path: file.path)
        let tar = TarWriter(into: zstd)
        try tar.add(name: "manifest.json", contents: bytes, modified: 1_700_000_000)
        try tar.addFile(name: "samples.csv", fromPath: run + "/samples.csv", modified: 1_700_000_000)
        try tar.finish()
        try zstd.finish()
        try file.close()
        #expect(
            try ToolProbe.run("/usr/bin/tar", ["--zstd", "-tf", run + "/x.tar.zst"]) == "manifest.json\nsamples.csv\n")
    }

    /// ``ResultArchiveWriter``, ``ArchiveMemberWriter`` and ``ResultArchiveReader``: written,
    /// committed under the final name, read back entry by entry.
    @Test func resultArchive() throws {
        let run = PadArchiveDocExamples.folder()
        try "id,score\na,1\n".write(toFile: run + "/samples.csv", atomically: true, encoding: .utf8)
        let manifestBytes = try RunManifest(
            kind: "eval", tool: .init(version: "1", commandLine: ["padbench"]), conventions: [:],
            dataset: .init(name: "d", path: "p", layout: "manifest", fingerprint: "0", samples: 1), estimators: [],
            profiles: [],
            machine: .init(hostname: "h", operatingSystem: "o", processors: 1, memoryBytes: 1, concurrency: 1),
            times: .init(started: "s", finished: "f", wallSeconds: 1), counts: [:]
        ).encoded()
        let archive = try ResultArchiveWriter(finalPath: run + "/results.tar.zst")
        try archive.add(name: "manifest.json", contents: manifestBytes)
        try archive.addFile(name: "samples.csv", fromPath: run + "/samples.csv")
        try archive.commit() // renames `results.tar.zst.partial` to the final name
        #expect(!FileManager.default.fileExists(atPath: run + "/results.tar.zst.partial"))
        try readBack(run: run)
    }

    /// ``ArchiveMemberWriter``: the member compressed while written is stored as it is.
    @Test func archiveMember() throws {
        let folder = PadArchiveDocExamples.folder()
        let archive = try ResultArchiveWriter(finalPath: folder + "/results.tar.zst")
        try addMember(folder: folder, to: archive)
        try archive.commit()
        let reader = try ResultArchiveReader(path: folder + "/results.tar.zst")
        #expect(try reader.entry(named: "decisions.csv") == Array("id,score\n".utf8))
        #expect(try String(contentsOfFile: folder + "/decisions.csv", encoding: .utf8) == "id,score\n")
    }

    func addMember(folder: String, to archive: ResultArchiveWriter) throws {
        let member = try ArchiveMemberWriter(name: "decisions.csv", path: folder + "/decisions.csv", level: 1)
        let csv = CSVWriter(member: member)
        try csv.writeRow(["id", "score"])
        try csv.close() // closes the file and ends the frame
        try archive.addCompressed(try member.finished()) // header, then the frame as it is
    }

    func readBack(run: String) throws {
        var received = 0
        let archive = try ResultArchiveReader(path: run + "/results.tar.zst")
        let manifest = try RunManifest.decode(from: archive.entry(named: "manifest.json"))
        try archive.streamEntry(named: "samples.csv") { chunk in received += chunk.count } // bounded memory
        #expect(manifest.kind == "eval" && received == "id,score\na,1\n".utf8.count)
    }
}

/// Runs a command-line tool (GNU tar, zstd: the readers padbench's archives promise to satisfy)
/// and returns its standard output.
enum ToolProbe {
    static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process(), pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = pipe
        try process.run()
        let out = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: out, as: UTF8.self)
    }
}

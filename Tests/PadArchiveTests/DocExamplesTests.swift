import Foundation
import Testing
@testable import PadArchive
import PadDataset

/// The examples the PadArchive reader doc comments point to, compiled and checked here.
@Suite struct PadArchiveDocExamples {
    static func folder() -> String {
        let path = NSTemporaryDirectory() + "padbench-archive-doc-\(UUID().uuidString)"
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

import Foundation
import Testing
@testable import PadArchive

@Suite struct ResultArchiveTests {
    @Test func gnuTarReadsWhatWeWriteByteForByte() throws {
        let folder = temporaryFolder()
        let big = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 2654435761 >> 13) }
        try Data(big).write(to: URL(fileURLWithPath: folder + "/big.bin"))
        let longName = "reports/" + String(repeating: "very-long-folder-name/", count: 6) + "file.csv"
        let archive = try ResultArchiveWriter(finalPath: folder + "/results.tar.zst", modified: 1_700_000_000)
        try archive.add(name: "manifest.json", contents: Array("{\"a\": 1}\n".utf8))
        try archive.add(name: longName, contents: Array("x,y\n1,2\n".utf8))
        try archive.addFile(name: "big.bin", fromPath: folder + "/big.bin")
        #expect(!FileManager.default.fileExists(atPath: folder + "/results.tar.zst"))
        try archive.commit()
        #expect(FileManager.default.fileExists(atPath: folder + "/results.tar.zst"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/results.tar.zst.partial"))

        let listing = run(["tar", "--zstd", "-tf", "results.tar.zst"], in: folder)
        #expect(listing.status == 0)
        #expect(listing.output.split(separator: "\n").map(String.init) == ["manifest.json", longName, "big.bin"])
        let out = folder + "/x"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        #expect(run(["tar", "--zstd", "-xf", "../results.tar.zst"], in: out).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/big.bin")) == Data(big))
        #expect(try String(contentsOfFile: out + "/" + longName, encoding: .utf8) == "x,y\n1,2\n")
        #expect(run(["zstd", "-t", "-q", "results.tar.zst"], in: folder).status == 0)

        let reader = try ResultArchiveReader(path: folder + "/results.tar.zst")
        #expect(reader.entryNames == ["manifest.json", longName, "big.bin"])
        #expect(try reader.entry(named: "big.bin") == big)
        #expect(throws: ArchiveError.missingEntry(path: folder + "/results.tar.zst", entry: "nope")) {
            try reader.entry(named: "nope")
        }
    }

    /// Members compressed while written (their own zstd frames, copied in) make the very tar
    /// stream that reading the files back makes: same headers, bytes and padding, whatever the
    /// member's size modulo 512 (0, exactly 1024, odd, several MiB), at both archive levels and
    /// with zstd workers; GNU tar, zstd and our reader read the multi-frame archive.
    @Test(arguments: [(6, 0), (1, 2)])
    func membersCompressedWhileWrittenMakeTheSameTar(level: Int, workers: Int) throws {
        let folder = temporaryFolder()
        let big = (0..<3_000_001).map { UInt8(truncatingIfNeeded: $0 &* 2654435761 >> 13) }
        let contents: [(String, [UInt8])] = [
            ("samples.csv", big), ("empty.csv", []), ("block.csv", Array(repeating: 66, count: 1024)),
            ("odd.csv", Array("id,score\nx,0.5\n".utf8)),
        ]
        var members: [CompressedMember] = []
        for (name, bytes) in contents {
            let member = try ArchiveMemberWriter(
                name: name, path: folder + "/" + name, level: level, workers: workers)
            let csv = CSVWriter(member: member)
            // Written in two pieces, through the CSV buffer and around it.
            try csv.writeRaw(Array(bytes.prefix(1000)))
            try csv.writeRaw(Array(bytes.dropFirst(1000)))
            try csv.close()
            members.append(try member.finished())
            #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)) == Data(bytes))
        }
        let framed = try ResultArchiveWriter(
            finalPath: folder + "/framed.tar.zst", level: level, workers: workers, modified: 1_700_000_000)
        let plain = try ResultArchiveWriter(finalPath: folder + "/plain.tar.zst", modified: 1_700_000_000)
        for archive in [framed, plain] { try archive.add(name: "manifest.json", contents: Array("{}\n".utf8)) }
        for member in members { try framed.addCompressed(member) }
        for (name, _) in contents { try plain.addFile(name: name, fromPath: folder + "/" + name) }
        for archive in [framed, plain] {
            try archive.add(name: "summary.csv", contents: Array("a\n1\n".utf8))
            try archive.commit()
        }
        for member in members { #expect(!FileManager.default.fileExists(atPath: member.framePath)) }
        #expect(members.map(\.size) == contents.map(\.1.count))

        #expect(run(["zstd", "-q", "-d", "framed.tar.zst", "-o", "framed.tar"], in: folder).status == 0)
        #expect(run(["zstd", "-q", "-d", "plain.tar.zst", "-o", "plain.tar"], in: folder).status == 0)
        let framedTar = try Data(contentsOf: URL(fileURLWithPath: folder + "/framed.tar"))
        // Headers and blocks: manifest 1+1, samples 1+5860, empty 1, block 1+2, odd 1+1, summary 1+1, end 2.
        #expect(framedTar.count == 512 * (2 + 5861 + 1 + 3 + 2 + 2 + 2))
        #expect(framedTar == (try Data(contentsOf: URL(fileURLWithPath: folder + "/plain.tar"))))
        let listing = run(["tar", "--zstd", "-tf", "framed.tar.zst"], in: folder)
        #expect(
            listing.output.split(separator: "\n").map(String.init)
                == ["manifest.json"] + contents.map(\.0) + ["summary.csv"])
        let reader = try ResultArchiveReader(path: folder + "/framed.tar.zst")
        #expect(try reader.entry(named: "samples.csv") == big)
        #expect(try reader.entry(named: "odd.csv") == Array("id,score\nx,0.5\n".utf8))
        #expect(try reader.entry(named: "summary.csv") == Array("a\n1\n".utf8))
    }

    @Test func truncatedAndForeignArchivesAreClearErrors() throws {
        let folder = temporaryFolder()
        let archive = try ResultArchiveWriter(finalPath: folder + "/r.tar.zst")
        try archive.add(name: "a.txt", contents: Array(repeating: 65, count: 100_000))
        try archive.commit()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/r.tar.zst"))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: folder + "/cut.tar.zst"))
        try Data("hello, not zstd".utf8).write(to: URL(fileURLWithPath: folder + "/foreign.tar.zst"))
        #expect { try ResultArchiveReader(path: folder + "/cut.tar.zst") } throws: { error in
            "\(error)".contains("truncated")
        }
        #expect { try ResultArchiveReader(path: folder + "/foreign.tar.zst") } throws: { error in
            "\(error)".contains("not a zstd stream")
        }
        // A zstd stream that holds no tar.
        _ = run(["sh", "-c", "printf 'plain text that is not a tar header' | zstd -q -o plain.zst"], in: folder)
        #expect { try ResultArchiveReader(path: folder + "/plain.zst") } throws: { error in
            "\(error)".contains("tar")
        }
    }
}

@Suite struct CSVTests {
    @Test func writerQuotesAndReaderRoundTrips() throws {
        let folder = temporaryFolder()
        let rows = [["id", "note", "value"], ["a,b", "say \"hi\"", "1.5"], ["multi\nline", "", "-3"]]
        let writer = try CSVWriter(path: folder + "/t.csv")
        for row in rows { try writer.writeRow(row) }
        try writer.close()
        let text = try String(contentsOfFile: folder + "/t.csv", encoding: .utf8)
        #expect(text == "id,note,value\n\"a,b\",\"say \"\"hi\"\"\",1.5\n\"multi\nline\",,-3\n")
        let table = try CSVTable(path: folder + "/t.csv")
        #expect(table.header == rows[0])
        #expect(table.records.map(\.fields) == Array(rows.dropFirst()))
        #expect(table.records.map(\.line) == [2, 3])
    }

    /// The byte formatter writes exactly what `CSVFormat.number` (Swift's `description`) writes:
    /// hand-picked edge cases (integers up to 1e15, exponents, subnormals, negative zero) and a
    /// million values of every magnitude from a fixed-seed generator.
    @Test func appendNumberWritesTheSameBytesAsNumber() {
        var cases: [Double] = [
            0, -0.0, 1, -1, 0.1, 1.5, 1e15, -1e15, 999_999_999_999_999, 1e15 + 1, 1e16, 1e-5, 1e-7, 123456.789,
            0.30000000000000004, .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude,
            -.greatestFiniteMagnitude, .infinity, -.infinity, .nan, 2.5e-308, 5e-324, 1.7976931348623157e308,
        ]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<1_000_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let bits = state
            let value = Double(bitPattern: bits)
            cases.append(value.isNaN ? Double(state >> 11) : value)
            cases.append(Double(Int64(bitPattern: bits) >> 20) / 1000)
        }
        var mismatches: [Double] = []
        var buffer: [UInt8] = []
        for value in cases {
            buffer.removeAll(keepingCapacity: true)
            CSVFormat.appendNumber(value, to: &buffer)
            if buffer != Array(CSVFormat.number(value).utf8) { mismatches.append(value) }
        }
        #expect(mismatches.count == 0, "first mismatches: \(mismatches.prefix(5))")
        buffer.removeAll()
        CSVFormat.appendNumber(UInt64.max, to: &buffer)
        CSVFormat.appendNumber(UInt64(0), to: &buffer)
        CSVFormat.appendInteger(Int64.min, to: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == "184467440737095516150-9223372036854775808")
        buffer.removeAll()
        CSVFormat.appendNumber(0.1, to: &buffer)
        CSVFormat.appendNumber(-2.0, to: &buffer)
        CSVFormat.appendNumber(1e-7, to: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == "0.1-21e-07")
    }

    @Test func malformedLinesNameFileAndLine() throws {
        #expect(throws: ArchiveError.csv(path: "m.csv", line: 3, message: "1 fields, the header has 2")) {
            try CSVTable(bytes: Array("a,b\n1,2\n3\n".utf8), path: "m.csv")
        }
        #expect(throws: ArchiveError.csv(path: "m.csv", line: 2, message: "unterminated quoted field")) {
            try CSVTable(bytes: Array("a,b\n\"1,2\n".utf8), path: "m.csv")
        }
    }

    @Test func numbersAreShortestRoundTripAndNaNIsEmpty() {
        #expect(CSVFormat.number(0.031) == "0.031")
        #expect(CSVFormat.number(3.0) == "3")
        #expect(CSVFormat.number(Double.nan) == "")
        #expect(CSVFormat.number(1.0 / 3.0) == "0.3333333333333333")
        #expect(CSVFormat.parseNumber("")!.isNaN)
        #expect(CSVFormat.parseNumber("0.3333333333333333") == 1.0 / 3.0)
    }
}

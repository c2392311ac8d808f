import Foundation
import Testing

@testable import PadArchive
import TestSupport

/// A big file written through ``FileSink`` is advised out of the page cache as it grows
/// (drop-behind): the bytes on disk are exactly those written, whatever the chunk sizes, across
/// several windows, and a file appended to (a resumed journal) keeps what it held.
@Suite struct FileSinkTests {
    @Test(.thorough) func dropBehindKeepsEveryByte() throws {
        let path = FileManager.default.temporaryDirectory.path + "/padbench-sink-\(UUID().uuidString).bin"
        defer { try? FileManager.default.removeItem(atPath: path) }
        var expected: [UInt8] = []
        var state: UInt64 = 11
        let sink = try FileSink(path: path)
        // 3.5 windows in chunks of odd sizes (1 byte to 3 MB), each a counter pattern.
        while expected.count < Int(FileSink.dropBehindWindow) * 7 / 2 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let size = 1 + Int((state >> 33) % 3_000_000)
            let chunk = (0..<size).map { UInt8(truncatingIfNeeded: expected.count + $0 * 7) }
            try sink.write(chunk)
            expected += chunk
        }
        try sink.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(expected))

        let journal = try FileSink(path: path, append: true)
        try journal.write(Array("tail".utf8))
        try journal.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(expected + Array("tail".utf8)))
    }
}

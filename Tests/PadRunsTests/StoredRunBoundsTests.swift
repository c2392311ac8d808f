import Foundation
import Testing
@testable import PadArchive
import PadRuns
import TestSupport

/// JSON members of an archive are read under a limit far below the 1 GiB member limit (issue
/// 25): a 34 KB archive holding a 100 MB JSON member made `show` and `compare` peak at 2.3 GB.
@Suite struct StoredRunBoundsTests {
    @Test func manifestOverTheJSONLimitIsRefusedBeforeParsing() throws {
        let folder = TestFolder.root + "/padbench-storedrun-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let writer = try ResultArchiveWriter(finalPath: folder + "/results.tar.zst", level: 1)
        // 40 MiB of JSON whitespace around an empty object: valid JSON, a few KB compressed.
        let json = [UInt8]("{".utf8) + [UInt8](repeating: 0x20, count: 40 << 20) + [UInt8]("}".utf8)
        try writer.add(name: "manifest.json", contents: json)
        try writer.add(name: "results.json", contents: Array("{}".utf8))
        try writer.commit()
        #expect(try FileSource(path: folder + "/results.tar.zst").size() < 64 << 10)
        #expect { try StoredRun(path: folder) } throws: { error in
            guard case .limit(_, let message)? = error as? ArchiveError else { return false }
            return message == "manifest.json is \(json.count) bytes, above the 33554432-byte limit for a JSON member"
        }
    }

    @Test func jsonLimitIsFarBelowTheMemberLimit() {
        #expect(ResultArchiveReader.jsonMemberBytes == 32 << 20)
        #expect(ResultArchiveReader.jsonMemberBytes * 32 == ArchiveLimits.standard.memberBytes)
    }
}

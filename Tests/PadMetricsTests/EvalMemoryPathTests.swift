import Foundation
import Testing
@testable import PadMetrics
import TestSupport

/// The paths `eval` takes to touch less memory (no cleared buffers, no copies, whole-file reads
/// only where needed) give what the copying paths gave.
@Suite struct EvalMemoryPathTests {
    static func write(_ text: String) -> String {
        let path = TestFolder.root + "/padbench-memory-\(UUID().uuidString).csv"
        try! Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The format is told from the first data line even when blank and `#` lines push it past the
    /// 64 KiB prefix `detect` reads first, or when that line straddles the prefix's end.
    @Test func detectFindsTheFirstDataLineBeyondItsFirstPrefix() throws {
        let comment = "# " + String(repeating: "x", count: 97) + "\n" // 100 bytes
        let far = String(repeating: comment, count: 700) + "\n\nid,label,species,score\na,bonafide,,0.5\n"
        #expect(try ScoreFileReader().detect([Self.write(far)]) == .generic)
        // The header starts 10 bytes before byte 65,536 and ends after it.
        let straddling =
            String(repeating: comment, count: 655) + "#2345\n"
            + "claimed_id,real_id,test_label,is_bonafide,attack_type,score\n1,1,a,True,,0.5\n"
        #expect(straddling.utf8.count > 1 << 16)
        #expect(try ScoreFileReader().detect([Self.write(straddling)]) == .bobpad)
        // The same behind a byte order mark (dropped by readFile, so the prefix holds 3 bytes fewer).
        #expect(try ScoreFileReader().detect([Self.write("\u{FEFF}" + straddling)]) == .bobpad)
        let bob4 = String(repeating: comment, count: 1000) + "c1 c1 a 0.5" // no final newline
        #expect(try ScoreFileReader().detect([Self.write(bob4)]) == .bob4)
        let onlyComments = Self.write(String(repeating: comment, count: 1000))
        #expect(throws: ScoreFileError(file: onlyComments, line: 0, "no data lines")) {
            try ScoreFileReader().detect([onlyComments])
        }
    }

    /// `readFile` reads into uninitialised capacity: exactly the file's bytes (or the first
    /// `limit`), the terminating 0 when asked, a byte order mark dropped.
    @Test func readFileGivesTheFileBytesWithItsTerminator() throws {
        let path = Self.write("\u{FEFF}id,label,species,score\na,bonafide,,0.5\n")
        #expect(try ScoreFileReader.readFile(path) == Array("id,label,species,score\na,bonafide,,0.5\n".utf8))
        #expect(
            try ScoreFileReader.readFile(path, keepTerminator: true)
                == Array("id,label,species,score\na,bonafide,,0.5\n".utf8) + [0])
        #expect(try ScoreFileReader.readFile(path, limit: 5) == Array("id".utf8)) // 3 BOM bytes + "id"
        #expect(try ScoreFileReader.readFile(Self.write("")) == [])
    }
}

import Foundation
import Testing
@testable import PadMetrics
import TestSupport

@Suite struct ScoreFileHostileInputTests {
    static func write(_ text: String) -> String {
        let path = TestFolder.root + "/padbench-scores-\(UUID().uuidString).csv"
        try! text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// 1e400 does not fit a double: strtod gives +inf, which was silently a legal score.
    @Test func overflowIsALocatedErrorAndInfIsLegal() throws {
        let path = Self.write("id,label,species,score\na,bonafide,,0.5\nb,attack,print,1e400\n")
        #expect(
            throws: ScoreFileError(
                file: path, line: 3, "score '1e400' overflows a double (write inf for an infinite score)")
        ) {
            try ScoreFileReader().read([path])
        }
        let long = Self.write("id,label,species,score\na,bonafide,,\(String(repeating: "9", count: 5000))\n")
        do { _ = try ScoreFileReader().read([long]); Issue.record("no error") } catch {
            #expect(error.line == 2 && error.message.count < 300)
        }
        let inf = try ScoreFileReader().read([
            Self.write("id,label,species,score\na,bonafide,,inf\nb,attack,print,-inf\n")
        ])
        #expect(inf.set.scores == [.infinity, -.infinity])
    }

    /// The same id twice is counted once or not at all: an error naming both lines.
    @Test func duplicateIdsAreErrors() throws {
        let path = Self.write("id,label,species,score\na,bonafide,,0.5\nb,attack,print,0.1\na,bonafide,,0.6\n")
        let scores = try ScoreFileReader().read([path])
        #expect(
            throws: ScoreFileError(
                file: path, line: 4, "id 'a' already scored at \(path):2; each sample is counted once")
        ) {
            try scores.checkUniqueIds()
        }
    }

    /// bob formats repeat a test_label per frame: repeats are numbered, not errors.
    @Test func bobFrameRowsAreNumbered() throws {
        let path = Self.write(
            "claimed_id,test_label,is_bonafide,attack_type,score\n"
                + "x,v1,True,,0.9\nx,v1,True,,0.8\nx,v2,False,print,0.1\n"
        )
        let scores = try ScoreFileReader().read([path])
        #expect(scores.ids == ["v1", "v1#2", "v2"])
        try scores.checkUniqueIds()
    }

    /// RFC 4180 2.7: in a quoted field `""` is one `"`. Ids and species kept both quotes before.
    @Test func doubledQuotesInQuotedFieldsAreOneQuote() throws {
        let path = Self.write(
            "id,label,species,score\n\"a\"\"1\",bonafide,,0.5\n\"b,\"\"2\"\"\",attack,\"p\"\"x\",0.1\nc\"\"3,attack,print,0.2\n"
        )
        let scores = try ScoreFileReader().read([path])
        #expect(scores.ids == ["a\"1", "b,\"2\"", "c\"\"3"])
        #expect(scores.set.speciesNames == ["p\"x", "print"])
    }

    /// A UTF-8 byte order mark before the header is not part of the first column's name.
    @Test func byteOrderMarkIsAccepted() throws {
        let scores = try ScoreFileReader().read([Self.write("\u{FEFF}id,label,species,score\r\na,bonafide,,0.5\r\n")])
        #expect(scores.set.scores == [0.5] && scores.ids == ["a"])
    }
}

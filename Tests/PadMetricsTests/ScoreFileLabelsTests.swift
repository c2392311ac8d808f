import Foundation
import Testing

@testable import PadMetrics

/// issue 30: a generic score file carries the samples' labels as a dataset manifest does
/// (`group.<name>`, `attr.<name>` columns), so a score run gets fairness.csv and attributes.csv.
/// On main at 8063f82 these columns were "unknown column" errors.
@Suite struct ScoreFileLabelsTests {
    static let write = ScoreFileHostileInputTests.write

    @Test func groupAndAttributeColumnsAreRead() throws {
        let path = Self.write(
            "id,label,species,score,Group.Sex,attr.blurry\n"
                + "a,bonafide,,0.9,female,0\nb,attack,print,0.1, male ,1\nc,attack,print,0.2,,\n")
        let scores = try ScoreFileReader().read([path])
        #expect(scores.labelNames == ["group.sex", "attr.blurry"])
        #expect(scores.labels == [["female", "male", ""], ["0", "1", ""]])
        #expect(scores.set.count == 3 && scores.ids == ["a", "b", "c"])
        // A file without label columns has none.
        let plain = Self.write("id,label,species,score\na,bonafide,,0.9\n")
        #expect(try ScoreFileReader().read([plain]).labelNames.isEmpty)
        // A prefix without a name is still an unknown column.
        let bare = Self.write("id,label,species,score,group.\na,bonafide,,0.9,x\n")
        #expect(throws: ScoreFileError.self) { try ScoreFileReader().read([bare]) }
    }

    /// A file scanned in two halves on two cores gives every row its own labels, in file order.
    @Test func labelsSurviveTheTwoPartScan() throws {
        var text = "id,label,species,score,group.sex\n"
        for i in 0..<200 {
            text += "s\(i),\(i % 2 == 0 ? "bonafide" : "attack"),\(i % 2 == 0 ? "" : "print"),0.\(i),g\(i % 3)\n"
        }
        let path = Self.write(text)
        var reader = ScoreFileReader()
        reader.parallelScanBytes = 1
        let scores = try reader.read([path])
        #expect(scores.labels == [(0..<200).map { "g\($0 % 3)" }])
        #expect(scores.ids == (0..<200).map { "s\($0)" })
    }

    /// Rows appended from another file keep their columns by name ("" where a file has none).
    @Test func appendLabelsMatchesColumnsByName() {
        var scores = ImportedScores(set: ScoreSet(), splits: [], format: .generic, polarity: .bonafideHigh, lines: 0)
        scores.appendLabels(["group.sex"], [["f", "m"]], rows: 2)
        scores.ids += ["a", "b"]
        scores.appendLabels(["attr.x", "group.sex"], [["1"], ["m"]], rows: 1)
        scores.ids += ["c"]
        #expect(scores.labelNames == ["group.sex", "attr.x"])
        #expect(scores.labels == [["f", "m", "m"], ["", "", "1"]])
    }
}

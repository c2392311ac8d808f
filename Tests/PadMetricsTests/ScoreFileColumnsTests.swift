import Foundation
import Testing

@testable import PadMetrics

/// issue 27: score files carry what bob's carry (subjects), and nothing in them is ignored or
/// guessed: an unknown column is an error with a did-you-mean, an attack without a species is an
/// error naming its line, manifests' label words are accepted. Each fails on main at ea3c17e.
@Suite struct ScoreFileColumnsTests {
    static let write = ScoreFileHostileInputTests.write

    /// `splt` was silently ignored, so the threshold was chosen on the reported set.
    @Test func unknownColumnIsAnErrorWithDidYouMean() throws {
        let path = Self.write("id,label,species,score,splt\na,bonafide,,0.5,dev\n")
        #expect(
            throws: ScoreFileError(
                file: path, line: 1,
                "unknown column 'splt' (did you mean 'split'?); a generic score file has "
                    + "id, label, species, score, split, subject, presentation and group.<name> / attr.<name> labels")
        ) { try ScoreFileReader().read([path]) }
        // bob.pad CSVs keep their extra columns (sample_n, ...).
        let bobpad = Self.write("claimed_id,test_label,is_bonafide,attack_type,score,extra\nc,t,True,,0.5,x\n")
        #expect(try ScoreFileReader().read([bobpad], format: .bobpad).set.count == 1)
    }

    /// An attack row with no species became a species named `attack`.
    @Test func attackWithoutSpeciesNamesItsLine() throws {
        let path = Self.write("id,label,species,score\na,bonafide,,0.5\n\nb,attack,,0.1\n")
        #expect(
            throws: ScoreFileError(
                file: path, line: 4, "attack row with an empty species: give its PAI species (print, replay, mask, ...)"
            )
        ) { try ScoreFileReader().read([path]) }
    }

    @Test func manifestLabelWordsAreAccepted() throws {
        let path = Self.write(
            "id,label,species,score\na,live,,0.9\nb,REAL,,0.8\nc,spoof,print,0.1\nd,Attack,mask,0.2\n")
        let scores = try ScoreFileReader().read([path])
        #expect(scores.set.speciesIndex == [-1, -1, 0, 1] && scores.set.speciesNames == ["print", "mask"])
        let bad = Self.write("id,label,species,score\na,fake,,0.9\n")
        #expect(
            throws: ScoreFileError(file: bad, line: 2, "label 'fake' must be bonafide (live, real) or attack (spoof)")
        ) { try ScoreFileReader().read([bad]) }
    }

    /// A generic `subject` column, and bob's `real_id` as the subject of bona fide rows.
    @Test func subjectsAreRead() throws {
        let generic = Self.write("id,label,species,score,subject\na,bonafide,,0.9,p1\nb,attack,print,0.1,p2\n")
        #expect(try ScoreFileReader().read([generic]).subjects == ["p1", "p2"])
        let plain = Self.write("id,label,species,score\na,bonafide,,0.9\n")
        #expect(try ScoreFileReader().read([plain]).subjects.isEmpty)
        let bob4 = Self.write("p1 p1 live/p1/1 0.9\np2 p2 live/p2/1 0.8\np1 attack attack/print/p1 0.1\n")
        #expect(try ScoreFileReader().read([bob4], format: .bob4).subjects == ["p1", "p2", ""])
        let bob5 = Self.write("p1 m p1 live/p1/1 0.9\np1 m attack attack/print/p1 0.1\n")
        #expect(try ScoreFileReader().read([bob5], format: .bob5).subjects == ["p1", ""])
    }
}

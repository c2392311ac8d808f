import Foundation
import Testing
@testable import PadMetrics
import TestSupport

/// The presentation a score-file row belongs to: bob's `test_label`, a generic `presentation`
/// column, and the rule that one presentation has one label, species and split.
@Suite struct PresentationScoreFileTests {
    static func write(_ text: String, _ name: String = "s.txt") -> String {
        let path = TestFolder.root + "/padbench-pres-\(UUID().uuidString)-\(name)"
        try! text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// bob 4-column: frames of one test_label are one presentation (frame ids keep `#k`).
    @Test func bobTestLabelIsThePresentation() throws {
        let path = Self.write("a a v1 0.9\na a v1 0.7\nb attack attack/print/v2 0.1\nb attack attack/print/v2 0.3\n")
        let scores = try ScoreFileReader().read([path])
        #expect(scores.ids == ["v1", "v1#2", "attack/print/v2", "attack/print/v2#2"])
        #expect(scores.presentations == ["v1", "v1", "attack/print/v2", "attack/print/v2"])
        try scores.checkPresentations { _ in "" }
    }

    /// bob.pad CSV with `sample_n`: ids are `label#n`, the presentation is the label.
    @Test func bobPadSampleNumbersShareTheirLabel() throws {
        let path = Self.write(
            "claimed_id,test_label,is_bonafide,attack_type,score,sample_n\n"
                + "x,v1,True,,0.9,0\nx,v1,True,,0.8,1\nx,v2,False,print,0.1,0\n", "s.csv")
        let scores = try ScoreFileReader().read([path])
        #expect(scores.ids == ["v1#0", "v1#1", "v2#0"])
        #expect(scores.presentations == ["v1", "v1", "v2"])
    }

    /// Still-image bob files (no repeated label) have no presentation column of their own.
    @Test func stillImageBobFilesHaveNoPresentations() throws {
        let scores = try ScoreFileReader().read([Self.write("a a i1 0.9\nb attack attack/print/i2 0.1\n")])
        #expect(scores.presentations.isEmpty)
    }

    @Test func genericPresentationColumnIsRead() throws {
        let path = Self.write(
            "id,label,species,score,presentation\nf1,bonafide,,0.5,v1\nf2,bonafide,,0.6,v1\nf3,attack,print,0.1,\n",
            "g.csv")
        let scores = try ScoreFileReader().read([path])
        #expect(scores.presentations == ["v1", "v1", "f3"])
    }

    /// A presentation whose rows disagree on label, species or split is an error naming both lines.
    @Test func presentationSpanningTwoLabelsOrSpeciesIsAnError() throws {
        let path = Self.write("a a v1 0.9\nb attack v1 0.2\n")
        let scores = try ScoreFileReader().read([path])
        #expect(
            throws: ScoreFileError(
                file: path, line: 2, "presentation 'v1' spans two labels: 'attack' here, 'bonafide' at \(path):1")
        ) { try scores.checkPresentations { _ in "" } }

        let generic = Self.write(
            "id,label,species,score,split,presentation\nf1,attack,print,0.5,dev,v1\nf2,attack,replay,0.6,dev,v1\n"
                + "f3,attack,print,0.5,eval,v1\n", "g.csv")
        let g = try ScoreFileReader().read([generic])
        #expect(
            throws: ScoreFileError(
                file: generic, line: 3, "presentation 'v1' spans two species: 'replay' here, 'print' at \(generic):2")
        ) { try g.checkPresentations { g.splits[$0] } }
    }

    @Test func presentationSpanningTwoSplitsIsAnError() throws {
        let generic = Self.write(
            "id,label,species,score,split,presentation\nf1,attack,print,0.5,dev,v1\nf3,attack,print,0.5,eval,v1\n",
            "g.csv")
        let g = try ScoreFileReader().read([generic])
        #expect(
            throws: ScoreFileError(
                file: generic, line: 3, "presentation 'v1' spans two splits: 'eval' here, 'dev' at \(generic):2")
        ) { try g.checkPresentations { g.splits[$0] } }
    }
}

@Suite struct AttackPotentialTests {
    /// Hand-computed: level 1 holds print 2/10 and replay 3/10 -> 0.3 (replay); level 2 mask 0/4;
    /// a species without a level is `unassigned`; a species with no attack processed takes no part.
    @Test func apcerPerLevelIsTheHighestOfItsSpecies() {
        let ap = AttackPotential(levels: ["print": "1", "replay": "1", "mask": "2"])
        let levels = ap.apcerPerLevel(
            speciesNames: ["print", "replay", "mask", "cutout", "paper"],
            apcer: [
                Proportion(errors: 2, total: 10), Proportion(errors: 3, total: 10), Proportion(errors: 0, total: 4),
                Proportion(errors: 1, total: 2), Proportion(errors: 0, total: 0),
            ])
        #expect(levels.map(\.level) == ["1", "2", "unassigned"])
        #expect(levels.map(\.species) == ["replay", "mask", "cutout"])
        #expect(levels.map(\.apcer.value) == [0.3, 0, 0.5])
    }

    @Test func tableIsReadAndConflictsNameBothLines() throws {
        let good = PresentationScoreFileTests.write("species,attack_potential\n# level 1\nprint,1\nmask,2\n", "ap.csv")
        #expect(try AttackPotential.read(good).levels == ["print": "1", "mask": "2"])
        let bad = PresentationScoreFileTests.write("species,attack_potential\nprint,1\nprint,2\n", "ap.csv")
        #expect(throws: ScoreFileError(file: bad, line: 3, "species 'print' is level '2' here and '1' on line 2")) {
            try AttackPotential.read(bad)
        }
        let header = PresentationScoreFileTests.write("species,level\n", "ap.csv")
        #expect(throws: ScoreFileError(file: header, line: 1, "header must be species,attack_potential")) {
            try AttackPotential.read(header)
        }
    }
}

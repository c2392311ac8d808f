import Foundation
import Testing
@testable import PadMetrics

/// The paired bootstrap of `compare`: point estimates worked by hand, the resampling against a
/// direct computation written apart from it (its own SplitMix64 and draws, one shared draw per
/// replicate applied to both runs), determinism with a fixed seed, and no alarm on identical runs.
@Suite struct PairedBootstrapTests {
    /// Bona fide A (0.9, 0.7), B (0.6), C (0.4); print attacks D (0.2, 0.1), E (0.5), F (0.65).
    /// The new model scores E's attack 0.62 instead of 0.5: the same decisions at 0.55 and above 0.65.
    static let species: [Int32] = [-1, -1, -1, -1, 0, 0, 0, 0]
    static let subjects = ["A", "A", "B", "C", "D", "D", "E", "F"]
    static let base: [Double] = [0.9, 0.7, 0.6, 0.4, 0.2, 0.1, 0.5, 0.65]
    static let new: [Double] = [0.9, 0.7, 0.6, 0.4, 0.2, 0.1, 0.62, 0.65]
    static let input = PairedBootstrap.Input(
        species: species, subjects: subjects, speciesNames: ["print"], base: base.map { $0 }, new: new.map { $0 })
    /// Three units per stratum: below the default minimum, so the worked case lowers it to 3.
    static var threeUnits: PairedBootstrap.Settings {
        var settings = PairedBootstrap.Settings()
        settings.minimumUnits = 3
        return settings
    }

    /// By hand (bob.measure's EER: the threshold minimising |APCER - BPCER|, EER = their mean):
    /// base, t in (0.5, 0.6]: APCER 1/4 (0.65), BPCER 1/4 (0.4): EER 0.25.
    /// new, t in (0.6, 0.62]: APCER 2/4 (0.62, 0.65), BPCER 2/4 (0.4, 0.6): EER 0.5; every other
    /// gap leaves |APCER - BPCER| >= 1/4.
    /// BPCER@APCER = x < 1/4: no attack score v has #(>= v)/4 <= x, so the threshold is the next
    /// double above 0.65 (APCER 0), where 0.4 and 0.6 are rejected: BPCER 2/4 in both runs.
    @Test func handWorkedCaseAndFixedSeed() throws {
        let result = PairedBootstrap.compare(
            Self.input, targets: SubjectBootstrapTests.targets, settings: Self.threeUnits)
        let eer = try #require(result.metrics.first { $0.name == "eer" })
        #expect(eer.base == 0.25 && eer.new == 0.5 && eer.rise == 0.25)
        #expect(result.metrics.map(\.name) == ["eer", "bpcer@apcer=0.01", "bpcer@apcer=0.05", "bpcer@apcer=0.1"])
        for target in result.metrics.dropFirst() { #expect(target.base == 0.5 && target.new == 0.5) }
        #expect(result.bonaFideUnits == 3 && result.attackUnits == 3)
        // The same seed gives the same numbers; another seed draws other replicates.
        #expect(
            PairedBootstrap.compare(Self.input, targets: SubjectBootstrapTests.targets, settings: Self.threeUnits)
                == result)
        var other = Self.threeUnits
        other.seed = 1
        #expect(
            PairedBootstrap.compare(Self.input, targets: SubjectBootstrapTests.targets, settings: other).settings.seed
                == 1)
        #expect(eer.lowerBound == Self.referenceLowerBound(seed: PairedBootstrap.seed))
        #expect(
            PairedBootstrap.compare(Self.input, targets: SubjectBootstrapTests.targets, settings: other).metrics[0]
                .lowerBound
                == Self.referenceLowerBound(seed: 1))
    }

    /// The procedure written out directly: per replicate, one draw of 3 bona fide subjects
    /// (A, B, C in name order) then 3 print subjects (D, E, F), the SAME draw scored with each
    /// run's scores; the EER of each, the difference, sorted; L = the 51st of 1000 (floor(0.05 n) + 1).
    static func referenceLowerBound(seed: UInt64) -> Double {
        var rng = SubjectBootstrapTests.Reference(state: seed)
        let units = [[0, 1], [2], [3], [4, 5], [6], [7]] // A B C | D E F, sample indices
        var differences: [Double] = []
        for _ in 0..<1000 {
            let bonaFide = (0..<3).map { _ in units[rng.index(3)] }.flatMap { $0 }
            let attacks = (0..<3).map { _ in units[3 + rng.index(3)] }.flatMap { $0 }
            func eer(_ scores: [Double]) -> Double? {
                var set = ScoreSet()
                _ = set.index(ofSpecies: "print")
                for i in bonaFide { set.append(score: scores[i], species: nil) }
                for i in attacks { set.append(score: scores[i], species: "print") }
                return (try? EqualErrorRate(try ErrorCurve(set)))?.value
            }
            if let b = eer(base), let n = eer(new) { differences.append(n - b) }
        }
        differences.sort()
        return differences[Int((0.05 * Double(differences.count)).rounded(.down))]
    }

    /// Two identical runs: every replicate's difference is 0, so L = 0 and nothing is significant.
    @Test func identicalRunsNeverAlarm() {
        let same = PairedBootstrap.Input(
            species: Self.species, subjects: Self.subjects, speciesNames: ["print"], base: Self.base.map { $0 },
            new: Self.base.map { $0 })
        let result = PairedBootstrap.compare(same, targets: SubjectBootstrapTests.targets, settings: Self.threeUnits)
        #expect(result.metrics.allSatisfy { $0.lowerBound == 0 && !$0.significant && $0.rise == 0 })
        #expect(result.metrics.allSatisfy { $0.replicatesUsed == 1000 })
    }

    /// Fewer units than the minimum (3 subjects per stratum, default 10): the point estimates are
    /// reported, no replicate is drawn, no bound is given, nothing is significant; the smallest
    /// stratum and the kind of unit are named. Without subjects the units are presentations.
    @Test func tooFewUnitsDrawNoReplicate() {
        let result = PairedBootstrap.compare(Self.input, targets: SubjectBootstrapTests.targets)
        #expect(result.tooFewUnits && result.smallestUnits == 3 && result.smallestStratum == "bonafide")
        #expect(result.unitKind == "subjects")
        #expect(result.metrics[0].base == 0.25 && result.metrics[0].new == 0.5)
        #expect(result.metrics.allSatisfy { $0.lowerBound == nil && $0.replicatesUsed == 0 && !$0.significant })
        // One subject per class, as the committed sample's eval split: the interval would be the
        // point difference itself.
        let one = PairedBootstrap.Input(
            species: Self.species, subjects: ["A", "A", "A", "A", "D", "D", "D", "D"], speciesNames: ["print"],
            base: Self.base.map { $0 }, new: Self.new.map { $0 })
        let single = PairedBootstrap.compare(one, targets: SubjectBootstrapTests.targets, settings: Self.threeUnits)
        #expect(single.tooFewUnits && single.smallestUnits == 1)
        let presentations = PairedBootstrap.Input(
            species: Self.species, subjects: Array(repeating: "", count: 8), speciesNames: ["print"],
            base: Self.base.map { $0 }, new: Self.new.map { $0 })
        let byPresentation = PairedBootstrap.compare(
            presentations, targets: SubjectBootstrapTests.targets, settings: Self.threeUnits)
        #expect(byPresentation.unitKind == "presentations" && byPresentation.smallestUnits == 4)
        #expect(!byPresentation.tooFewUnits && byPresentation.metrics[0].replicatesUsed == 1000)
    }

    /// L = d(floor((1 - c) n) + 1): of 1..20 at 95%, floor(1) + 1 = the 2nd.
    @Test func lowerBoundRank() {
        #expect(PairedBootstrap.lowerBound((1...20).map(Double.init).reversed(), confidence: 0.95) == 2)
        #expect(PairedBootstrap.lowerBound([], confidence: 0.95) == nil)
        #expect(PairedBootstrap.lowerBound([3], confidence: 0.95) == 3)
    }
}

import PadMetrics
import Testing

/// FDR, GARBE and the max/min ratio on three hand-made groups; the expected values are exact
/// fractions from Fixtures/differentials/differentials.py (written from the papers' definitions,
/// the Gini by its sorted-rank form rather than the pairwise sum), listed in expected.txt.
@Suite struct DemographicDifferentialsTests {
    // Group A: 1/10 bona fide rejected, 2/10 prints accepted; B: 3/10, 1/10; C: 2/10, 4/10.
    static func decisions() -> (groups: [String?], species: [Int32], accepted: [Bool]) {
        var groups: [String?] = [], species: [Int32] = [], accepted: [Bool] = []
        for (group, bfRejected, attacksAccepted) in [("A", 1, 2), ("B", 3, 1), ("C", 2, 4)] {
            for k in 0..<10 { groups.append(group); species.append(-1); accepted.append(k >= bfRejected) }
            for k in 0..<10 { groups.append(group); species.append(0); accepted.append(k < attacksAccepted) }
        }
        groups.append(nil); species.append(-1); accepted.append(false) // no group: left out
        return (groups, species, accepted)
    }

    /// Subjects per group: A's 20 samples come from 4 people, B's from 1, C's from none named; the
    /// sample without group is left out. Without subjects the count is unknown (nil).
    @Test func subjectsPerGroup() {
        let d = Self.decisions()
        let subjects = d.groups.indices.map { i -> String in
            switch d.groups[i] {
            case "A": "a\(i % 4)"
            case "B": "b"
            default: ""
            }
        }
        let counts = DemographicDifferentials.count(
            groups: d.groups, species: d.species, accepted: d.accepted, speciesCount: 1, subjects: subjects)
        #expect(counts.map(\.subjects) == [4, 1, 0])
        #expect(
            DemographicDifferentials.count(groups: d.groups, species: d.species, accepted: d.accepted, speciesCount: 1)
                .allSatisfy { $0.subjects == nil })
    }

    @Test func handWorkedThreeGroups() {
        let d = Self.decisions()
        let counts = DemographicDifferentials.count(
            groups: d.groups, species: d.species, accepted: d.accepted, speciesCount: 1)
        #expect(counts.map(\.group) == ["A", "B", "C"])
        #expect(counts.map(\.bpcer) == [1, 3, 2].map { Proportion(errors: $0, total: 10) })
        #expect(counts.map(\.apcerMax) == [2, 1, 4].map { Proportion(errors: $0, total: 10) })
        let apcer = counts.map(\.apcerMax.value), bpcer = counts.map(\.bpcer.value)
        #expect(abs(DemographicDifferentials.fairnessDiscrepancyRate(apcer: apcer, bpcer: bpcer) - 0.75) < 1e-12)
        #expect(abs(DemographicDifferentials.gini(apcer) - 3.0 / 7) < 1e-12)
        #expect(abs(DemographicDifferentials.gini(bpcer) - 1.0 / 3) < 1e-12)
        #expect(abs(DemographicDifferentials.garbe(apcer: apcer, bpcer: bpcer) - 8.0 / 21) < 1e-12)
        #expect(
            abs(DemographicDifferentials.fairnessDiscrepancyRate(apcer: apcer, bpcer: bpcer, alpha: 0.3) - 0.77) < 1e-12
        )
        #expect(abs(DemographicDifferentials.garbe(apcer: apcer, bpcer: bpcer, alpha: 0.3) - 38.0 / 105) < 1e-12)
        #expect(abs(DemographicDifferentials.maxMinRatio(apcer) - 4) < 1e-12)
        #expect(abs(DemographicDifferentials.maxMinRatio(bpcer) - 3) < 1e-12)
        #expect(DemographicDifferentials.maxMinRatio(counts.map(\.bpcer)) == 3)
        #expect(DemographicDifferentials.maxMinRatio(counts.map(\.apcerMax)) == 4)
        #expect(DemographicDifferentials.maxMinRatio([Proportion(errors: 0, total: 5), counts[0].bpcer]) == .infinity)
    }

    /// Equal rates are perfectly fair (FDR 1, GARBE 0, also all zero); one group has nothing to
    /// compare; a zero lowest rate makes the ratio infinite.
    @Test func edgeCases() {
        #expect(DemographicDifferentials.fairnessDiscrepancyRate(apcer: [0.2, 0.2], bpcer: [0, 0]) == 1)
        #expect(DemographicDifferentials.garbe(apcer: [0, 0], bpcer: [0.1, 0.1]) == 0)
        #expect(DemographicDifferentials.gini([0.5]).isNaN)
        #expect(DemographicDifferentials.garbe(apcer: [0.5], bpcer: [0.5]).isNaN)
        #expect(DemographicDifferentials.fairnessDiscrepancyRate(apcer: [0.5], bpcer: [0.5]).isNaN)
        #expect(DemographicDifferentials.fairnessDiscrepancyRate(apcer: [], bpcer: []).isNaN)
        #expect(DemographicDifferentials.maxMinRatio([0, 0.1]) == .infinity)
        #expect(DemographicDifferentials.maxMinRatio([0, 0]).isNaN)
        // Two groups, one holding every error: G = 2/1 * (2 * 0.5) / (2 * 4 * 0.25) = 1.
        #expect(DemographicDifferentials.gini([0, 0.5]) == 1)
        #expect(DemographicDifferentials.fairnessDiscrepancyRate(apcer: [0], bpcer: [0.1], alpha: 2).isNaN)
    }
}

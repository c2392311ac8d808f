import Foundation
import Testing
@testable import PadMetrics
import PadVocabulary

/// The subject bootstrap against a direct computation written apart from it: its own SplitMix64,
/// its own 128-bit multiply for the draws, and plain arithmetic; plus the exact bootstrap
/// distribution by enumerating all 27 ordered draws of 3 subjects.
@Suite struct SubjectBootstrapTests {
    /// The APCER targets every run reports (`ProfileResult.targets`).
    static let targets = [0.01, 0.05, 0.1]

    /// Bona fide subjects a (2 samples, 1 rejected), b (3 samples, 0 rejected), c (1 sample,
    /// rejected); print subjects d (2 of 2 accepted), e (0 of 3), f (1 of 1). Scores: accepted
    /// samples score 0.6-0.9, rejected ones 0.1-0.4.
    static let input = SubjectBootstrap.Input(
        species: [-1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0],
        subjects: ["a", "a", "b", "b", "b", "c", "d", "d", "e", "e", "e", "f"],
        accepted: [true, false, true, true, true, false, true, true, false, false, false, true],
        scores: [0.9, 0.2, 0.8, 0.7, 0.85, 0.1, 0.6, 0.65, 0.3, 0.2, 0.4, 0.75],
        speciesNames: ["print"])

    /// Subjects per stratum in name order, as (errors, total).
    static let bonaFide = [(1, 2), (0, 3), (1, 1)] // a, b, c: rejected / samples
    static let print = [(2, 2), (0, 3), (1, 1)] // d, e, f: accepted / samples

    struct Reference {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &+ 0x9E3779B97F4A7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
            z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
            return z ^ (z >> 31)
        }
        mutating func index(_ m: Int) -> Int { Int((UInt128(next()) * UInt128(m)) >> 64) }
    }

    static func ratio(_ picks: [Int], _ clusters: [(Int, Int)]) -> Double {
        Double(picks.map { clusters[$0].0 }.reduce(0, +)) / Double(picks.map { clusters[$0].1 }.reduce(0, +))
    }

    /// 26th and 975th of 1000 sorted values.
    static func percentile(_ values: [Double]) -> (Double, Double) {
        let sorted = values.sorted()
        return (sorted[25], sorted[974])
    }

    @Test func matchesAnIndependentComputationWithTheSameSeed() throws {
        var rng = Reference(state: 30107)
        var bpcer: [Double] = [], apcer: [Double] = [], eer: [Double] = []
        for _ in 0..<1000 {
            let bf = (0..<3).map { _ in rng.index(3) }, at = (0..<3).map { _ in rng.index(3) }
            bpcer.append(Self.ratio(bf, Self.bonaFide))
            apcer.append(Self.ratio(at, Self.print))
            // The same replicate's swept scores, sample by sample.
            var set = ScoreSet()
            _ = set.index(ofSpecies: "print")
            let bfSamples = [[0, 1], [2, 3, 4], [5]], atSamples = [[6, 7], [8, 9, 10], [11]]
            for c in bf { for i in bfSamples[c] { set.append(score: Self.input.scores![i], species: nil) } }
            for c in at { for i in atSamples[c] { set.append(score: Self.input.scores![i], species: "print") } }
            eer.append(try EqualErrorRate(try ErrorCurve(set)).value)
        }
        let result = SubjectBootstrap.intervals(Self.input, targets: Self.targets)
        let (bLow, bHigh) = Self.percentile(bpcer), (aLow, aHigh) = Self.percentile(apcer),
            (eLow, eHigh) = Self.percentile(eer)
        #expect(result.bpcer == .init(low: bLow, high: bHigh))
        #expect(result.apcerMax == .init(low: aLow, high: aHigh))
        #expect(result.eer == .init(low: eLow, high: eHigh))
        #expect(result.bonaFideSubjects == 3 && result.attackSubjects == [.init(species: "print", subjects: 3)])
        #expect(result.replicates == 1000 && result.seed == 30107)
        // Reproducible: the same call gives the same intervals.
        #expect(SubjectBootstrap.intervals(Self.input, targets: Self.targets) == result)
    }

    /// All 27 ordered draws of 3 subjects are equally likely: the exact bootstrap distribution of
    /// BPCER and APCER. Their 2.5% and 97.5% quantiles (smallest v with P(X <= v) >= q) are what
    /// the 1000 replicates give.
    @Test func agreesWithTheEnumeratedDistribution() throws {
        func exactQuantiles(_ clusters: [(Int, Int)]) -> (Double, Double) {
            var values: [Double] = []
            for i in 0..<3 { for j in 0..<3 { for k in 0..<3 { values.append(Self.ratio([i, j, k], clusters)) } } }
            values.sort()
            func quantile(_ q: Double) -> Double { values[Int((q * 27).rounded(.up)) - 1] }
            return (quantile(0.025), quantile(0.975))
        }
        let result = SubjectBootstrap.intervals(Self.input, targets: Self.targets)
        let (bLow, bHigh) = exactQuantiles(Self.bonaFide), (aLow, aHigh) = exactQuantiles(Self.print)
        // BPCER: each extreme is one outcome in 27 (3.7% > 2.5%): 0 (b,b,b) and 1 (c,c,c).
        #expect(bLow == 0 && bHigh == 1)
        #expect(result.bpcer == .init(low: bLow, high: bHigh))
        #expect(result.apcerMax == .init(low: aLow, high: aHigh))
    }

    @Test func oneSubjectGivesAPointAndIsFlagged() {
        let input = SubjectBootstrap.Input(
            species: [-1, -1, 0, 0], subjects: ["a", "a", "b", "b"], accepted: [true, false, true, false],
            scores: nil, speciesNames: ["replay"])
        let result = SubjectBootstrap.intervals(input, targets: Self.targets)
        #expect(result.bpcer == .init(low: 0.5, high: 0.5) && result.apcerMax == .init(low: 0.5, high: 0.5))
        #expect(result.hasSingleSubjectStratum && result.eer == nil && result.bpcerAtAPCER.isEmpty)
    }

    /// Samples with no subject are clusters of their own; strata are ordered by species name.
    @Test func clustersByStratumAndSubject() {
        let input = SubjectBootstrap.Input(
            species: [1, 0, -1, 1, -1, -1], subjects: ["x", "y", "", "x", "z", ""],
            accepted: Array(repeating: true, count: 6), scores: nil, speciesNames: ["replay", "print"])
        let (strata, order) = SubjectBootstrap.clusters(input)
        #expect(order == [1, 0]) // print before replay
        #expect(strata[0] == [[4], [2], [5]]) // bona fide: z, then the two without subject
        #expect(strata[1] == [[0, 3]]) // print: x
        #expect(strata[2] == [[1]]) // replay: y
    }

    @Test func percentileIndices() {
        let values = (1...1000).map(Double.init).reversed()
        #expect(SubjectBootstrap.percentile(Array(values)) == .init(low: 26, high: 975))
        #expect(SubjectBootstrap.percentile([.nan, 3]) == .init(low: 3, high: 3))
        #expect(SubjectBootstrap.percentile([]) == nil)
    }

    /// A replicate's curve from the scores sorted once (``SubjectBootstrap/PresortedStrata``) is
    /// the curve of the drawn samples gathered and sorted (``PairedBootstrap``'s), point for point,
    /// on 600 samples of 3 species and 40 subjects with ties, NaN scores, -0 and +0, and subjects
    /// that give several classes; each of 50 replicates drawn with repeats. Thresholds are equal as
    /// numbers: a zero threshold may carry the other sign, since below 4,096 scores RadixSort
    /// falls back to a comparison sort that leaves -0 and +0 in gathering order; the bootstrap
    /// reads only rates.
    @Test func presortedReplicateCurvesEqualSortedOnes() {
        var rng = SplitMix64(seed: 7)
        let names = ["replay", "print", "mask"]
        var species: [Int32] = [], subjects: [String] = [], scores: [Double] = []
        for i in 0..<600 {
            species.append(Int32(rng.next() % 4) - 1)
            subjects.append(i % 7 == 0 ? "" : "s\(rng.next() % 40)")
            let r = rng.next() % 100
            scores.append(r < 5 ? .nan : r < 8 ? -0.0 : r < 11 ? 0.0 : Double(r % 23) / 7 - 1.5)
        }
        let input = SubjectBootstrap.Input(
            species: species, subjects: subjects, accepted: species.map { $0 < 0 }, scores: scores,
            speciesNames: names)
        let (strata, order) = SubjectBootstrap.clusters(input)
        let presorted = SubjectBootstrap.PresortedStrata(strata, scores: scores, speciesNames: names, order: order)
        for _ in 0..<50 {
            let drawn = strata.map { clusters in
                (0..<clusters.count).map { _ in Int(rng.next() % UInt64(clusters.count)) }
            }
            let a = presorted.curve(drawn), b = PairedBootstrap.curve(strata, drawn, input, order) { scores[$0] }
            #expect((a == nil) == (b == nil))
            guard let a, let b else { continue }
            #expect(a.speciesNames == b.speciesNames && a.count == b.count)
            #expect(a.bonaFideCount == b.bonaFideCount && a.attackCounts == b.attackCounts)
            var differing = 0
            for p in 0..<a.count {
                let same = a.thresholds[p] == b.thresholds[p] && a.bpcer(p) == b.bpcer(p)
                let rates = a.apcerMax(p).value == b.apcerMax(p).value
                let species = (0..<names.count).allSatisfy { (s: Int) -> Bool in a.apcer(s, p) == b.apcer(s, p) }
                if !(same && rates && species) { differing += 1 }
            }
            #expect(differing == 0)
        }
    }
}

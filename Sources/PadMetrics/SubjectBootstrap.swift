import PadVocabulary

/// Subject-clustered percentile bootstrap intervals: samples of one person are not independent,
/// so Clopper-Pearson intervals computed over images are too narrow when subjects give many
/// images. The bootstrap resamples whole subjects instead (Field & Welsh 2007, "Bootstrapping
/// clustered data"; Bolle, Ratha & Pankanti 2004 resample subjects for biometric error rates).
///
/// Example: `SubjectBootstrapTests.matchesAnIndependentComputationWithTheSameSeed`
/// in `Tests/PadReportTests/SubjectBootstrapTests.swift` (compiled and run by `swift test`).
/// Procedure (B = 1000 replicates, SplitMix64 seeded with 30107):
/// - strata: bona fide, and each attack species (sorted by name); a subject is a cluster within
///   its stratum (a person who gives bona fide and print samples is one cluster in each); a
///   sample with no subject is a cluster of its own;
/// - each replicate draws, stratum by stratum in that order, m subjects with replacement from
///   the stratum's m subjects (index = high 64 bits of `next() * m`, Lemire's multiply) and takes
///   all their samples (a subject drawn twice counts twice);
/// - statistics per replicate: APCER_max = max over species of accepted / total and BPCER =
///   rejected / total at the profile's decisions (thresholds held fixed); EER and BPCER at each
///   APCER target given (a run's `ProfileResult.targets`) from the replicate's exact curve of the
///   swept score (same rules as the run);
///   a target out of reach in a replicate leaves that replicate out of its interval;
/// - interval: the sorted finite replicate values v(1) <= ... <= v(n) give
///   [v(floor(0.025 n) + 1), v(ceil(0.975 n))] (percentile interval; n = 1000: the 26th and the
///   975th).
/// With one subject in a stratum the interval cannot show between-subject variation; the counts
/// of subjects are reported beside it.
package enum SubjectBootstrap {
    package static let replicates = 1000
    package static let seed: UInt64 = 30107

    /// A two-sided 95% interval.
    package struct Interval: Sendable, Codable, Equatable {
        package var low: Double
        package var high: Double
        package init(low: Double, high: Double) { self.low = low; self.high = high }
    }

    /// The intervals of one profile's reported set, as `results.json` records them
    /// (`ProfileResult.SubjectIntervals`).
    package struct Intervals: Sendable, Codable, Equatable {
        package struct SpeciesSubjects: Sendable, Codable, Equatable {
            package var species: String
            package var subjects: Int
            package init(species: String, subjects: Int) { self.species = species; self.subjects = subjects }
        }
        package struct TargetInterval: Sendable, Codable, Equatable {
            package var target: Double
            package var interval: Interval?
            /// Replicates in which the target could be met (the interval is over these).
            package var replicatesMet: Int
            package init(target: Double, interval: Interval?, replicatesMet: Int) {
                self.target = target; self.interval = interval; self.replicatesMet = replicatesMet
            }
        }
        package var method = "subject-clustered percentile bootstrap, strata bona fide and each species"
        package var replicates: Int
        package var seed: UInt64
        package var bonaFideSubjects: Int
        package var attackSubjects: [SpeciesSubjects]
        package var apcerMax: Interval?
        package var bpcer: Interval?
        package var eer: Interval?
        package var bpcerAtAPCER: [TargetInterval]
        package init(
            replicates: Int, seed: UInt64, bonaFideSubjects: Int, attackSubjects: [SpeciesSubjects],
            apcerMax: Interval?, bpcer: Interval?, eer: Interval?, bpcerAtAPCER: [TargetInterval]
        ) {
            self.replicates = replicates; self.seed = seed; self.bonaFideSubjects = bonaFideSubjects
            self.attackSubjects = attackSubjects; self.apcerMax = apcerMax; self.bpcer = bpcer; self.eer = eer
            self.bpcerAtAPCER = bpcerAtAPCER
        }
        /// True when some stratum has fewer than two subjects (the interval cannot show
        /// between-subject variation there).
        package var hasSingleSubjectStratum: Bool {
            bonaFideSubjects == 1 || attackSubjects.contains { $0.subjects == 1 }
        }
    }

    /// The reported set of one profile, one entry per processed sample (PadEvaluation builds one
    /// from a profile's result and its table).
    package struct Input: Sendable {
        /// -1 bona fide, else index into `speciesNames`.
        package var species: [Int32]
        package var subjects: [String]
        /// The profile's decision.
        package var accepted: [Bool]
        /// The swept score (NaN = rejected at every threshold); nil when the profile has none.
        package var scores: [Double]?
        package var speciesNames: [String]
        /// The table row of each entry (filled by PadEvaluation's `init(_:table:split:)`; empty
        /// otherwise).
        package var rows: [Int] = []
        package init(species: [Int32], subjects: [String], accepted: [Bool], scores: [Double]?, speciesNames: [String])
        {
            self.species = species; self.subjects = subjects; self.accepted = accepted
            self.scores = scores; self.speciesNames = speciesNames
        }
    }

    /// Clusters of each stratum (0 = bona fide, 1 + k = k-th species by name), each a list of
    /// sample indices, ordered by subject name (a sample without subject after the named ones,
    /// in sample order).
    static func clusters(_ input: Input) -> (strata: [[[Int]]], speciesOrder: [Int]) {
        let order = input.speciesNames.indices.sorted { input.speciesNames[$0] < input.speciesNames[$1] }
        var stratumOf = [Int](repeating: 0, count: input.speciesNames.count)
        for (k, s) in order.enumerated() { stratumOf[s] = k + 1 }
        var named = [[String: [Int]]](repeating: [:], count: order.count + 1)
        var alone = [[[Int]]](repeating: [], count: order.count + 1)
        for i in input.species.indices {
            let stratum = input.species[i] < 0 ? 0 : stratumOf[Int(input.species[i])]
            if input.subjects[i].isEmpty {
                alone[stratum].append([i])
            } else {
                named[stratum][input.subjects[i], default: []].append(i)
            }
        }
        let strata = (0...order.count).map { k in named[k].keys.sorted().map { named[k][$0]! } + alone[k] }
        return (strata, order)
    }

    /// A uniform index in 0..<m from one 64-bit draw (multiply-high; bias below m / 2^64).
    @inline(__always)
    static func draw(_ rng: inout SplitMix64, _ m: Int) -> Int {
        Int(rng.next().multipliedFullWidth(by: UInt64(m)).high)
    }

    /// The intervals of `input`, BPCER at each of `targets` among them (in that order).
    package static func intervals(
        _ input: Input, targets: [Double], replicates: Int = SubjectBootstrap.replicates,
        seed: UInt64 = SubjectBootstrap.seed
    ) -> Intervals {
        let (strata, order) = clusters(input)
        // Per cluster: (errors, total) at the profile's decisions (bona fide: rejected; attack: accepted).
        let counts = strata.enumerated().map { k, clusters in
            clusters.map { c in (c.filter { input.accepted[$0] == (k > 0) }.count, c.count) }
        }
        let presorted = input.scores.map {
            PresortedStrata(strata, scores: $0, speciesNames: input.speciesNames, order: order)
        }
        var rng = SplitMix64(seed: seed)
        var apcerMax: [Double] = [], bpcer: [Double] = [], eer: [Double] = []
        var atTargets = [[Double]](repeating: [], count: targets.count)
        for _ in 0..<replicates {
            var drawn = [[Int]](repeating: [], count: strata.count)
            for k in strata.indices {
                let m = strata[k].count
                drawn[k] = (0..<m).map { _ in draw(&rng, m) }
            }
            var worst = -1.0
            for k in strata.indices.dropFirst() where !drawn[k].isEmpty {
                let (e, n) = drawn[k].reduce((0, 0)) { ($0.0 + counts[k][$1].0, $0.1 + counts[k][$1].1) }
                worst = max(worst, Double(e) / Double(n))
            }
            if worst >= 0 { apcerMax.append(worst) }
            if !drawn[0].isEmpty {
                let (e, n) = drawn[0].reduce((0, 0)) { ($0.0 + counts[0][$1].0, $0.1 + counts[0][$1].1) }
                bpcer.append(Double(e) / Double(n))
            }
            guard let presorted, let curve = presorted.curve(drawn) else { continue }
            if let e = try? EqualErrorRate(curve) { eer.append(e.value) }
            for (t, x) in targets.enumerated() {
                if let choice = try? ThresholdCriterion.bpcerAtAPCER(x).choose(on: curve), choice.targetMet {
                    atTargets[t].append(curve.bpcer(choice.point))
                }
            }
        }
        return Intervals(
            replicates: replicates, seed: seed, bonaFideSubjects: strata[0].count,
            attackSubjects: order.enumerated().filter { !strata[$0.offset + 1].isEmpty }
                .map { .init(species: input.speciesNames[$0.element], subjects: strata[$0.offset + 1].count) },
            apcerMax: percentile(apcerMax), bpcer: percentile(bpcer), eer: input.scores == nil ? nil : percentile(eer),
            bpcerAtAPCER: input.scores == nil
                ? []
                : zip(targets, atTargets).map {
                    .init(target: $0, interval: percentile($1), replicatesMet: $1.count)
                })
    }

    /// [v(floor(0.025 n) + 1), v(ceil(0.975 n))] of the sorted finite values; nil when none.
    package static func percentile(_ values: [Double]) -> Interval? {
        let sorted = values.filter(\.isFinite).sorted()
        guard !sorted.isEmpty else { return nil }
        let n = Double(sorted.count)
        let low = Int((0.025 * n).rounded(.down)), high = Int((0.975 * n).rounded(.up)) - 1
        return .init(low: sorted[min(low, sorted.count - 1)], high: sorted[max(high, 0)])
    }
}

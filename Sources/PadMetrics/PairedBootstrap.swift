import PadVocabulary

/// Paired bootstrap of the curve metrics of two runs on the same samples: the gate of `compare`
/// that does not hinge on one threshold. A model whose whole curve got worse can keep the rates at
/// the profile's fixed threshold; its EER and its BPCER at each APCER target rise.
///
/// Example: `PairedBootstrapTests.handWorkedCaseAndFixedSeed`
/// in `Tests/PadReportTests/PairedBootstrapTests.swift` (compiled and run by `swift test`).
/// Procedure (B = 1000 replicates, SplitMix64 seeded with 30107, as ``SubjectBootstrap``):
/// - units: subjects within each stratum (bona fide, then each species by name); a sample with no
///   subject is a unit of its own (a presentation);
/// - each replicate draws m units with replacement from each stratum's m units, ONCE, and applies
///   the same draw to both runs' scores (the pairing: both runs see the same people);
/// - per replicate and run: the exact error curve of the swept score, its EER (``EqualErrorRate``)
///   and BPCER at APCER = x for each target x given (a run's `ProfileResult.targets`; bob.pad.base's
///   rule, ``ThresholdCriterion/bpcerAtAPCER(_:)``); the difference d = new - base; a replicate where a
///   metric is undefined in either run is left out of that metric;
/// - one-sided interval at confidence c: the sorted differences d(1) <= ... <= d(n) give the lower
///   bound L = d(floor((1 - c) n) + 1) (percentile bootstrap, Efron & Tibshirani 1993, ch. 13);
///   the rise is significant when L > 0, i.e. the interval [L, +inf) excludes zero.
/// Two identical runs give d = 0 in every replicate, so L = 0: never an alarm.
///
/// Too few units, no verdict: with m units in a stratum a resample can take only C(2m - 1, m)
/// distinct forms (1 at m = 1, 126 at m = 5, 92,378 at m = 10) and the bootstrap's variance is
/// biased low by the factor (m - 1) / m; at m = 1 every replicate repeats the point estimate, so
/// the "interval" is the point difference and any noise is an alarm. Below ``minimumUnits`` units in
/// the smallest stratum no replicate is drawn and each metric is "not gated (n subjects)";
/// the rates stay gated by McNemar on the paired decisions.
package enum PairedBootstrap {
    package static let replicates = 1000
    package static let seed: UInt64 = 30107
    package static let confidence = 0.95
    /// Units (subjects, else presentations) the smallest stratum needs before the bootstrap gates.
    package static let minimumUnits = 10

    /// What was run; recorded in `compare`'s JSON, JUnit and HTML.
    package struct Settings: Sendable, Codable, Equatable {
        package var replicates = PairedBootstrap.replicates
        package var seed = PairedBootstrap.seed
        /// One-sided confidence of the lower bound.
        package var confidence = PairedBootstrap.confidence
        /// Units the smallest stratum needs for a verdict (``PairedBootstrap/minimumUnits``).
        package var minimumUnits = PairedBootstrap.minimumUnits
        package init() {}
    }

    /// One profile's reported samples in both runs, aligned (entry i is the same sample); PadRuns
    /// builds one from two stored runs' swept scores.
    package struct Input: Sendable {
        /// -1 bona fide, else an index into `speciesNames`.
        package var species: [Int32]
        /// "" = no subject (the sample is its own unit).
        package var subjects: [String]
        package var speciesNames: [String]
        /// Swept scores (NaN = rejected at every threshold); nil = not processed in that run
        /// (left out of that run's curve, as failures are left out of its rates).
        package var base: [Double?]
        package var new: [Double?]
        package init(species: [Int32], subjects: [String], speciesNames: [String], base: [Double?], new: [Double?]) {
            self.species = species; self.subjects = subjects; self.speciesNames = speciesNames
            self.base = base; self.new = new
        }
    }

    /// One metric: point estimates on all samples and the one-sided bound of new - base.
    package struct Metric: Sendable, Codable, Equatable {
        /// `eer` or `bpcer@apcer=0.05` (``ThresholdCriterion``'s name of the target).
        package var name: String
        package var base: Double?
        package var new: Double?
        /// L: the rise new - base is at least L with the stated confidence; nil when no
        /// replicate had the metric in both runs.
        package var lowerBound: Double?
        /// Replicates in which both runs had the metric.
        package var replicatesUsed: Int
        package var rise: Double? { base.flatMap { b in new.map { $0 - b } } }
        /// The interval [L, +inf) excludes zero.
        package var significant: Bool { (lowerBound ?? 0) > 0 }
    }

    /// The result: the metrics in the order eer, then each target; the units drawn.
    package struct Result: Sendable, Codable, Equatable {
        package var settings: Settings
        package var bonaFideUnits: Int
        package var attackUnits: Int
        /// The stratum with the fewest units (`bonafide` or a species) and its count.
        package var smallestStratum: String
        package var smallestUnits: Int
        /// `subjects`, `presentations` (no sample has a subject) or `units` (some have).
        package var unitKind: String
        package var metrics: [Metric]
        /// Fewer units than ``Settings/minimumUnits`` in a stratum: no replicate was drawn.
        package var tooFewUnits: Bool { smallestUnits < settings.minimumUnits }
    }

    /// The paired bootstrap of `input`: the EER, then BPCER at each of `targets` (in that order).
    package static func compare(_ input: Input, targets: [Double], settings: Settings = Settings()) -> Result {
        let clusterInput = SubjectBootstrap.Input(
            species: input.species, subjects: input.subjects, accepted: [], scores: nil,
            speciesNames: input.speciesNames)
        let (strata, order) = SubjectBootstrap.clusters(clusterInput)
        let all = strata.map { Array($0.indices) }
        let basePoint = metrics(curve(strata, all, clusterInput, order) { input.base[$0] }, targets: targets)
        let newPoint = metrics(curve(strata, all, clusterInput, order) { input.new[$0] }, targets: targets)
        let stratumNames = ["bonafide"] + order.map { input.speciesNames[$0] }
        let smallest = strata.indices.filter { !strata[$0].isEmpty }.min { strata[$0].count < strata[$1].count }
        let smallestUnits = smallest.map { strata[$0].count } ?? 0
        let withSubject = input.subjects.reduce(0) { $0 + ($1.isEmpty ? 0 : 1) }
        let unitKind =
            withSubject == input.subjects.count ? "subjects" : (withSubject == 0 ? "presentations" : "units")
        var differences = [[Double]](repeating: [], count: basePoint.count)
        var rng = SplitMix64(seed: settings.seed)
        let replicates = smallestUnits < settings.minimumUnits ? 0 : settings.replicates
        for _ in 0..<replicates {
            let drawn = strata.map { units in (0..<units.count).map { _ in SubjectBootstrap.draw(&rng, units.count) } }
            let b = metrics(curve(strata, drawn, clusterInput, order) { input.base[$0] }, targets: targets)
            let n = metrics(curve(strata, drawn, clusterInput, order) { input.new[$0] }, targets: targets)
            for k in differences.indices {
                if let bk = b[k], let nk = n[k] { differences[k].append(nk - bk) }
            }
        }
        let names = ["eer"] + targets.map { ThresholdCriterion.bpcerAtAPCER($0).description }
        return Result(
            settings: settings, bonaFideUnits: strata[0].count,
            attackUnits: strata.dropFirst().reduce(0) { $0 + $1.count },
            smallestStratum: smallest.map { stratumNames[$0] } ?? "", smallestUnits: smallestUnits,
            unitKind: unitKind,
            metrics: names.indices.map { k in
                Metric(
                    name: names[k], base: basePoint[k], new: newPoint[k],
                    lowerBound: lowerBound(differences[k], confidence: settings.confidence),
                    replicatesUsed: differences[k].count)
            })
    }

    /// L = d(floor((1 - c) n) + 1) of the sorted differences (1-based); nil without any.
    package static func lowerBound(_ differences: [Double], confidence: Double) -> Double? {
        guard !differences.isEmpty else { return nil }
        let sorted = differences.sorted()
        let rank = Int(((1 - confidence) * Double(sorted.count)).rounded(.down))
        return sorted[min(rank, sorted.count - 1)]
    }

    /// EER, then BPCER at each APCER target; nil where undefined (no curve, target out of reach).
    static func metrics(_ curve: ErrorCurve?, targets: [Double]) -> [Double?] {
        guard let curve else { return [Double?](repeating: nil, count: 1 + targets.count) }
        let eer = (try? EqualErrorRate(curve)).map(\.value).flatMap { $0.isFinite ? $0 : nil }
        return [eer]
            + targets.map { x in
                guard let choice = try? ThresholdCriterion.bpcerAtAPCER(x).choose(on: curve), choice.targetMet else {
                    return nil
                }
                return curve.bpcer(choice.point)
            }
    }

    /// One run's curve over the drawn units: `score(i)` of each sample of each drawn unit (a unit
    /// drawn twice counts twice); nil = not processed in that run (left out of the curve).
    static func curve(
        _ strata: [[[Int]]], _ drawn: [[Int]], _ input: SubjectBootstrap.Input, _ order: [Int],
        score: (Int) -> Double?
    ) -> ErrorCurve? {
        var set = ScoreSet()
        // Exact capacity: a replicate of a million samples would otherwise grow by doubling.
        set.reserveCapacity(strata.indices.reduce(0) { n, k in drawn[k].reduce(n) { $0 + strata[k][$1].count } })
        for s in order { _ = set.index(ofSpecies: input.speciesNames[s]) }
        for k in strata.indices {
            let species: String? = k == 0 ? nil : input.speciesNames[order[k - 1]]
            for c in drawn[k] {
                for i in strata[k][c] {
                    guard let value = score(i) else { continue }
                    if value.isNaN {
                        set.appendRejectedAtEveryThreshold(species: species)
                    } else {
                        set.append(score: value, species: species)
                    }
                }
            }
        }
        return try? ErrorCurve(set)
    }
}

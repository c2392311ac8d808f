import PadArchive
import PadEvaluation
import PadMetrics

extension SystemTable {
    /// Two rows, the better-ranked first, tested as `compare FIRST SECOND` tests two runs.
    ///
    /// Same samples (equal dataset fingerprints, as `compare` decides "paired", and the same
    /// reported split): BPCER and each species' APCER by the exact McNemar test on the paired
    /// decisions (``McNemarTest``; the discordant samples counted by `compare`'s own code), and
    /// the EER difference second - first by `compare`'s paired bootstrap (``PairedBootstrap``,
    /// same replicates, seed and one-sided interval) when both rows have a swept score.
    /// Different samples: no pairwise test; whether the 95% Clopper-Pearson intervals of BPCER,
    /// APCER_max and each species' APCER overlap, and those of the EER when both runs stored a
    /// subject-bootstrap interval (`compare --allow-different-dataset` gates on disjoint intervals).
    package struct Pair: Sendable {
        /// Row indices: `first` ranks above (or level with) `second`.
        package var first: Int
        package var second: Int
        package var paired: Bool
        package var rates: [RateTest]
        /// Paired rows with swept scores: the bootstrap's result (its first metric is the EER).
        package var eer: PairedBootstrap.Result?
        /// Different samples: whether the rows' EER intervals overlap (nil: a row has none).
        package var eerIntervalsOverlap: Bool?
    }

    package struct McNemarTest: Sendable, Equatable {
        /// Discordant samples: wrong in the first row only, in the second only.
        package var firstOnlyWrong: Int
        package var secondOnlyWrong: Int
        /// One-sided exact p that the second errs more: the p of `compare FIRST SECOND`.
        package var pSecondWorse: Double { McNemar.oneSidedPValue(worse: secondOnlyWrong, better: firstOnlyWrong) }
        /// One-sided exact p that the first errs more: the p of `compare SECOND FIRST`.
        package var pFirstWorse: Double { McNemar.oneSidedPValue(worse: firstOnlyWrong, better: secondOnlyWrong) }
        /// Two-sided exact p: twice the smaller one-sided p, at most 1 (a table asks whether two
        /// systems differ, in either direction).
        package var pTwoSided: Double { min(1, 2 * min(pSecondWorse, pFirstWorse)) }
    }

    package struct RateTest: Sendable {
        /// `bpcer`, `apcer[<species>]`, or (different samples only) `apcer_max`.
        package var metric: String
        package var first: RunSummary.Rate?
        package var second: RunSummary.Rate?
        /// Same samples: McNemar on the decisions.
        package var mcnemar: McNemarTest?
        /// Different samples: whether the two 95% Clopper-Pearson intervals overlap.
        package var intervalsOverlap: Bool? {
            guard mcnemar == nil, let a = first, let b = second else { return nil }
            return a.ciLow <= b.ciHigh && b.ciLow <= a.ciHigh
        }
    }

    /// Whether two rows are on the same samples: `compare`'s rule (equal dataset fingerprints),
    /// and the same reported split, so their decisions pair sample by sample.
    static func samePresentations(_ a: Row, _ b: Row) -> Bool {
        a.fingerprint == b.fingerprint && a.reported.split == b.reported.split
    }

    /// McNemar per class (`""` = bona fide, else the species) of two rows' decisions on the same
    /// samples, from `compare`'s discordant count (``AccuracyComparison/discordant(base:new:)``).
    static func mcnemar(
        _ first: [String: AccuracyComparison.Decided], _ second: [String: AccuracyComparison.Decided]
    ) -> [String: McNemarTest] {
        let (worse, better) = AccuracyComparison.discordant(base: first, new: second)
        let classes = Set(first.values.map { $0.species ?? "" })
        return Dictionary(
            uniqueKeysWithValues: classes.map {
                ($0, McNemarTest(firstOnlyWrong: better[$0] ?? 0, secondOnlyWrong: worse[$0] ?? 0))
            })
    }

    /// Per row in a pair on the same samples, its profile's decisions on the reported split, read
    /// once per run (``AccuracyComparison/decisions(_:)``); nil for the other rows.
    static func decisions(_ runs: [StoredRun], rows: [Row], runOf: [Int]) throws
        -> [[String: AccuracyComparison.Decided]?]
    {
        var byRun: [Int: [String: [String: AccuracyComparison.Decided]]] = [:]
        var result: [[String: AccuracyComparison.Decided]?] = []
        for (k, row) in rows.enumerated() {
            guard rows.indices.contains(where: { $0 != k && samePresentations(rows[$0], row) }) else {
                result.append(nil)
                continue
            }
            if byRun[runOf[k]] == nil { byRun[runOf[k]] = try AccuracyComparison.decisions(runs[runOf[k]]) }
            result.append(byRun[runOf[k]]?[row.profile.name] ?? [:])
        }
        return result
    }

    /// Every pair's tests (rows in ranked order, their swept scores and decisions alike).
    func pairTests(swept: [StoredRun.SweptScores?], decisions: [[String: AccuracyComparison.Decided]?]) -> [Pair] {
        var pairs: [Pair] = []
        for i in rows.indices {
            for j in rows.indices where j > i {
                let (a, b) = (rows[i], rows[j])
                var pair = Pair(first: i, second: j, paired: Self.samePresentations(a, b), rates: [])
                if pair.paired, let da = decisions[i], let db = decisions[j] {
                    let tests = Self.mcnemar(da, db)
                    pair.rates =
                        [
                            RateTest(
                                metric: "bpcer", first: a.reported.bpcer, second: b.reported.bpcer,
                                mcnemar: tests[""] ?? McNemarTest(firstOnlyWrong: 0, secondOnlyWrong: 0))
                        ]
                        + species.map {
                            RateTest(
                                metric: "apcer[\($0)]", first: a.apcer($0), second: b.apcer($0),
                                mcnemar: tests[$0] ?? McNemarTest(firstOnlyWrong: 0, secondOnlyWrong: 0))
                        }
                    if let sa = swept[i], let sb = swept[j] {
                        pair.eer = PairedBootstrap.compare(
                            PairedBootstrap.Input(base: sa, new: sb), settings: bootstrap)
                    }
                } else {
                    pair.rates =
                        [
                            RateTest(metric: "bpcer", first: a.reported.bpcer, second: b.reported.bpcer),
                            RateTest(metric: "apcer_max", first: a.reported.apcerMax, second: b.reported.apcerMax),
                        ] + species.map { RateTest(metric: "apcer[\($0)]", first: a.apcer($0), second: b.apcer($0)) }
                    if let x = a.intervals?.eer, let y = b.intervals?.eer {
                        pair.eerIntervalsOverlap = x.low <= y.high && y.low <= x.high
                    }
                }
                // A class neither row has (no samples of that species in either) says nothing.
                pair.rates.removeAll { $0.first == nil && $0.second == nil }
                pairs.append(pair)
            }
        }
        return pairs
    }

    /// The one note on pairs that are not on the same samples, naming them; nil when every pair is.
    var differentSamplesNote: String? {
        let apart = pairs.filter { !$0.paired }
        guard !apart.isEmpty else { return nil }
        let names = apart.map { "\(rows[$0.first].label) / \(rows[$0.second].label)" }.joined(separator: ", ")
        return
            "not on the same samples (different dataset fingerprints or reported splits): \(names); these pairs are "
            + "not tested pairwise: their 95% intervals are compared instead (disjoint intervals: a difference "
            + "beyond chance; overlapping: no conclusion)"
    }
}

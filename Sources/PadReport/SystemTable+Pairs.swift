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
        package init(
            first: Int, second: Int, paired: Bool, rates: [RateTest], eer: PairedBootstrap.Result? = nil,
            eerIntervalsOverlap: Bool? = nil
        ) {
            self.first = first; self.second = second; self.paired = paired; self.rates = rates; self.eer = eer
            self.eerIntervalsOverlap = eerIntervalsOverlap
        }
    }

    package struct McNemarTest: Sendable, Equatable {
        /// Discordant samples: wrong in the first row only, in the second only.
        package var firstOnlyWrong: Int
        package var secondOnlyWrong: Int
        package init(firstOnlyWrong: Int, secondOnlyWrong: Int) {
            self.firstOnlyWrong = firstOnlyWrong; self.secondOnlyWrong = secondOnlyWrong
        }
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
        package init(metric: String, first: RunSummary.Rate?, second: RunSummary.Rate?, mcnemar: McNemarTest? = nil) {
            self.metric = metric; self.first = first; self.second = second; self.mcnemar = mcnemar
        }
        /// Different samples: whether the two 95% Clopper-Pearson intervals overlap.
        package var intervalsOverlap: Bool? {
            guard mcnemar == nil, let a = first, let b = second else { return nil }
            return a.ciLow <= b.ciHigh && b.ciLow <= a.ciHigh
        }
    }

    /// The one note on pairs that are not on the same samples, naming them; nil when every pair is.
    package var differentSamplesNote: String? {
        let apart = pairs.filter { !$0.paired }
        guard !apart.isEmpty else { return nil }
        let names = apart.map { "\(rows[$0.first].label) / \(rows[$0.second].label)" }.joined(separator: ", ")
        return
            "not on the same samples (different dataset fingerprints or reported splits): \(names); these pairs are "
            + "not tested pairwise: their 95% intervals are compared instead (disjoint intervals: a difference "
            + "beyond chance; overlapping: no conclusion)"
    }
}

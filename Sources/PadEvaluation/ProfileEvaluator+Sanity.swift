import PadMetrics
import PadProfiles

extension ProfileEvaluator {
    /// Failures to process above this share of a class are flagged in the verdict.
    package static let failureShareFlag = 0.05

    /// Warnings about numbers a reader could misread with exit 0: a swept score that reads
    /// inverted (AUC < 0.5) or is constant, a class whose failures to process exceed 5% (on the
    /// reported split and on the calibration split the thresholds were chosen on), an eval
    /// species the dev split never saw, a threshold calibrated on the training split.
    static func sanityNotes(
        _ profile: Profile, reported: ProfileResult.SetResult, calibrationSet: ProfileResult.SetResult?,
        calibrations: [ProfileResult.Calibration]
    ) -> [ResultNote] {
        var checks: [ResultNote.SanityCheck] = []
        if let m = reported.scoreMetrics {
            let distinct = m.curve.count - (m.curve.hasTerminalPoint ? 1 : 0)
            if distinct <= 1 {
                checks.append(.constantScore(score: m.score, split: reported.split, value: m.curve.thresholds[0]))
            } else if m.auc < 0.5 {
                checks.append(.invertedScore(score: m.score, split: reported.split, auc: m.auc))
            }
        }
        // The calibration split too: a threshold chosen on the dev samples that could be processed
        // is chosen on a biased dev set when many of them could not.
        for set in [reported] + (calibrationSet.map { [$0] } ?? []) {
            guard let p = set.headline else { continue }
            for (name, rate) in [("bona fide", p.bpnrr), ("attacks", p.apnrr)]
            where rate.total > 0 && rate.value > failureShareFlag {
                checks.append(
                    .failureShare(
                        className: name, rate: rate.value, errors: rate.errors, total: rate.total, split: set.split))
            }
        }
        checks += unseenSpecies(reported: reported, calibrationSet: calibrationSet)
        for c in calibrations where c.split == "train" {
            checks.append(.calibratedOnTrainSplit(output: c.output))
        }
        return checks.map { .check($0) }
    }

    /// Species with attacks on the reported split and none on the calibration split.
    static func unseenSpecies(reported: ProfileResult.SetResult, calibrationSet: ProfileResult.SetResult?)
        -> [ResultNote.SanityCheck]
    {
        guard let dev = calibrationSet?.headline, let eval = reported.headline else { return [] }
        let seen = Set(dev.speciesNames.indices.filter { dev.apcer[$0].total > 0 }.map { dev.speciesNames[$0] })
        let unseen = eval.speciesNames.indices.filter { eval.apcer[$0].total > 0 }.map { eval.speciesNames[$0] }
            .filter { !seen.contains($0) }.sorted()
        guard !unseen.isEmpty else { return [] }
        return [.unseenSpecies(split: reported.split, calibrationSplit: calibrationSet!.split, species: unseen)]
    }
}

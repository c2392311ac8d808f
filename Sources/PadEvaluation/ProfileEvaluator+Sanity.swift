import PadArchive
import PadMetrics
import PadProfiles

extension ProfileEvaluator {
    /// The prefix of a sanity warning among a result's notes: printed on the terminal, written in
    /// summary.csv's `note` and flagged in the report's verdict.
    public static let sanityPrefix = "check: "

    /// Failures to process above this share of a class are flagged in the verdict.
    public static let failureShareFlag = 0.05

    /// Warnings about numbers a reader could misread with exit 0: a swept score that reads
    /// inverted (AUC < 0.5) or is constant, a class whose failures to process exceed 5%, an eval
    /// species the dev split never saw, a threshold calibrated on the training split.
    static func sanityNotes(
        _ profile: Profile, reported: ProfileResult.SetResult, calibrationSet: ProfileResult.SetResult?,
        calibrations: [ProfileResult.Calibration]
    ) -> [String] {
        var notes: [String] = []
        if let m = reported.scoreMetrics {
            let distinct = m.curve.count - (m.curve.hasTerminalPoint ? 1 : 0)
            if distinct <= 1 {
                notes.append(
                    "swept score \(m.score) is constant on \(reported.split) (one value, "
                        + "\(CSVFormat.number(m.curve.thresholds[0]))): no threshold separates anything")
            } else if m.auc < 0.5 {
                notes.append(
                    "swept score \(m.score) has AUC \(CSVFormat.number(m.auc)) < 0.5 on \(reported.split): "
                        + "scores look attack-high (bona fide below attacks); check the polarity "
                        + "(score files: --polarity; eval --score: --direction)")
            }
        }
        if let p = reported.headline {
            for (name, rate) in [("bona fide", p.bpnrr), ("attacks", p.apnrr)]
            where rate.total > 0 && rate.value > failureShareFlag {
                notes.append(
                    "\(percent(rate.value)) of \(name) (\(rate.errors)/\(rate.total)) failed to process on "
                        + "\(reported.split) (over 5%): the headline rates leave them out; see the system view")
            }
        }
        notes += unseenSpecies(reported: reported, calibrationSet: calibrationSet)
        for c in calibrations where c.split == "train" {
            notes.append(
                "gate on \(c.output) calibrated on the train split, the split models are trained on: "
                    + "its threshold is optimistic")
        }
        return notes.map { sanityPrefix + $0 }
    }

    /// `12.5%`: one decimal.
    static func percent(_ v: Double) -> String {
        let tenths = Int((v * 1000).rounded())
        return "\(tenths / 10).\(tenths % 10)%"
    }

    /// Species with attacks on the reported split and none on the calibration split.
    static func unseenSpecies(reported: ProfileResult.SetResult, calibrationSet: ProfileResult.SetResult?) -> [String] {
        guard let dev = calibrationSet?.headline, let eval = reported.headline else { return [] }
        let seen = Set(dev.speciesNames.indices.filter { dev.apcer[$0].total > 0 }.map { dev.speciesNames[$0] })
        let unseen = eval.speciesNames.indices.filter { eval.apcer[$0].total > 0 }.map { eval.speciesNames[$0] }
            .filter { !seen.contains($0) }.sorted()
        guard !unseen.isEmpty else { return [] }
        return [
            "species on \(reported.split) never seen on \(calibrationSet!.split): \(unseen.joined(separator: ", ")) "
                + "(the threshold was not chosen with them)"
        ]
    }
}

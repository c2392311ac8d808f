/// Where a profile's thresholds came from; ``text`` is what `summary.csv`, `report.html` and
/// `results.json` show. Code paths that depend on it switch on the case, never on the words.
package enum ThresholdSource: Sendable, Equatable {
    /// The thresholds written in the profile's gates.
    case profileGates
    /// Calibrated gates: the (last) calibrated gate's target and the split it was chosen on.
    case calibrated(target: String, split: String)
    /// A calibrated gate with no calibration split in the data (a score file without dev rows):
    /// chosen on the reported set itself, so its rates are not an independent estimate.
    case chosenOnReportedSet(split: String)

    package var text: String {
        switch self {
        case .profileGates: "profile gates"
        case .calibrated(let target, let split): "calibrated \(target) on \(split)"
        case .chosenOnReportedSet(let split): "\(split) (not calibrated: chosen on the reported set)"
        }
    }

    /// True when the threshold was chosen on the set its rates are reported on.
    package var isChosenOnReportedSet: Bool {
        if case .chosenOnReportedSet = self { return true }
        return false
    }
}

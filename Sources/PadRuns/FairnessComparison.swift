import PadArchive
import PadReport
import PadVocabulary

/// The demographic-differentials part of ``RunComparison`` (`compare --gate fairness`, and `all`
/// when both runs have `fairness.csv`): for each profile and `group.*` characteristic in both runs,
/// FDR regresses when it drops by more than `fairnessTolerance` (less fair) and GARBE when it rises
/// by more than it. The values are the runs' own (``FairnessReport``), compared as reported: the
/// differential of two small groups is noisy, so the tolerance (default 0.05) is the guard.
struct FairnessComparison {
    var checks: [RunComparison.Check] = []
    var notes: [String] = []

    init(base: StoredRun, new: StoredRun, settings: RunComparison.Settings) throws {
        guard base.contains(RunFile.fairness.name) && new.contains(RunFile.fairness.name) else {
            notes.append(
                "fairness.csv missing from \(base.contains(RunFile.fairness.name) ? "NEW" : "BASE")"
                    + "\(base.contains(RunFile.fairness.name) || new.contains(RunFile.fairness.name) ? "" : " and NEW")"
                    + " (no group.* labels): demographic differentials not gated")
            return
        }
        let b = try Self.differentials(base.table(RunFile.fairness.name)),
            n = try Self.differentials(new.table(RunFile.fairness.name))
        for key in Set(b.keys).union(n.keys).sorted() {
            guard let old = b[key], let now = n[key] else {
                notes.append("\(key): only in \(b[key] == nil ? "NEW" : "BASE"); not gated")
                continue
            }
            // FDR: 1 is fair, a drop is a regression. GARBE: 0 is fair, a rise is one.
            let worse = key.hasSuffix(" fdr") ? old - now : now - old
            let tolerance = settings.fairnessTolerance
            checks.append(
                RunComparison.Check(
                    name: key, base: old, new: now, regressed: worse > tolerance, gated: true, test: "reported",
                    detail:
                        "\(CSVFormat.number(old)) -> \(CSVFormat.number(now)) (tolerance \(CSVFormat.number(tolerance)))"
                ))
        }
    }

    /// "<profile> <characteristic> fdr|garbe" -> value, for rows with a value.
    static func differentials(_ table: CSVTable) throws -> [String: Double] {
        let profile = try table.requireColumn("profile"), name = try table.requireColumn("characteristic")
        let metric = try table.requireColumn("metric"), value = try table.requireColumn("value")
        var result: [String: Double] = [:]
        for r in table.records where ["fdr", "garbe"].contains(r.fields[metric]) {
            guard let v = Double(r.fields[value]) else { continue }
            result["\(r.fields[profile]) \(r.fields[name]) \(r.fields[metric])"] = v
        }
        return result
    }
}

import PadArchive
import PadMetrics

/// Which output separates which attack (`outputs.csv`): for one numeric output, AUC and EER of
/// each attack species against bona fide, and of all attacks together, in the direction that
/// separates them.
///
/// Example: `PadReportDocExamples.outputSeparation`
/// in `Tests/PadReportTests/DocExamplesTests.swift` (compiled and run by `swift test`).
/// - AUC = P(bona fide value > attack value) + P(equal) / 2 (``PadMetrics/areaUnderROC(_:)``,
///   bona fide positive). When it is below 0.5 with higher values read as bona fide, the output
///   separates the other way: the row says `lower-bona-fide` and gives the AUC and EER of the
///   negated values (AUC' = 1 - AUC).
/// - EER by the run's rule (``PadMetrics/EqualErrorRate``) in that direction; `eer_threshold` is
///   in the output's own units (accepted as bona fide when value >= t, or <= t for
///   lower-bona-fide). For the `(all)` row the attack rate is APCER_max over species.
/// - Samples whose value is NaN (not measured, not assessable) are left out and counted.
public enum OutputSeparation {
    public static let allSpecies = "(all)"

    public struct Row: Sendable, Equatable {
        public var output: String
        public var species: String
        /// `higher-bona-fide`, `lower-bona-fide`, or "" when a class has no values.
        public var direction: String
        public var auc: Double
        public var eer: Double
        public var eerThreshold: Double
        public var bonaFide: Int
        public var attacks: Int
        public var missingBonaFide: Int
        public var missingAttacks: Int
    }

    public static let header = [
        "output", "species", "direction", "auc", "eer", "eer_threshold", "n_bonafide", "n_attack",
        "n_missing_bonafide", "n_missing_attack",
    ]

    /// Rows of one output: each species (by name), then `(all)` when there are two or more.
    /// `species[i]` is -1 for bona fide, else an index into `speciesNames`.
    public static func rows(output: String, values: [Double], species: [Int32], speciesNames: [String]) -> [Row] {
        // Species with samples here (a table's species list may name some only other splits have).
        let present = Set(species.filter { $0 >= 0 }.map(Int.init))
        let order = speciesNames.indices.filter(present.contains).sorted { speciesNames[$0] < speciesNames[$1] }
        var groups = order.map { [$0] }
        if order.count > 1 { groups.append(order) }
        return groups.map { group in
            let name = group.count == 1 ? speciesNames[group[0]] : allSpecies
            return row(
                output: output, name: name, values: values, species: species, speciesNames: speciesNames,
                group: Set(group))
        }
    }

    static func row(
        output: String, name: String, values: [Double], species: [Int32], speciesNames: [String], group: Set<Int>
    ) -> Row {
        var set = ScoreSet(), negated = ScoreSet()
        var missingBonaFide = 0, missingAttacks = 0
        for i in values.indices {
            let s = Int(species[i])
            guard s < 0 || group.contains(s) else { continue }
            let label: String? = s < 0 ? nil : speciesNames[s]
            if values[i].isNaN {
                if s < 0 { missingBonaFide += 1 } else { missingAttacks += 1 }
                continue
            }
            set.append(score: values[i], species: label)
            negated.append(score: -values[i], species: label)
        }
        var row = Row(
            output: output, species: name, direction: "", auc: .nan, eer: .nan, eerThreshold: .nan, bonaFide: 0,
            attacks: 0,
            missingBonaFide: missingBonaFide, missingAttacks: missingAttacks)
        guard let curve = try? ErrorCurve(set) else { return row }
        row.bonaFide = curve.bonaFideCount
        row.attacks = curve.attackCount
        guard curve.hasBonaFide && curve.hasAttacks else { return row }
        let auc = areaUnderROC(curve)
        if auc >= 0.5 {
            row.direction = "higher-bona-fide"
            row.auc = auc
            if let eer = try? EqualErrorRate(curve) { row.eer = eer.value; row.eerThreshold = eer.threshold }
        } else if let flipped = try? ErrorCurve(negated) {
            row.direction = "lower-bona-fide"
            row.auc = areaUnderROC(flipped)
            if let eer = try? EqualErrorRate(flipped) { row.eer = eer.value; row.eerThreshold = -eer.threshold }
        }
        return row
    }

    public static func table(_ rows: [Row]) -> ReportTables.Table {
        func n(_ v: Double) -> String { v.isNaN ? "" : CSVFormat.number(v) }
        return (
            header,
            rows.map {
                [
                    $0.output, $0.species, $0.direction, n($0.auc), n($0.eer), n($0.eerThreshold), String($0.bonaFide),
                    String($0.attacks),
                    String($0.missingBonaFide), String($0.missingAttacks),
                ]
            }
        )
    }
}

import PadArchive
import PadMetrics
import PadText

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
///   lower-bona-fide). For the row of all species (empty `species`) the attack rate is APCER_max
///   over species.
/// - Samples whose value is NaN (not measured, not assessable) are left out and counted.
package enum OutputSeparation {
    /// The `species` of the row of all attack species together: empty, which no species is (an
    /// attack without a species is `attack`), so a species literally named `(all)` keeps its own row.
    package static let allSpecies = ""

    package struct Row: Sendable, Equatable {
        package var output: String
        package var species: String
        /// `higher-bona-fide`, `lower-bona-fide`, or "" when a class has no values.
        package var direction: String
        package var auc: Double
        package var eer: Double
        package var eerThreshold: Double
        package var bonaFide: Int
        package var attacks: Int
        package var missingBonaFide: Int
        package var missingAttacks: Int
    }

    package static let header = [
        "output", "species", "direction", "auc", "eer", "eer_threshold", "n_bonafide", "n_attack",
        "n_missing_bonafide", "n_missing_attack",
    ]

    /// Scores of this output already sorted for a profile's reported set (the profile swept this
    /// output and rejected no sample at every threshold), with that profile's curve: the same
    /// samples outputs.csv takes, so they are not sorted again and the all-species row, when it
    /// holds every species in the set's order, is that very curve.
    /// With the curve come what the profile already read from it, so no row sweeps it again:
    /// each species' EER against bona fide (`speciesEERs`, in the curve's species order), the EER
    /// by APCER_max (`eer`: nil when the profile used another rule) and the AUC.
    package struct SharedSort: Sendable {
        package var sorted: SortedScores
        package var curve: ErrorCurve?
        package var speciesEERs: [EqualErrorRate?]
        package var eer: EqualErrorRate?
        package var auc: Double?
        package init(
            sorted: SortedScores, curve: ErrorCurve?, speciesEERs: [EqualErrorRate?] = [], eer: EqualErrorRate? = nil,
            auc: Double? = nil
        ) {
            self.sorted = sorted; self.curve = curve; self.speciesEERs = speciesEERs; self.eer = eer; self.auc = auc
        }
    }

    /// Rows of one output: each species (by name), then all species together (``allSpecies``) when
    /// there are two or more.
    /// `species[i]` is -1 for bona fide, else an index into `speciesNames`. The values are sorted
    /// once, class by class (or taken from `shared` when its classes hold exactly the values that
    /// are not NaN); each row's curve takes bona fide and its species from that.
    package static func rows(
        output: String, values: [Double], species: [Int32], speciesNames: [String], shared: SharedSort? = nil
    ) -> [Row] {
        let counts = ClassCounts(values: values, species: species, speciesCount: speciesNames.count)
        // Species with samples here, with a value or not (a table's species list may name some only
        // other splits have).
        let order = speciesNames.indices.filter { counts.present[$0 + 1] + counts.missingAttacks[$0] > 0 }
            .sorted { speciesNames[$0] < speciesNames[$1] }
        var groups = order.map { [$0] }
        if order.count > 1 { groups.append(order) }
        let reused = shared.flatMap { $0.sorted.speciesNames == speciesNames && counts.matches($0.sorted) ? $0 : nil }
        let sorted =
            reused?.sorted
            ?? SortedScores(counts.scoreSet(values: values, species: species, speciesNames: speciesNames))
        let sharedCurve = reused?.curve
        let sharedEERs = reused.map { $0.speciesEERs.count == speciesNames.count ? $0.speciesEERs : [] } ?? []
        let bonaFideLeftOut = counts.missingBonaFide, attacksLeftOut = counts.missingAttacks
        // Each group sweeps its own curve (two when the output separates the other way): on all cores.
        return Parallel.map(groups) { group in
            var row = Row(
                output: output, species: group.count == 1 ? speciesNames[group[0]] : allSpecies, direction: "",
                auc: .nan, eer: .nan, eerThreshold: .nan, bonaFide: 0, attacks: 0,
                missingBonaFide: bonaFideLeftOut, missingAttacks: group.reduce(0) { $0 + attacksLeftOut[$1] })
            // Every species in order: the set itself, whose curve the profile has already swept.
            let whole = group.elementsEqual(speciesNames.indices)
            if let sharedCurve, !whole, group.count == 1,
                separation(
                    species: group[0], ofWhole: sharedCurve, eer: sharedEERs.isEmpty ? nil : sharedEERs[group[0]],
                    into: &row)
            {
                return row
            }
            // The set itself: the profile's curve, with its AUC and its EER by APCER_max (this
            // row's rule) when it found them.
            let known = whole ? reused.flatMap { r in r.auc.flatMap { auc in r.eer.map { (auc, $0) } } } : nil
            separation(
                sorted.restricted(toSpecies: group), curve: whole ? sharedCurve : nil, known: known, into: &row)
            return row
        }
    }

    /// Values by class: those with a value and those left out (NaN).
    struct ClassCounts {
        var present: [Int]
        var missingBonaFide = 0
        var missingAttacks: [Int]

        init(values: [Double], species: [Int32], speciesCount: Int) {
            present = [Int](repeating: 0, count: speciesCount + 1)
            missingAttacks = [Int](repeating: 0, count: speciesCount)
            for i in values.indices {
                let s = Int(species[i])
                if !values[i].isNaN {
                    present[s + 1] += 1
                } else if s < 0 {
                    missingBonaFide += 1
                } else {
                    missingAttacks[s] += 1
                }
            }
        }

        /// Whether `sorted` holds as many scores per class as these values have.
        func matches(_ sorted: SortedScores) -> Bool {
            sorted.rejectsNoneAtEveryThreshold
                && present.indices.allSatisfy { sorted.count(ofClass: $0) == present[$0] }
        }

        /// The values that are not NaN, as a score set (exact capacity).
        func scoreSet(values: [Double], species: [Int32], speciesNames: [String]) -> ScoreSet {
            var set = ScoreSet(speciesNames: speciesNames)
            set.reserveCapacity(present.reduce(0, +))
            for i in values.indices where !values[i].isNaN { set.append(score: values[i], speciesIndex: species[i]) }
            return set
        }
    }

    /// AUC and EER of bona fide against the attacks of `sorted`, in the direction that separates.
    /// `curve`, when given, is the curve of `sorted` already swept.
    /// `known`, when given, is that curve's AUC and EER (by APCER_max) already found.
    static func separation(
        _ sorted: SortedScores, curve shared: ErrorCurve? = nil, known: (auc: Double, eer: EqualErrorRate)? = nil,
        into row: inout Row
    ) {
        guard let curve = try? shared ?? ErrorCurve(sorted: sorted) else { return }
        row.bonaFide = curve.bonaFideCount
        row.attacks = curve.attackCount
        guard curve.hasBonaFide && curve.hasAttacks else { return }
        let auc = known?.auc ?? areaUnderROC(curve)
        if auc >= 0.5 {
            row.direction = "higher-bona-fide"
            row.auc = auc
            if let eer = known?.eer ?? (try? EqualErrorRate(curve)) {
                row.eer = eer.value; row.eerThreshold = eer.threshold
            }
        } else if let flipped = try? ErrorCurve(sorted: sorted.negated()) {
            row.direction = "lower-bona-fide"
            row.auc = areaUnderROC(flipped)
            if let eer = try? EqualErrorRate(flipped) { row.eer = eer.value; row.eerThreshold = -eer.threshold }
        }
    }

    /// ``separation(_:curve:known:into:)`` of one species read from the curve of every species (no curve
    /// of its own swept: ten million points each): AUC by ``PadMetrics/areaUnderROC(_:species:)``
    /// and EER by ``PadMetrics/EqualErrorRate/init(_:species:)``, whose sweeps visit only the
    /// points of bona fide and that species, so both equal those of the species' own curve. False,
    /// with `row` untouched, when the output separates the other way (the negated values then need
    /// a curve of their own) or a class is empty.
    /// `eer`, when given, is that EER already found (the profile's per-species EER).
    static func separation(species s: Int, ofWhole curve: ErrorCurve, eer known: EqualErrorRate?, into row: inout Row)
        -> Bool
    {
        let auc = areaUnderROC(curve, species: s)
        guard auc >= 0.5, let eer = known ?? (try? EqualErrorRate(curve, species: s)) else { return false }
        row.bonaFide = curve.bonaFideCount
        row.attacks = curve.attackCounts[s]
        row.direction = "higher-bona-fide"
        row.auc = auc
        row.eer = eer.value
        row.eerThreshold = eer.threshold
        return true
    }

    package static func table(_ rows: [Row]) -> ReportTables.Table {
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

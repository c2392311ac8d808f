import PadArchive
import PadEvaluation
import PadText
import PadVocabulary

/// The processed units (samples or presentations) of one profile's reported split: the unit's row
/// in the run's ``AnalysisUnits`` table, species (-1 bona fide) and whether the profile accepted
/// it. Made from the decisions the run has just made (``init(_:decisions:units:)``), or read back
/// from a stored run's decisions file (``read(_:path:into:rowOf:)``). Failed units (empty
/// `accepted`) are left out, as the headline rates leave them out.
package struct DecidedUnits: Sendable {
    package var profile: String
    package var split: String
    /// Each unit's row in the analysis units' table; -1 for a unit a stored decisions file names
    /// and the table lacks.
    package var rows: [Int32] = []
    package var species: [Int32] = []
    package var accepted: [Bool] = []
    package var speciesNames: [String]
    /// The output the profile sweeps (its `score:`), nil when it has none.
    package var score: String?

    package init(profile: String, split: String, speciesNames: [String], score: String?) {
        self.profile = profile
        self.split = split
        self.speciesNames = speciesNames
        self.score = score
    }

    /// The units of `result`'s reported split (every split for `all`) that its `decisions` (one per
    /// row of `units`' table, made by the run's one decision pass) processed, in table order.
    package init(_ result: ProfileResult, decisions: DecisionCodes, units: AnalysisUnits) throws {
        let table = units.table
        guard decisions.count == table.count else {
            throw EvaluationError(
                "\(result.profile.name): \(decisions.count) decisions for \(table.count) units; the run's tables disagree"
            )
        }
        let names = result.headline?.speciesNames ?? table.speciesNames
        self.init(profile: result.profile.name, split: result.split, speciesNames: names, score: result.profile.score)
        let own = Dictionary(names.enumerated().map { ($1, Int32($0)) }, uniquingKeysWith: { a, _ in a })
        let speciesOf = table.speciesNames.map { own[$0] }
        let split = Split(rawValue: result.split)
        for i in 0..<table.count where split == nil || table.splits[i] == split {
            guard let accepted = decisions.accepted(i) else { continue }
            let k = table.speciesIndex[i]
            guard k < 0 || speciesOf[Int(k)] != nil else { continue }
            rows.append(Int32(i))
            species.append(k < 0 ? -1 : speciesOf[Int(k)]!)
            self.accepted.append(accepted)
        }
    }

    /// `units` (empty, one per profile wanted) filled from the rows of a decisions file
    /// (`decisions.csv` or `presentation_decisions.csv`, its bytes): each profile's rows of its
    /// split (every split for `all`) whose species it names, failures left out. `rowOf` gives each
    /// id's row in the analysis units' table.
    package static func read(_ bytes: [UInt8], path: String, into units: [DecidedUnits], rowOf: [String: Int]) throws
        -> [DecidedUnits]
    {
        var units = units
        let index = Dictionary(units.enumerated().map { ($1.profile, $0) }, uniquingKeysWith: { a, _ in a })
        let speciesIndex = units.map { u in
            Dictionary(u.speciesNames.enumerated().map { ($1, Int32($0)) }, uniquingKeysWith: { a, _ in a })
        }
        try DecisionsSchema.forEachRow(bytes, path: path) { row in
            guard let k = index[row.profile], let accepted = row.accepted else { return }
            guard units[k].split == "all" || row.split == units[k].split else { return }
            guard row.isBonaFide || speciesIndex[k][row.species] != nil else { return }
            units[k].rows.append(Int32(rowOf[row.id] ?? -1))
            units[k].species.append(row.isBonaFide ? -1 : speciesIndex[k][row.species]!)
            units[k].accepted.append(accepted)
        }
        return units
    }
}

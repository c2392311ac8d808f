import PadArchive
import PadEvaluation
import PadText

/// The processed units (samples or presentations) of one profile's reported split, as its
/// decisions file wrote them: id, species (-1 bona fide) and whether the profile accepted it.
/// Failed units (empty `accepted`) are left out, as the headline rates leave them out.
package struct DecidedUnits: Sendable {
    package var profile: String
    package var split: String
    package var ids: [String] = []
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

    /// `units` (empty, one per profile wanted) filled from the rows of a decisions file
    /// (`decisions.csv` or `presentation_decisions.csv`, its bytes): each profile's rows of its
    /// split (every split for `all`) whose species it names, failures left out.
    package static func read(_ bytes: [UInt8], path: String, into units: [DecidedUnits]) throws -> [DecidedUnits] {
        var units = units
        let index = Dictionary(units.enumerated().map { ($1.profile, $0) }, uniquingKeysWith: { a, _ in a })
        let speciesIndex = units.map { u in
            Dictionary(u.speciesNames.enumerated().map { ($1, Int32($0)) }, uniquingKeysWith: { a, _ in a })
        }
        try DecisionsSchema.forEachRow(bytes, path: path) { row in
            guard let k = index[row.profile], let accepted = row.accepted else { return }
            guard units[k].split == "all" || row.split == units[k].split else { return }
            guard row.isBonaFide || speciesIndex[k][row.species] != nil else { return }
            units[k].ids.append(row.id)
            units[k].species.append(row.isBonaFide ? -1 : speciesIndex[k][row.species]!)
            units[k].accepted.append(accepted)
        }
        return units
    }
}

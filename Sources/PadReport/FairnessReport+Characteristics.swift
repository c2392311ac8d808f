import PadArchive
import PadMetrics

extension FairnessReport {
    /// Each `group.*` characteristic of each profile's decided units (presentations when the run
    /// has presentations of several frames: a presentation's group is the one its frames share).
    package static func characteristics(
        _ decided: [DecidedUnits], groups: [String], labels: CSVTable, units: AnalysisUnits, level: String,
        alpha: Double
    ) -> [Characteristic] {
        var characteristics: [Characteristic] = []
        for name in groups {
            guard let byRow = try? units.label(labels, name) else { continue }
            for decision in decided {
                let rows = decision.rows.map { $0 < 0 ? nil : Int($0) }
                let counts = DemographicDifferentials.count(
                    groups: rows.map { $0.map { byRow[$0] }.flatMap { $0.isEmpty ? nil : $0 } },
                    species: decision.species, accepted: decision.accepted,
                    speciesCount: decision.speciesNames.count,
                    subjects: units.table.subjects.isEmpty ? nil : rows.map { $0.map { units.table.subject($0) } ?? "" }
                )
                characteristics.append(
                    Characteristic(
                        profile: decision.profile, split: decision.split, level: level, name: name,
                        speciesNames: decision.speciesNames, groups: counts, alpha: alpha))
            }
        }
        return characteristics
    }
}

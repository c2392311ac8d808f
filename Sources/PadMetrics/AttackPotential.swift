import PadText

/// PAI species grouped by attack potential (the effort an attacker needs), as ISO/IEC
/// 30107-3:2023 reports them: per level, APCER_AP = the highest APCER among that level's species
/// (FIDO's face certification and iBeta's level 1 / level 2 tests group the same way).
///
/// Example: `AttackPotentialTests.apcerPerLevelIsTheHighestOfItsSpecies`
/// in `Tests/PadMetricsTests/PresentationScoreFileTests.swift` (compiled and run by `swift test`).
/// Species without a level are reported under ``unassigned``.
package struct AttackPotential: Sendable, Equatable {
    /// Species -> level.
    package var levels: [String: String]
    package static let unassigned = "unassigned"

    package init(levels: [String: String]) { self.levels = levels }

    /// One level's APCER_AP and the species attaining it (the first in species order on a tie).
    package struct Level: Sendable, Equatable {
        package var level: String
        package var species: String
        package var apcer: Proportion
    }

    package func level(of species: String) -> String { levels[species] ?? Self.unassigned }

    /// APCER_AP per level present among `speciesNames` (levels sorted by name): max over the
    /// level's species of APCER (errors / attacks of the species); a species with no attack
    /// processed does not take part.
    package func apcerPerLevel(speciesNames: [String], apcer: [Proportion]) -> [Level] {
        var best: [String: Level] = [:]
        for (s, name) in speciesNames.enumerated() where apcer[s].total > 0 {
            let level = level(of: name)
            if let known = best[level], known.apcer.value >= apcer[s].value { continue }
            best[level] = Level(level: level, species: name, apcer: apcer[s])
        }
        return best.values.sorted { $0.level < $1.level }
    }

    /// The levels named for `speciesNames`, sorted (summary.csv's columns).
    package func levelNames(for speciesNames: [String]) -> [String] {
        Array(Set(speciesNames.map(level(of:)))).sorted()
    }

    /// A species-to-level table: CSV with header `species,attack_potential` (`#` comments and
    /// blank lines skipped). A species given two levels is an error naming both lines.
    package static func read(_ path: String) throws(ScoreFileError) -> AttackPotential {
        let data: [UInt8]
        do { data = try RegularFile.read(path) } catch {
            throw ScoreFileError(file: path, line: 0, "cannot read: \(error.message)")
        }
        var levels: [String: (level: String, line: Int)] = [:]
        var header: [String]?
        var problem: ScoreFileError?
        do {
            try CSVReader.forEachRecord(data, comments: true) { record in
                guard problem == nil else { return }
                let f = record.fields.map { $0.trimmingWhitespace() }
                guard header != nil else {
                    header = f.map { $0.lowercased() }
                    if header != ["species", "attack_potential"] {
                        problem = ScoreFileError(
                            file: path, line: record.line, "header must be species,attack_potential")
                    }
                    return
                }
                guard f.count == 2, !f[0].isEmpty, !f[1].isEmpty else {
                    problem = ScoreFileError(file: path, line: record.line, "expected species,attack_potential")
                    return
                }
                if let known = levels[f[0]], known.level != f[1] {
                    problem = ScoreFileError(
                        file: path, line: record.line,
                        "species '\(f[0])' is level '\(f[1])' here and '\(known.level)' on line \(known.line)")
                    return
                }
                levels[f[0]] = (f[1], record.line)
            }
        } catch {
            throw ScoreFileError(file: path, line: error.line, error.message)
        }
        if let problem { throw problem }
        guard header != nil else { throw ScoreFileError(file: path, line: 0, "empty file") }
        return AttackPotential(levels: levels.mapValues(\.level))
    }
}

import Foundation
import PadArchive
import PadDataset
import PadEvaluation
import PadMetrics
import PadReport
import PadText

/// What a run adds beyond the profiles' rates, from the decisions it has just written and the
/// samples' labels (`labels.csv`, ``SampleLabels``): `fairness.csv` (demographic differentials per
/// `group.*` label), `edc.csv` (error versus discard of each quality output) and `attributes.csv`
/// (which output detects which `attr.*` label), each with its report section. Files and sections
/// are left out when the run has nothing to compute them from.
///
/// Example: `RunAnalysesTests.manifestWithGroupsAndAttributes` in `Tests/PadBenchTests/RunAnalysesTests.swift`.
enum RunAnalyses {
    struct Output {
        var reports: [(String, [UInt8])] = []
        var sections: [String] = []
    }

    /// α of FDR and GARBE (de Freitas Pereira & Marcel use 0.5: APCER and BPCER weigh the same).
    static let fairnessAlpha = 0.5

    static func compute(
        folder: String, table: MeasurementTable, results: [ProfileResult], manifest: RunManifest
    ) throws -> Output {
        var output = Output()
        let labels = try readLabels(folder + "/" + SampleLabels.member)
        let quality = qualityOutputs(manifest, table: table)
        // Read back only when something uses them: a score run (no labels, no quality output)
        // would otherwise parse ten million decisions again for nothing.
        guard labels != nil || !quality.isEmpty else { return output }
        let frameDecisions = try DecidedUnits.read(folder + "/decisions.csv", results: results)
        let rowOf = frameDecisions.isEmpty && labels == nil ? [:] : rowIndex(table)
        if let labels {
            let groups = labels.header.filter { $0.hasPrefix(SampleLabels.groupPrefix) }
            if !groups.isEmpty {
                let presentationFile = folder + "/" + PresentationLevel.decisionsMember
                let decided =
                    table.hasPresentations
                    ? try DecidedUnits.read(presentationFile, results: results) : frameDecisions
                let characteristics = fairness(
                    decided, groups: groups, labels: labels, table: table, rowOf: rowOf, level: "presentation")
                add(
                    &output, "fairness.csv", FairnessReport.table(characteristics),
                    FairnessReport.section(characteristics))
            }
            let attributes = try attributeRows(labels, table: table, rowOf: rowOf)
            if !attributes.isEmpty {
                add(
                    &output, "attributes.csv", AttributeSeparation.table(attributes),
                    AttributeSeparation.section(attributes))
            }
        }
        let edc = try errorDiscard(frameDecisions, table: table, rowOf: rowOf, outputs: quality)
        if !edc.isEmpty { add(&output, "edc.csv", ErrorDiscardReport.table(edc), ErrorDiscardReport.section(edc)) }
        return output
    }

    static func add(_ output: inout Output, _ name: String, _ table: ReportTables.Table, _ section: String) {
        output.reports.append((name, CSVWriter.encode(header: table.header, rows: table.rows)))
        if !section.isEmpty { output.sections.append(section) }
    }

    static func readLabels(_ path: String) throws -> CSVTable? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try CSVTable(path: path)
    }

    static func rowIndex(_ table: MeasurementTable) -> [String: Int] {
        var rowOf: [String: Int] = [:]
        rowOf.reserveCapacity(table.count)
        for i in 0..<table.count { rowOf[table.ids[i]] = i }
        return rowOf
    }

    /// A label column as one value per table row ("" when not given).
    static func labelColumn(_ labels: CSVTable, _ name: String, table: MeasurementTable, rowOf: [String: Int]) throws
        -> [String]
    {
        let id = try labels.requireColumn("id"), c = try labels.requireColumn(name)
        var values = [String](repeating: "", count: table.count)
        for record in labels.records { if let row = rowOf[record.fields[id]] { values[row] = record.fields[c] } }
        return values
    }

    /// Each `group.*` characteristic of each profile's decided units (presentations when the run
    /// has presentations of several frames: the group of a presentation is its first frame's).
    static func fairness(
        _ decided: [DecidedUnits], groups: [String], labels: CSVTable, table: MeasurementTable, rowOf: [String: Int],
        level: String
    ) -> [FairnessReport.Characteristic] {
        var characteristics: [FairnessReport.Characteristic] = []
        for name in groups {
            guard let byRow = try? labelColumn(labels, name, table: table, rowOf: rowOf) else { continue }
            var byUnit: [String: String] = [:]
            for i in 0..<table.count where !byRow[i].isEmpty {
                let unit = table.hasPresentations ? table.presentation(i) : table.ids[i]
                if byUnit[unit] == nil { byUnit[unit] = byRow[i] }
            }
            for units in decided {
                let counts = DemographicDifferentials.count(
                    groups: units.ids.map { byUnit[$0] }, species: units.species, accepted: units.accepted,
                    speciesCount: units.speciesNames.count)
                characteristics.append(
                    FairnessReport.Characteristic(
                        profile: units.profile, split: units.split, level: level, name: name,
                        speciesNames: units.speciesNames, groups: counts, alpha: fairnessAlpha))
            }
        }
        return characteristics
    }
}

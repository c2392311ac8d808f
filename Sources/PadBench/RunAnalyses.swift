import PadProfiles
import Foundation
import PadArchive
import PadSamples
import PadEvaluation
import PadMetrics
import PadReport
import PadText
import PadVocabulary

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

    static func compute(
        folder: String, table: MeasurementTable, results: [ProfileResult], manifest: RunManifest
    ) throws -> Output {
        var output = Output()
        let labels = try readLabels(folder + "/" + SampleLabels.member)
        let quality = qualityOutputs(manifest, table: table)
        let comparisonsPath = folder + "/" + RunFile.comparisons.name
        let comparisons =
            FileManager.default.fileExists(atPath: comparisonsPath)
            ? try ComparisonScores.read(path: comparisonsPath) : nil
        // Read back only when something uses them: a score run (no labels, no quality output)
        // would otherwise parse ten million decisions again for nothing.
        guard labels != nil || !quality.isEmpty || comparisons != nil else { return output }
        let aggregate = manifest.effectiveFrameAggregate
        // Ids are looked up only for labels (given per sample id) and comparisons (given per id).
        let units = try AnalysisUnits(table, aggregate: aggregate, indexed: labels != nil || comparisons != nil)
        let decided = try decidedUnits(results, units: units)
        if let labels {
            let groups = labels.header.filter { $0.hasPrefix(SampleLabels.groupPrefix) }
            if !groups.isEmpty {
                let characteristics = FairnessReport.characteristics(
                    decided, groups: groups, labels: labels, units: units, level: "presentation",
                    alpha: FairnessReport.alpha)
                add(
                    &output, RunFile.fairness.name, FairnessReport.table(characteristics),
                    FairnessReport.section(characteristics))
            }
            let attributes = try attributeRows(labels, units: units)
            if !attributes.isEmpty {
                add(
                    &output, RunFile.attributes.name, AttributeSeparation.table(attributes),
                    AttributeSeparation.section(attributes))
            }
        }
        if let comparisons, let rule = manifest.comparatorThreshold {
            let analysis = try VulnerabilityReport.analyse(comparisons, rule: rule, decided: decided, units: units)
            add(
                &output, RunFile.vulnerability.name, VulnerabilityReport.table(analysis),
                VulnerabilityReport.section(analysis))
            if let epsc = analysis.epsc {
                let table = VulnerabilityReport.epscTable(epsc)
                output.reports.append((RunFile.epsc.name, CSVWriter.encode(header: table.header, rows: table.rows)))
            }
        }
        let edc = try errorDiscard(decided, units: units, outputs: quality)
        if !edc.isEmpty {
            add(&output, RunFile.edc.name, ErrorDiscardReport.table(edc), ErrorDiscardReport.section(edc))
        }
        return output
    }

    /// Each liveness profile's and capture check's processed units on its reported split, from the
    /// decisions the run made (``ProfileResult/decisions``), not read back from `decisions.csv`.
    static func decidedUnits(_ results: [ProfileResult], units: AnalysisUnits) throws -> [DecidedUnits] {
        try results.filter { ($0.isLivenessDecision || $0.profile.isCaptureOnly) && $0.headline != nil }.map {
            guard let decisions = $0.decisions else {
                throw EvaluationError("\($0.profile.name): the run's decisions are not at hand")
            }
            return try DecidedUnits($0, decisions: decisions, units: units)
        }
    }

    static func add(_ output: inout Output, _ name: String, _ table: ReportTables.Table, _ section: String) {
        output.reports.append((name, CSVWriter.encode(header: table.header, rows: table.rows)))
        if !section.isEmpty { output.sections.append(section) }
    }

    static func readLabels(_ path: String) throws -> CSVTable? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try CSVTable(path: path)
    }
}

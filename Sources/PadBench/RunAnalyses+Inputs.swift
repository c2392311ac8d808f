import Foundation
import PadArchive
import PadSamples
import PadEvaluation
import PadMetrics
import PadReport
import PadText

extension RunAnalyses {
    /// `attributes.csv` rows: every numeric output against every binary attribute, on the
    /// reported split's processed units (``AnalysisUnits``: presentations when they have several
    /// frames, each output aggregated over them; else outputs.csv's samples).
    static func attributeRows(_ labels: CSVTable, units: AnalysisUnits) throws -> [OutputSeparation.Row] {
        let table = units.table
        let samples = RunStatistics.reportedSamples(table).map(Int.init)
        var attributes: [(name: String, present: [Bool?])] = []
        for name in labels.header where name.hasPrefix(SampleLabels.attributePrefix) {
            let byRow = try units.label(labels, name)
            attributes += AttributeSeparation.binaryAttributes(name: name, values: samples.map { byRow[$0] })
        }
        guard !attributes.isEmpty else { return [] }
        var rows: [OutputSeparation.Row] = []
        for c in table.columns.indices {
            let values = try table.column(c, rows: samples.map { Int32($0) })
            for a in attributes {
                rows.append(
                    AttributeSeparation.row(
                        output: table.columns[c], values: values, attribute: a.name, present: a.present))
            }
        }
        return rows
    }

    /// The outputs EDC discards by: the capture-quality outputs, that is every output with a
    /// quality direction (higher or lower is better) that the table holds (quality.*, face
    /// geometry, head pose, eyes, mouth, landmarks), except PAD scores (`pad.*`, a score file's
    /// `scores.score`): they are what is decided, not how good the capture was. (Each profile's
    /// own swept score is left out too, per profile: ``errorDiscard(_:units:outputs:)``.)
    /// `negated`: lower is better, so quality = -value.
    static func qualityOutputs(_ manifest: RunManifest, table: MeasurementTable) -> [(name: String, negated: Bool)] {
        manifest.estimators.filter { $0.name != "pad" }.flatMap { e in
            e.outputs.filter {
                $0.direction != .none && !$0.name.hasPrefix("pad.") && $0.name != EvalRunner.scoreOutput
                    && table.columnIndex(of: $0.name) != nil
            }.map {
                ($0.name, $0.direction == .lowerIsBetter)
            }
        }
    }

    /// EDC of each quality output for each liveness profile, on its reported split's decided units
    /// (presentations when they have several frames, each quality aggregated over their frames).
    /// Never by the profile's own swept score: discarding by the score under test removes its own
    /// errors first, a trivially perfect curve that says nothing about a capture gate.
    static func errorDiscard(
        _ decided: [DecidedUnits], units: AnalysisUnits, outputs: [(name: String, negated: Bool)]
    ) throws -> [ErrorDiscardReport.Analysis] {
        guard !outputs.isEmpty else { return [] }
        var analyses: [ErrorDiscardReport.Analysis] = []
        for decision in decided {
            guard !decision.rows.contains(-1) else { continue }
            for output in outputs where output.name != decision.score {
                // The decided units' values only (a spilled column is read block by block).
                var quality = try units.table.column(units.table.columnIndex(of: output.name)!, rows: decision.rows)
                if output.negated { for k in quality.indices { quality[k] = -quality[k] } }
                analyses.append(
                    ErrorDiscardReport.Analysis(
                        profile: decision.profile, split: decision.split, output: output.name,
                        quality: quality,
                        species: decision.species, accepted: decision.accepted,
                        speciesCount: decision.speciesNames.count))
                // Each output's arrays (its column, qualities, sort orders: tens of bytes a unit)
                // are given back before the next output's are made.
                FreeMemory.releaseAfterPhase()
            }
        }
        return analyses
    }
}

import PadProfiles
import PadArchive
import PadEvaluation
import PadVocabulary

/// The units the run's analyses count (EDC, `attributes.csv`, `fairness.csv`): presentations when
/// the run has presentations of several frames, since ISO/IEC 30107-3 counts capture attempts, not
/// frames; else the samples themselves. A presentation's outputs are its processed frames' values
/// combined by the run's frame aggregate (`--aggregate`, the mean unless chosen: the value its
/// liveness score gets too), and its label is the one its frames share (none when they differ).
package struct AnalysisUnits: Sendable {
    /// One row per unit: the run's table, or its presentations.
    package var table: MeasurementTable
    /// Unit row by id (a presentation's id is its name, as in `presentation_decisions.csv`);
    /// empty when the units were made without the index (`indexed: false`).
    package var rowOf: [String: Int]
    /// The frames of each unit when units are presentations.
    package var groups: PresentationGroups?
    /// The run's own (frame) table and its row by sample id, for labels given per sample.
    package var frames: MeasurementTable
    package var frameRowOf: [String: Int]

    /// `indexed`: whether ``rowOf`` and ``frameRowOf`` are built (a dictionary entry per id: tens
    /// of bytes a sample, needed only to look up ids given in other files).
    package init(_ frames: MeasurementTable, aggregate: FrameAggregate, indexed: Bool = true) throws {
        self.frames = frames
        frameRowOf = indexed ? Self.rowIndex(frames) : [:]
        guard frames.hasPresentations else {
            (table, rowOf) = (frames, frameRowOf)
            return
        }
        let groups = PresentationGroups(frames)
        self.groups = groups
        table = try Self.presentations(frames, groups: groups, aggregate: aggregate)
        rowOf = indexed ? Self.rowIndex(table) : [:]
    }

    /// Row by id; an id given twice (a dev score file reusing eval ids) keeps its first row, the
    /// eval one that runs report.
    static func rowIndex(_ table: MeasurementTable) -> [String: Int] {
        var rowOf: [String: Int] = [:]
        rowOf.reserveCapacity(table.count)
        for i in 0..<table.count where rowOf[table.ids[i]] == nil { rowOf[table.ids[i]] = i }
        return rowOf
    }

    /// One row per presentation: its first frame's id (the presentation's name), split, species
    /// and subject; processed when one of its frames was (else the first frame's failure); each
    /// output the aggregate of its processed frames' values.
    static func presentations(_ frames: MeasurementTable, groups: PresentationGroups, aggregate: FrameAggregate)
        throws -> MeasurementTable
    {
        let firsts = groups.firsts.map(Int.init)
        var statuses: [SampleStatus] = [], processed: [[Int32]] = []
        for p in 0..<groups.count {
            let ok = groups.frames(p).filter { frames.statuses[Int($0)].isOK }
            statuses.append(ok.isEmpty ? frames.statuses[firsts[p]] : .ok)
            processed.append(ok)
        }
        let values = try frames.columns.indices.map { c in
            let column = try frames.column(c)
            return processed.map { rows in aggregate.combine(rows.map { column[Int($0)] }) }
        }
        return MeasurementTable(
            columns: frames.columns, ids: firsts.map { frames.presentation($0) },
            splits: firsts.map { frames.splits[$0] }, statuses: StatusColumn(statuses), values: values,
            speciesIndex: firsts.map { frames.speciesIndex[$0] }, speciesNames: frames.speciesNames,
            subjects: frames.hasSubjects ? firsts.map { frames.subject($0) } : nil)
    }

    /// Label column `name` of `labels.csv` as one value per unit row ("" when not given): a
    /// presentation's is the value its labelled frames share, "" when two of them differ.
    package func label(_ labels: CSVTable, _ name: String) throws -> [String] {
        let id = try labels.requireColumn("id"), c = try labels.requireColumn(name)
        var byFrame = [String](repeating: "", count: frames.count)
        for record in labels.records {
            if let row = frameRowOf[record.fields[id]] { byFrame[row] = record.fields[c] }
        }
        guard let groups else { return byFrame }
        return (0..<groups.count).map { p in
            let given = groups.frames(p).map { byFrame[Int($0)] }.filter { !$0.isEmpty }
            guard let first = given.first, given.allSatisfy({ $0 == first }) else { return "" }
            return first
        }
    }
}

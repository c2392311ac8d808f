import PadArchive
import PadSamples
import PadEvaluation
import PadText

extension MergeRunner {
    /// The shards' `labels.csv` joined into the merged run's (one row per sample, in the merged
    /// table's order), so the merge writes the fairness and attribute files one run would.
    /// Refused: a shard with labels beside one without, label columns that differ, or a sample
    /// whose labels differ between two shards (the error names the sample and both shards).
    static func mergedLabels(_ shards: Shards, table: MeasurementTable) throws -> SampleLabels {
        let labelled = shards.archives.map { $0.contains(SampleLabels.member) }
        if let with = labelled.firstIndex(of: true), let without = labelled.firstIndex(of: false) {
            throw EvaluationError(
                "\(shards.paths[without]): no \(SampleLabels.member), but \(shards.paths[with]) labels its samples")
        }
        var names: [String]?, firstPath = ""
        var byID: [String: (values: [String], path: String)] = [:]
        for (path, archive) in zip(shards.paths, shards.archives) where archive.contains(SampleLabels.member) {
            let member = path + ":" + SampleLabels.member
            let stored = try CSVTable(bytes: try archive.entry(named: SampleLabels.member), path: member)
            let columns = Array(stored.header.dropFirst())
            guard stored.header.first == "id" else { throw EvaluationError("\(member): the first column is not id") }
            if let names, names != columns {
                throw EvaluationError(
                    "\(member): label columns \(columns.joined(separator: ", ")) differ from \(firstPath)'s "
                        + "(\(names.joined(separator: ", ")))")
            }
            if names == nil { (names, firstPath) = (columns, path) }
            for record in stored.records {
                let id = record.fields[0], values = Array(record.fields.dropFirst())
                if let seen = byID[id], seen.values != values {
                    throw EvaluationError(
                        "\(member):\(record.line): sample '\(TextBytes.quote(id))' is labelled "
                            + "\(Self.shown(values, columns)) here and \(Self.shown(seen.values, columns)) in \(seen.path)"
                    )
                }
                byID[id] = (values, path)
            }
        }
        guard let names else { return SampleLabels() }
        var labels = SampleLabels(names: names)
        for i in 0..<table.count {
            if let found = byID[table.ids[i]] { labels.append(id: table.ids[i], values: found.values) }
        }
        return labels
    }

    /// `name=value` of each label, for an error line.
    static func shown(_ values: [String], _ names: [String]) -> String {
        zip(names, values).map { "\($0)='\(TextBytes.quote($1))'" }.joined(separator: ", ")
    }
}

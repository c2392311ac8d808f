import PadArchive
import PadDataset
import PadEvaluation

/// `labels.csv` of a run folder: the ``SampleLabels`` of the samples the table holds (a shard's
/// own), one row per sample in the dataset's order. Nothing is written when the dataset has no
/// labels, so runs without them stay as they were.
enum RunLabels {
    static func write(_ labels: SampleLabels, table: MeasurementTable, folder: String) throws {
        guard !labels.isEmpty else { return }
        var measured = Set<String>()
        measured.reserveCapacity(table.count)
        for i in 0..<table.count { measured.insert(table.ids[i]) }
        let writer = try CSVWriter(path: folder + "/" + SampleLabels.member)
        try writer.writeRow(labels.csvHeader)
        for row in 0..<labels.count where measured.contains(labels.ids[row]) {
            try writer.writeRow(labels.csvRow(row))
        }
        try writer.close()
    }
}

import Foundation
import PadArchive
import PadSamples
import PadEvaluation
import PadMetrics

/// `labels.csv` of a run folder: the ``SampleLabels`` of the samples the table holds (a shard's
/// own), one row per sample in the dataset's order. Nothing is written when the dataset has no
/// labels, so runs without them stay as they were. Every kind of run carries them: `bench` and
/// `import` from the dataset, `eval --scores` from a generic file's `group.*` / `attr.*` columns,
/// `eval --archive` from the stored run, `merge` from its shards.
enum RunLabels {
    /// A manifest row of a video labels the video, whose samples are its frames (`<video>#<k>`):
    /// each frame the table holds gets the video's labels, so groups and attributes reach video
    /// datasets (before, a video's labels matched no sample id and `labels.csv` was header-only).
    static func write(_ labels: SampleLabels, table: MeasurementTable, folder: String) throws {
        guard !labels.isEmpty else { return }
        var measured = Set<String>()
        measured.reserveCapacity(table.count)
        var framesOf: [String: [Int]] = [:]
        for i in 0..<table.count {
            measured.insert(table.ids[i])
            let presentation = table.presentation(i)
            if presentation != table.ids[i] { framesOf[presentation, default: []].append(i) }
        }
        let writer = try CSVWriter(path: folder + "/" + SampleLabels.member)
        try writer.writeRow(labels.csvHeader)
        for row in 0..<labels.count {
            let id = labels.ids[row]
            if measured.contains(id) {
                try writer.writeRow(labels.csvRow(row))
            } else if let frames = framesOf[id] {
                var fields = labels.csvRow(row)
                for i in frames {
                    fields[0] = table.ids[i]
                    try writer.writeRow(fields)
                }
            }
        }
        try writer.close()
    }

    /// The labels of score files (eval rows, then dev rows), by column name; a dev row whose id an
    /// eval row has (bob's labels are per split) keeps the eval row's labels, the reported ones.
    static func of(eval: ImportedScores, dev: ImportedScores?) -> SampleLabels {
        let files = [eval] + (dev.map { [$0] } ?? [])
        var names: [String] = []
        for file in files { for name in file.labelNames where !names.contains(name) { names.append(name) } }
        guard !names.isEmpty else { return SampleLabels() }
        var labels = SampleLabels(names: names)
        var seen = Set<String>()
        for file in files {
            let columns = names.map { file.labelNames.firstIndex(of: $0) }
            for row in file.ids.indices where seen.insert(file.ids[row]).inserted {
                labels.append(id: file.ids[row], values: columns.map { $0.map { file.labels[$0][row] } ?? "" })
            }
        }
        return labels
    }

    /// A stored run's `labels.csv` copied into `folder` (re-deciding keeps the samples' labels).
    static func copy(from archive: ResultArchiveReader, to folder: String) throws {
        guard archive.contains(SampleLabels.member) else { return }
        try Data(try archive.entry(named: SampleLabels.member)).write(
            to: URL(fileURLWithPath: folder + "/" + SampleLabels.member))
    }
}

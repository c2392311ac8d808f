import Foundation
import PadArchive
import PadDataset

extension MeasurementTable {
    /// Reads `samples.csv` (as `bench` writes it) back into a table: the output columns are those
    /// between `error` and `decode_ns`. A malformed row is an error naming the file and line.
    public init(samplesCSV bytes: [UInt8], path: String) throws {
        let csv = try CSVTable(bytes: bytes, path: path)
        let id = try csv.requireColumn("id"), label = try csv.requireColumn("label"),
            species = try csv.requireColumn("species")
        let split = try csv.requireColumn("split"), status = try csv.requireColumn("status"),
            error = try csv.requireColumn("error")
        let decode = try csv.requireColumn("decode_ns")
        // Optional: archives written before subjects were recorded have no such column.
        let subject = csv.column("subject")
        guard error < decode else {
            throw ArchiveError.csv(path: path, line: 1, message: "expected output columns between error and decode_ns")
        }
        let outputColumns = Array((error + 1)..<decode)
        self.init(columns: outputColumns.map { csv.header[$0] })
        reserveCapacity(csv.records.count)
        for record in csv.records {
            let f = record.fields
            let parsedLabel: Label
            switch f[label] {
            case "bonafide": parsedLabel = .bonaFide
            case "attack": parsedLabel = .attack(species: f[species])
            default:
                throw ArchiveError.csv(
                    path: path, line: record.line, message: "label '\(f[label])' is neither bonafide nor attack")
            }
            guard let parsedSplit = Split(parsing: f[split]) else {
                throw ArchiveError.csv(path: path, line: record.line, message: "unknown split '\(f[split])'")
            }
            var values: [Double] = []
            values.reserveCapacity(outputColumns.count)
            for c in outputColumns {
                guard let v = CSVFormat.parseNumber(Substring(f[c])) else {
                    throw ArchiveError.csv(
                        path: path, line: record.line, message: "\(csv.header[c]) '\(f[c])' is not a number")
                }
                values.append(v)
            }
            let sampleStatus: SampleStatus = f[status] == "ok" ? .ok : .failed(code: f[status], message: f[error])
            if let subject {
                append(
                    id: f[id], label: parsedLabel, split: parsedSplit, status: sampleStatus, values: values,
                    subject: f[subject])
            } else {
                append(id: f[id], label: parsedLabel, split: parsedSplit, status: sampleStatus, values: values)
            }
        }
    }
}

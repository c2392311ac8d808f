import Foundation
import PadArchive
import PadText
import PadVocabulary

extension MeasurementTable {
    /// Reads `samples.csv` (as `bench` writes it) back into a table: the output columns are those
    /// its schema's outputs (``SamplesSchema``). A malformed row is an error naming the file and line.
    package init(samplesCSV bytes: [UInt8], path: String) throws {
        var stream = CSVRecordStream(path: path)
        var table: MeasurementTable?
        var columns: SamplesSchema?
        var outputs: [Int] = []
        func take(_ record: CSVRecordStream.Record) throws {
            guard let known = columns else {
                let found = try SamplesSchema(header: record.fields, path: path)
                outputs = try found.outputColumns(path: path)
                columns = found
                table = MeasurementTable(columns: found.outputNames)
                return
            }
            guard record.fields.count == known.header.count else {
                throw ArchiveError.csv(
                    path: path, line: record.line,
                    message: "\(record.fields.count) fields, the header has \(known.header.count)")
            }
            try table!.appendStored(record.fields, line: record.line, columns: known, outputs: outputs, path: path)
        }
        try bytes.withUnsafeBytes { try stream.feed($0, take) }
        try stream.finish(take)
        guard let table else { throw ArchiveError.csv(path: path, line: 1, message: "empty file, expected a header") }
        self = table
    }

    /// Appends one stored `samples.csv` row: label, split, status, the outputs and the subject
    /// (when the file has the column). `outputs` are the columns from ``SamplesSchema/outputColumns(path:)``.
    package mutating func appendStored(
        _ f: [String], line: Int, columns: SamplesSchema, outputs: [Int], path: String
    ) throws {
        let parsedLabel: Label
        switch f[columns.label] {
        case "bonafide": parsedLabel = .bonaFide
        case "attack": parsedLabel = .attack(species: f[columns.species])
        default:
            throw ArchiveError.csv(
                path: path, line: line,
                message: "label '\(TextBytes.quote(f[columns.label]))' is neither bonafide nor attack")
        }
        guard let parsedSplit = Split(parsing: f[columns.split]) else {
            throw ArchiveError.csv(
                path: path, line: line, message: "unknown split '\(TextBytes.quote(f[columns.split]))'")
        }
        var values: [Double] = []
        values.reserveCapacity(outputs.count)
        for c in outputs {
            guard let v = CSVFormat.parseNumber(Substring(f[c])) else {
                throw ArchiveError.csv(
                    path: path, line: line, message: "\(columns.header[c]) '\(TextBytes.quote(f[c]))' is not a number")
            }
            values.append(v)
        }
        guard let sampleStatus = SampleStatus(field: f[columns.status!], message: f[columns.error!]) else {
            throw ArchiveError.csv(
                path: path, line: line,
                message: "status '\(TextBytes.quote(f[columns.status!]))' is neither ok nor a failure code")
        }
        if let subject = columns.subject {
            append(
                id: f[columns.id], label: parsedLabel, split: parsedSplit, status: sampleStatus, values: values,
                subject: f[subject])
        } else {
            append(id: f[columns.id], label: parsedLabel, split: parsedSplit, status: sampleStatus, values: values)
        }
        if let presentation = columns.presentation {
            let frame = columns.frame.flatMap { Int(f[$0]) }
            setLastPresentation(f[presentation].isEmpty ? f[columns.id] : f[presentation], frameIndex: frame)
        }
    }
}

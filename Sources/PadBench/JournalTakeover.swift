import Foundation
import PadArchive
import PadSamples
import PadEvaluation
import PadText
import PadVocabulary

#if canImport(Glibc)
import Glibc
#endif

/// Resume: the complete rows of an interrupted run's journal (`samples.csv`) taken over into the
/// run's table and timing when they are the first samples of this dataset in order (same ids,
/// labels, splits, subjects and presentations: the table takes those from the dataset) and the
/// columns are this run's. A torn last row (no line end outside quotes, RFC 4180: a quoted id may
/// hold a newline) is cut off: the journal is truncated to its whole rows, one `truncate` call, so
/// a failure or a kill meanwhile never loses a whole row. An empty or header-only journal resumes
/// from sample 0.
///
/// The journal is read in chunks and parsed in batches of ``batchRows`` rows (the batch is a
/// ``MeasurementTable`` of its own, read by the same code as a stored `samples.csv`), so taking over
/// a million rows holds one batch, never the file or its fields (a 298,681-row journal held 900 MB
/// when it was read whole).
struct JournalTakeover {
    static let batchRows = 4096

    let path: String
    let schema: SamplesSchema
    let samples: SampleList
    let batchRows: Int
    private var stored: SamplesSchema?
    private var outputs: [Int] = []
    private var batch: MeasurementTable?
    /// The timing fields of the batch's rows, with their line numbers.
    private var batchTimes: [(line: Int, fields: [String])] = []
    /// Rows taken over so far (those of earlier batches).
    private(set) var taken = 0
    /// Bytes of the journal that are whole rows (header included).
    private(set) var completeBytes = 0

    init(path: String, schema: SamplesSchema, samples: SampleList, batchRows: Int = Self.batchRows) {
        (self.path, self.schema, self.samples, self.batchRows) = (path, schema, samples, max(1, batchRows))
    }

    /// Takes over the journal at `path` into `table` and `timing`; returns how many rows it had.
    static func takeOver(
        _ path: String, schema: SamplesSchema, samples: SampleList, into table: inout MeasurementTable,
        timing: inout BenchRunner.StepTiming, batchRows: Int = Self.batchRows
    ) throws -> Int {
        var takeover = JournalTakeover(path: path, schema: schema, samples: samples, batchRows: batchRows)
        var stream = CSVRecordStream(path: path)
        do {
            try RegularFile.readChunks(path) { chunk in
                try stream.feed(chunk) { try takeover.take($0, into: &table, timing: &timing) }
            }
        } catch let failure as RegularFile.Failure {
            throw EvaluationError("\(path): cannot read the journal: \(failure.message)")
        }
        // What the stream still holds has no line end: a torn row, never taken.
        try takeover.flush(into: &table, timing: &timing)
        guard takeover.taken > 0 else { return 0 }
        if let size = RegularFile.size(path), takeover.completeBytes < size {
            guard truncate(path, off_t(takeover.completeBytes)) == 0 else {
                throw EvaluationError(
                    "\(path): cannot cut the torn last row: \(RegularFile.errorText(errno))")
            }
        }
        return takeover.taken
    }

    /// One whole record of the journal: the header (checked against this run's), or a row added to
    /// the batch, which is taken over when full.
    mutating func take(
        _ record: CSVRecordStream.Record, into table: inout MeasurementTable, timing: inout BenchRunner.StepTiming
    ) throws {
        completeBytes = record.offset + record.length
        guard let known = stored else {
            guard record.fields == schema.header else {
                throw EvaluationError(
                    "\(path): the interrupted run measured other outputs (\(record.fields.count) columns, "
                        + "this run \(schema.header.count)); start over with --force")
            }
            let found = try SamplesSchema(header: record.fields, path: path)
            outputs = try found.outputColumns(path: path)
            stored = found
            return
        }
        guard record.fields.count == known.header.count else {
            throw ArchiveError.csv(
                path: path, line: record.line,
                message: "\(record.fields.count) fields, the header has \(known.header.count)")
        }
        if batch == nil { batch = MeasurementTable(columns: known.outputNames) }
        try batch!.appendStored(record.fields, line: record.line, columns: known, outputs: outputs, path: path)
        batchTimes.append((record.line, record.fields))
        if batch!.count == batchRows { try flush(into: &table, timing: &timing) }
    }

    /// Checks the batch's rows against the dataset's next samples and their times, then appends
    /// them to `table` and `timing`.
    mutating func flush(into table: inout MeasurementTable, timing: inout BenchRunner.StepTiming) throws {
        guard let rows = batch else { return }
        for j in 0..<rows.count {
            let i = taken + j
            guard i < samples.count, Self.same(rows, j, samples[i]) else {
                throw EvaluationError(
                    "\(path): the interrupted run's samples are not this dataset's "
                        + "first samples in order; start over with --force")
            }
        }
        // The outputs, labels and statuses were checked as the rows were read; the times are
        // checked here, or an edited `12x` would enter the timing summaries as 0.
        for (line, fields) in batchTimes {
            for c in schema.timing + schema.cpuTiming where !fields[c].isEmpty && UInt64(fields[c]) == nil {
                throw EvaluationError(
                    "\(path):\(line): \(schema.header[c]) '\(TextBytes.quote(fields[c]))' is not a "
                        + "whole number of nanoseconds; start over with --force")
            }
        }
        for (j, (_, fields)) in batchTimes.enumerated() {
            table.append(status: rows.statuses[j], values: rows.values.map { $0[j] })
            let ns = schema.nanoseconds(fields).map { $0.nanoseconds ?? 0 }
            let cpu = schema.cpuNanoseconds(fields).map { $0.nanoseconds ?? 0 }
            timing.record(
                decode: ns[0], steps: Array(ns.dropFirst()), cpu: cpu,
                presentation: samples.presentationColumn?.codes[taken + j])
        }
        taken += rows.count
        batch = nil
        batchTimes = []
    }

    /// Row `j` of `rows` is `sample`: same id, label, split, subject, presentation and frame.
    static func same(_ rows: MeasurementTable, _ j: Int, _ sample: Sample) -> Bool {
        rows.ids[j] == sample.id && rows.labels[j] == sample.label && rows.splits[j] == sample.split
            && rows.subject(j) == sample.subject && rows.presentation(j) == sample.presentation
            && (rows.frameIndices.isEmpty ? -1 : Int(rows.frameIndices[j])) == (sample.frameIndex ?? -1)
    }
}

import Foundation
import PadArchive
import PadText
import PadVocabulary

/// CSV records read from a stream of byte chunks (an archive member as it decompresses), one at
/// a time, each with the line it starts on and where its bytes are in the stream: a million-row
/// `samples.csv` is never held whole, nor as a million arrays of fields. Records are cut at line
/// ends outside quotes and parsed by the one RFC 4180 reader (PadText), so fields, errors and
/// line numbers are those of reading the whole file at once.
///
/// ```swift
/// var stream = CSVRecordStream(path: "run.tar.zst:samples.csv")
/// try archive.streamEntry(named: "samples.csv") { chunk in try stream.feed(chunk) { rows.append($0.fields) } }
/// try stream.finish { rows.append($0.fields) }
/// ```
package struct CSVRecordStream {
    package struct Record {
        package var line: Int
        /// Byte offset of the record's first byte in the stream, and its length up to and
        /// including its line end.
        package var offset: Int
        package var length: Int
        package var fields: [String]
    }

    package let path: String
    private var pending: [UInt8] = []
    /// Stream offset of `pending[0]`, and the line it is on.
    private var pendingOffset = 0
    private var pendingLine = 1
    /// Bytes of `pending` already scanned for line ends, and the quote state there.
    private var scanned = 0
    private var inQuotes = false

    package init(path: String) { self.path = path }

    package mutating func feed(_ chunk: UnsafeRawBufferPointer, _ body: (Record) throws -> Void) throws {
        pending.append(contentsOf: chunk)
        var start = 0
        while scanned < pending.count {
            let byte = pending[scanned]
            scanned += 1
            if byte == UInt8(ascii: "\"") {
                inQuotes.toggle()
            } else if byte == 0x0A && !inQuotes {
                try emit(start..<scanned, body)
                start = scanned
            }
        }
        pending.removeSubrange(0..<start)
        pendingOffset += start
        scanned -= start
    }

    /// The last record, when the stream does not end with a line end.
    package mutating func finish(_ body: (Record) throws -> Void) throws {
        if !pending.isEmpty { try emit(0..<pending.count, body) }
        pendingOffset += pending.count
        pending = []
        scanned = 0
    }

    private mutating func emit(_ range: Range<Int>, _ body: (Record) throws -> Void) throws {
        let offset = pendingOffset + range.lowerBound
        let records: [CSVReader.Record]
        do {
            records = try CSVReader.parse(Array(pending[range]))
        } catch {
            throw ArchiveError.csv(path: path, line: pendingLine + error.line - 1, message: error.message)
        }
        for record in records {
            try body(
                Record(line: pendingLine + record.line - 1, offset: offset, length: range.count, fields: record.fields))
        }
        pendingLine += pending[range].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    }
}

/// A stored run's `samples.csv` read in one streaming pass and checked as
/// `StoredRun.verifiedSamples()` checks it (as many rows as the manifest's samples, the same
/// sample fingerprint), without holding the file.
package struct StoredSamplesReader {
    package let archive: ResultArchiveReader
    /// The archive's path as errors name it.
    package let path: String
    package let manifest: RunManifest

    package init(archive: ResultArchiveReader, path: String, manifest: RunManifest) {
        (self.archive, self.path, self.manifest) = (archive, path, manifest)
    }

    /// Calls `header` with the columns, then `row` with every record after it (the rows are
    /// checked to have as many fields as the header). Throws, after the whole file was read,
    /// when rows or fingerprint disagree with the manifest. An error `row` throws is kept and
    /// thrown only after those checks (an edited archive is named as such first), and no more
    /// rows are handed over once one was thrown.
    /// `raw`, when given, gets the file's bytes as they are read (a copy on disk).
    package func read(
        header: (SamplesSchema) throws -> Void, row: (CSVRecordStream.Record) throws -> Void,
        raw: ((UnsafeRawBufferPointer) throws -> Void)? = nil
    ) throws {
        let member = path + ":samples.csv"
        var stream = CSVRecordStream(path: member)
        var columns: SamplesSchema?
        var rows = 0
        var total: UInt64 = 0, presentations: UInt64 = 0
        var rowError: Error?
        func take(_ record: CSVRecordStream.Record) throws {
            guard let known = columns else {
                columns = try SamplesSchema(header: record.fields, path: member)
                do { try header(columns!) } catch { rowError = error }
                return
            }
            guard record.fields.count == known.header.count else {
                throw ArchiveError.csv(
                    path: member, line: record.line,
                    message: "\(record.fields.count) fields, the header has \(known.header.count)")
            }
            rows += 1
            total &+= known.sampleHash(record.fields)
            presentations &+= known.presentationHash(record.fields)
            guard rowError == nil else { return }
            do { try row(record) } catch { rowError = error }
        }
        try archive.streamEntry(named: RunFile.samples.name) { chunk in
            try raw?(chunk)
            try stream.feed(chunk, take)
        }
        try stream.finish(take)
        guard columns != nil else {
            throw ArchiveError.csv(path: member, line: 1, message: "empty file, expected a header")
        }
        try manifest.checkSampleCount(rows, archive: path)
        try manifest.checkSampleFingerprint(total, presentations: presentations, archive: path)
        if let rowError { throw rowError }
    }
}

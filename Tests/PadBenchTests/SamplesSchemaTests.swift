import Foundation
import PadArchive
import PadVocabulary
import Testing

@testable import PadBench
@testable import PadDataset
@testable import PadSamples
@testable import PadEvaluation
@testable import PadReport
@testable import PadRuns
import TestSupport

/// `samples.csv` has one definition (``SamplesSchema``): every run kind's writer, read back by the
/// one reader, gives the table it wrote (ids, labels, splits, statuses, outputs, subjects,
/// presentations and the timing), on seeded random rows with hostile ids and species, failures,
/// NaN and infinities.
@Suite struct SamplesSchemaTests {
    /// A reproducible generator (SplitMix64), so a failure names rows that can be made again.
    struct Seeded {
        var state: UInt64
        mutating func next(_ n: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(n))
        }
    }

    static let ids = ["a.jpg", "with,comma", "say \"hi\"", "line\nbreak", "Zoë/数据.png"]
    static let species = ["print", "mask, \"3D\"", "réplay"]
    static let values: [Double] = [0.5, 0, .infinity, -.infinity, .nan, 1.845584192, 1.0 / 3, -2e-7, 1e300, 42]
    static let splits: [Split] = [.eval, .dev, .train, .none]

    /// `n` samples; with `frames`, in presentations of up to three frames with time stamps.
    static func samples(_ n: Int, seed: UInt64, frames: Bool) -> [Sample] {
        var random = Seeded(state: seed)
        var samples: [Sample] = []
        while samples.count < n {
            let label: Label = random.next(3) == 0 ? .bonaFide : .attack(species: species[random.next(3)])
            let (split, subject) = (splits[random.next(4)], random.next(4) == 0 ? "" : "subject \(random.next(5))")
            let base = ids[random.next(ids.count)] + "\(samples.count)"
            for k in 0..<(frames ? 1 + random.next(3) : 1) {
                samples.append(
                    Sample(
                        id: frames ? Sample.frameID(presentation: base, frameIndex: k) : base, path: "/data/\(base)",
                        label: label, split: split, subject: subject, presentation: frames ? base : nil,
                        frameIndex: frames ? k : nil, timestamp: frames ? Double(k) / 30 : nil))
            }
        }
        return samples
    }

    /// The measurements of the samples: statuses (some failures) and `outputs` values per row.
    static func measured(_ samples: [Sample], outputs: [String], seed: UInt64) -> MeasurementTable {
        var random = Seeded(state: seed ^ 0xFF)
        var table = MeasurementTable(columns: outputs)
        for sample in samples {
            let failed = random.next(7) == 0
            let status: SampleStatus = failed ? .failed(code: .decodeError, message: "bad, \"data\"") : .ok
            let row = outputs.map { _ in failed ? Double.nan : values[random.next(values.count)] }
            table.append(
                id: sample.id, label: sample.label, split: sample.split, status: status, values: row,
                subject: sample.subject)
            if sample.frameIndex != nil {
                table.setLastPresentation(sample.presentation, frameIndex: sample.frameIndex)
            }
        }
        return table
    }

    static func file(_ write: (String) throws -> Void) throws -> [UInt8] {
        let path = TestFolder.root + "/padbench-schema-\(UUID().uuidString).csv"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try write(path)
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Two tables hold the same samples: ids, labels, splits, statuses, subjects, presentations and
    /// every output (NaN equals NaN).
    static func expectSame(_ a: MeasurementTable, _ b: MeasurementTable, _ kind: String, subjects: Bool = true) {
        #expect(a.count == b.count && a.columns == b.columns, "\(kind)")
        for i in 0..<min(a.count, b.count) {
            let same =
                a.ids[i] == b.ids[i] && a.labels[i] == b.labels[i] && a.splits[i] == b.splits[i]
                && a.statuses[i] == b.statuses[i] && (!subjects || a.subject(i) == b.subject(i))
                && a.presentation(i) == b.presentation(i)
                && zip(a.values, b.values).allSatisfy { $0[i] == $1[i] || ($0[i].isNaN && $1[i].isNaN) }
            #expect(same, "\(kind): row \(i) (\(a.ids[i])) differs")
            if !same { return }
        }
    }

    @Test(arguments: [false, true]) func benchReadsBackWhatItWrote(frames: Bool) throws {
        let samples = Self.samples(300, seed: frames ? 7 : 3, frames: frames)
        let outputs = ["quality.sharpness", "face.count@dataset_box", "pad.score"]
        let table = Self.measured(samples, outputs: outputs, seed: 11)
        let schema = SamplesSchema.measured(
            outputs: outputs, steps: ["quality", "face@dataset_box"], presentations: frames)
        let bytes = try Self.file { path in
            let writer = try CSVWriter(path: path)
            try writer.writeRow(schema.header)
            for (i, sample) in samples.enumerated() {
                try writer.writeRow(
                    schema.row(
                        sample, status: table.statuses[i], values: table.values.map { $0[i] }, decode: UInt64(i),
                        steps: [UInt64(2 * i), 0]))
            }
            try writer.close()
        }
        let read = try MeasurementTable(samplesCSV: bytes, path: "samples.csv")
        Self.expectSame(table, read, "bench")
        let stored = try CSVTable(bytes: bytes, path: "samples.csv")
        let typed = try SamplesSchema(header: stored.header, path: "samples.csv")
        #expect(typed == schema)
        #expect(typed.nanoseconds(stored.records[5].fields).map(\.step) == ["decode", "quality", "face@dataset_box"])
        #expect(typed.nanoseconds(stored.records[5].fields).map(\.nanoseconds) == [5, 10, 0])
        if frames {
            #expect(stored.records.map { $0.fields[typed.frame!] } == samples.map { String($0.frameIndex!) })
        }
    }

    @Test func importReadsBackWhatItWrote() throws {
        let samples = Self.samples(200, seed: 5, frames: false)
        let table = Self.measured(samples, outputs: ["liveness_score", "quality"], seed: 13)
        let dataset = LoadedDataset(root: "/data", layout: .manifest, samples: samples, problems: [])
        let bytes = try Self.file { try ImportRunner.writeSamplesCSV(dataset, table, to: $0) }
        Self.expectSame(table, try MeasurementTable(samplesCSV: bytes, path: "samples.csv"), "import")
        let stored = try CSVTable(bytes: bytes, path: "samples.csv")
        #expect(
            try SamplesSchema(header: stored.header, path: "samples.csv")
                == .measured(outputs: table.columns, steps: [], presentations: false))
    }

    /// A `status` that is neither `ok` nor a ``FailureCode`` is refused with the file and line;
    /// every code is read back as written.
    @Test func unknownStatusCodesAreRefusedWithTheLine() throws {
        let header = "id,path,label,species,split,status,error,scores.score,decode_ns\n"
        var text = header + "a,a.jpg,bonafide,,eval,ok,,0.5,0\n"
        for (k, code) in FailureCode.allCases.enumerated() {
            text += "f\(k),f.jpg,attack,print,eval,\(code.rawValue),why,,0\n"
        }
        let table = try MeasurementTable(samplesCSV: Array(text.utf8), path: "run/samples.csv")
        #expect(Array(table.statuses) == [.ok] + FailureCode.allCases.map { .failed(code: $0, message: "why") })
        let bad = header + "a,a.jpg,bonafide,,eval,ok,,0.5,0\nb,b.jpg,bonafide,,eval,Decode_Error,x,0.5,0\n"
        #expect {
            try MeasurementTable(samplesCSV: Array(bad.utf8), path: "run/samples.csv")
        } throws: {
            "\($0)".contains("run/samples.csv:3: ")
                && "\($0)".contains("status 'Decode_Error' is neither ok nor a failure code")
        }
    }

    @Test(arguments: [false, true]) func scoresReadBackWhatTheyWrote(presentations: Bool) throws {
        let samples = Self.samples(250, seed: 9, frames: presentations)
        let table = Self.measured(samples, outputs: [EvalRunner.scoreOutput], seed: 17)
        let bytes = try Self.file { path in try SamplesSchema.writeScores(table, to: CSVWriter(path: path)) }
        // A score run's file has a subject column when its samples name subjects (compare pairs
        // score runs by subject; see SamplesSchema.scores).
        #expect(table.hasSubjects)
        Self.expectSame(table, try MeasurementTable(samplesCSV: bytes, path: "samples.csv"), "scores", subjects: true)
        let stored = try CSVTable(bytes: bytes, path: "samples.csv")
        #expect(
            try SamplesSchema(header: stored.header, path: "samples.csv")
                == .scores(output: EvalRunner.scoreOutput, subject: true, presentation: presentations))
    }

    /// `merge` writes the shards' rows again, unchanged, in id order (``MergedRows``); `eval
    /// --archive` copies the stored file's bytes: either way the table read back is the one written.
    @Test func mergeReadsBackWhatTheShardsWrote() throws {
        let samples = Self.samples(120, seed: 21, frames: true).sorted { $0.id < $1.id }
        let outputs = ["quality.sharpness"]
        let table = Self.measured(samples, outputs: outputs, seed: 23)
        let schema = SamplesSchema.measured(outputs: outputs, steps: ["quality"], presentations: true)
        let folder = TestFolder.root + "/padbench-schema-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var rows = MergedRows(table: table)
        let writer = try CSVWriter(path: folder + "/shard.csv")
        try writer.writeRow(schema.header)
        for (i, sample) in samples.enumerated() {
            try writer.writeRow(
                schema.row(sample, status: table.statuses[i], values: [table.values[0][i]], decode: 1, steps: [2]))
        }
        try writer.close()
        let shard = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/shard.csv")))
        var stream = CSVRecordStream(path: "shard.csv")
        var offsets: [Int] = []
        try shard.withUnsafeBytes { try stream.feed($0) { offsets.append($0.offset) } }
        (rows.files, rows.ends, rows.offsets) = ([folder + "/shard.csv"], [samples.count], Array(offsets.dropFirst()))
        rows.order = Array(0..<samples.count)
        try rows.writeSamples(header: schema.header, to: folder + "/merged.csv")
        let merged = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/merged.csv")))
        #expect(merged == shard)
        Self.expectSame(table, try MeasurementTable(samplesCSV: merged, path: "merged.csv"), "merge")
    }

    /// An output whose name ends in `_ns` (an import's `vendor.latency_ns`) is a measurement, not a
    /// step's time: `compare` gates latency on the timing columns only. Main took every `_ns`
    /// column for a timing step and gated a vendor's number as padbench's latency.
    @Test func compareTimesOnlyTheTimingColumns() throws {
        let text =
            "id,path,label,species,split,subject,status,error,vendor.latency_ns,decode_ns\n"
            + (0..<50).map { "s\($0),,bonafide,,eval,,ok,,\(1000 + $0),0\n" }.joined()
        let times = try LatencyComparison.times(CSVTable(bytes: Array(text.utf8), path: "samples.csv"))
        #expect(times.wall.isEmpty && times.cpu.isEmpty)
    }
}

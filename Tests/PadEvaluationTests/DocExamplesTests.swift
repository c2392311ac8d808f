import Foundation
import PadArchive
import PadSamples
import PadProfiles
import PadText
import Testing

@testable import PadEvaluation
import TestSupport

/// The examples of PadEvaluation's doc comments, compiled and checked here
/// (`DocCommentExamplesTests` holds each comment to its copy below).
@Suite struct PadEvaluationDocExamples {
    static func folder() -> String {
        let path = TestFolder.root + "/padbench-evaluation-doc-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// ``DecisionCodes``: two bytes a row, nil for a failed row.
    @Test func decisionCodes() {
        let codes = DecisionCodes([Decision.accepted, Decision(failedGate: 1, valueWasNaN: true), nil])
        // codes.accepted(0) == true, codes.accepted(1) == false, codes.accepted(2) == nil
        #expect(codes.accepted(0) == true && codes.accepted(1) == false && codes.accepted(2) == nil)
        #expect(codes.decision(1) == Decision(failedGate: 1, valueWasNaN: true))
    }

    /// ``ProfileEvaluator/evaluate(_:decisions:)`` on a ``BackgroundLane``: the rows of every
    /// sample, header first, once `wait()` returns.
    @Test func backgroundDecisions() throws {
        var table = MeasurementTable(columns: ["pad.score"])
        table.append(id: "a.jpg", label: .bonaFide, split: .eval, status: .ok, values: [0.9])
        table.append(id: "b.jpg", label: .attack(species: "print"), split: .eval, status: .ok, values: [0.2])
        let evaluator = ProfileEvaluator(table: table)
        let profiles = [
            try ProfileLoader().load(
                yaml:
                    "name: pad\nsource: test\nscore: pad.score\ngates:\n  - {output: pad.score, op: ge, value: 0.5}\n",
                file: "pad.yaml")
        ]
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let decisions = BackgroundLane(try CSVWriter(path: folder + "/decisions.csv"))
        let results = try evaluator.evaluate(profiles, decisions: decisions)
        decisions.enqueue { try $0.close() }
        try decisions.wait() // the rows written and the file closed, or the first write error
        let rows = try String(contentsOfFile: folder + "/decisions.csv", encoding: .utf8).split(separator: "\n")
        #expect(rows.count == 3 && rows[1].hasPrefix("a.jpg,pad,eval,bonafide,,ok,1"))
        #expect(results[0].reported.bonaFideCount == 1)
    }

    /// ``MeasurementTable``: a column by name holds the values appended.
    @Test func samplesSchema() throws {
        let schema = SamplesSchema.measured(outputs: ["quality.sharpness"], steps: ["quality"], presentations: false)
        let read = try SamplesSchema(header: schema.header, path: "samples.csv")
        assert(read == schema && read.column(.output("quality.sharpness")) == 8)
        #expect(read.header.last == "quality_ns")
        // CPU columns come after the wall-clock steps and are no step of their own.
        let timed = SamplesSchema.measured(
            outputs: ["quality.sharpness"], steps: ["quality"], presentations: false, cpuSteps: ["decode", "quality"])
        let parsed = try SamplesSchema(header: timed.header, path: "samples.csv")
        #expect(Array(parsed.header.suffix(4)) == ["decode_ns", "quality_ns", "cpu.decode_ns", "cpu.quality_ns"])
        #expect(parsed == timed && parsed.timing.count == 2 && parsed.cpuTiming.count == 2)
        let fields = ["a", "", "bonafide", "", "eval", "", "ok", "", "1", "10", "20", "9", "19"]
        #expect(parsed.nanoseconds(fields).map(\.step) == ["decode", "quality"])
        #expect(parsed.cpuNanoseconds(fields).map(\.nanoseconds) == [9, 19])
    }

    @Test func measurementTable() throws {
        var table = MeasurementTable(columns: ["quality.sharpness"])
        table.append(id: "a.jpg", label: .bonaFide, split: .eval, status: .ok, values: [412.5])
        let sharpness = table.column(named: "quality.sharpness")!
        #expect(sharpness == [412.5] && table.count == 1)
    }

    /// ``DatasetFingerprint``: a table holds the same data as the samples it was measured on
    /// (ids, labels, species, splits), whatever it measured; another label is other data.
    @Test func datasetFingerprint() {
        var samples = [
            Sample(id: "a.jpg", path: "a.jpg", label: .bonaFide, split: .eval),
            Sample(id: "b.jpg", path: "b.jpg", label: .attack(species: "print"), split: .eval),
        ]
        var table = MeasurementTable(columns: ["quality.sharpness"])
        table.append(id: "a.jpg", label: .bonaFide, split: .eval, status: .ok, values: [1])
        table.append(id: "b.jpg", label: .attack(species: "print"), split: .eval, status: .ok, values: [2])
        let same = DatasetFingerprint.of(samples) == DatasetFingerprint.of(table)
        #expect(same)
        samples[1].label = .attack(species: "replay")
        #expect(DatasetFingerprint.of(samples) != DatasetFingerprint.of(table))
    }

    /// ``ProfileEvaluator``: sharpness >= 10 accepts the bona fide (20) and rejects the print
    /// attack (5): BPCER 0, APCER 0; `decisions.csv` gets its header and a row per sample, the
    /// rejection coded by the gate's output (the profile gives no code of its own).
    @Test func profileEvaluator() throws {
        var table = MeasurementTable(columns: ["quality.sharpness"])
        table.append(id: "a.jpg", label: .bonaFide, split: .eval, status: .ok, values: [20])
        table.append(id: "b.jpg", label: .attack(species: "print"), split: .eval, status: .ok, values: [5])
        let profiles = [
            try ProfileLoader().load(
                yaml: "name: sharp\nsource: test\ngates:\n  - {output: quality.sharpness, op: ge, value: 10}\n",
                file: "sharp.yaml")
        ]
        let path = Self.folder() + "/decisions.csv"
        let writer = try CSVWriter(path: path)
        let results = try ProfileEvaluator(table: table).evaluate(profiles, decisions: writer)
        try writer.close()
        let headline = try #require(results.first?.reported.headline)
        #expect(headline.bpcer.value == 0 && headline.apcerMax.value == 0)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(
            lines == [
                "id,profile,split,label,species,status,accepted,code,message", "a.jpg,sharp,eval,bonafide,,ok,1,,",
                "b.jpg,sharp,eval,attack,print,ok,0,quality.sharpness,",
            ])
    }

    /// ``CSVRecordStream``: records of an archive member streamed as it decompresses, a quoted
    /// line break kept inside its field.
    @Test func recordStream() throws {
        let run = Self.folder()
        let archiveWriter = try ResultArchiveWriter(finalPath: run + "/results.tar.zst")
        try archiveWriter.add(name: "samples.csv", contents: Array("id,note\na.jpg,\"two\nlines\"\nb.jpg,x\n".utf8))
        try archiveWriter.commit()
        let archive = try ResultArchiveReader(path: run + "/results.tar.zst")
        var rows: [[String]] = []
        var stream = CSVRecordStream(path: "run.tar.zst:samples.csv")
        try archive.streamEntry(named: "samples.csv") { chunk in try stream.feed(chunk) { rows.append($0.fields) } }
        try stream.finish { rows.append($0.fields) }
        #expect(rows == [["id", "note"], ["a.jpg", "two\nlines"], ["b.jpg", "x"]])
    }
}

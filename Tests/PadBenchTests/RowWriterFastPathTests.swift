import Foundation
import PadArchive
import PadVocabulary
import Testing

@testable import PadBench
@testable import PadEvaluation
import PadMetrics
@testable import PadProfiles
import TestSupport

/// The per-row writers of `eval` (`samples.csv`, `decisions.csv`) and the dataset fingerprints
/// work on bytes in place; each is checked against the plain String version it replaced, on rows
/// with every hostile part: ids needing quotes, non-ASCII and very long ids, species names with
/// commas and quotes, all four splits, failed samples (a message with a comma, a failure with
/// code `ok`), NaN, -0/+0, infinities, long and short numbers.
@Suite struct RowWriterFastPathTests {
    static let ids = [
        "a.jpg", "with,comma", "say \"hi\"", "line\nbreak", "cr\rid", "Zoë/数据.png", "",
        String(repeating: "long", count: 3000),
    ]
    static let species = ["print", "mask, \"3D\"", "réplay"]
    static let scores: [Double] = [0.5, -0.0, 0, .infinity, -.infinity, .nan, 1.845584192, 1.0 / 3, -2e-7, 1e300, 42]

    /// The same rows as a score table (ids an array of Strings) or appended (ids as bytes).
    /// With `timeouts`, more samples fail, with a second code and an empty message (the writers
    /// take the failed rows' statuses from the column, the ok rows from their code number).
    static func table(appended: Bool, timeouts: Bool = false) -> MeasurementTable {
        var table = MeasurementTable(columns: [EvalRunner.scoreOutput, "other"])
        let splits: [Split] = [.eval, .dev, .train, .none]
        for k in 0..<120 {
            let label: Label = k % 5 < 2 ? .bonaFide : .attack(species: species[k % 3])
            let score = scores[k % scores.count]
            let status: SampleStatus =
                k % 13 == 5
                ? .failed(code: .noScore, message: "no score, \"none\"")
                : k % 29 == 7 && timeouts ? .failed(code: .timeout, message: "") : .ok
            let id = ids[k % ids.count] + "\(k)"
            table.append(id: id, label: label, split: splits[k % 4], status: status, values: [score, Double(k % 7)])
        }
        if appended { return table }
        return MeasurementTable(
            columns: table.columns, ids: Array(table.ids), splits: table.splits, statuses: table.statuses,
            values: table.values, speciesIndex: table.speciesIndex, speciesNames: table.speciesNames)
    }

    static func file(_ write: (CSVWriter) throws -> Void) throws -> String {
        let path = TestFolder.root + "/padbench-rows-\(UUID().uuidString).csv"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try CSVWriter(path: path)
        try write(writer)
        try writer.close()
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    static func field(_ text: String) -> String {
        var bytes: [UInt8] = []
        CSVFormat.appendField(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `samples.csv` as the String-per-field writer made it.
    static func plainSamples(_ table: MeasurementTable) -> String {
        var text = "id,path,label,species,split,status,error,\(EvalRunner.scoreOutput),decode_ns\n"
        for i in 0..<table.count {
            let label = table.labels[i], status = table.statuses[i]
            text += field(table.ids[i]) + ",," + label.csvLabel + "," + (label.species.map(field) ?? "") + ","
            text += table.splits[i].rawValue + "," + status.field + "," + field(status.message) + ","
            text += CSVFormat.number(table.values[0][i]) + ",\n"
        }
        return text
    }

    /// `decisions.csv` rows of one profile as the String-per-field writer made them.
    static func plainDecisions(_ table: MeasurementTable, _ profile: Profile, notCalibrated: Bool) -> String {
        let evaluator = ProfileEvaluator(table: table)
        let compiled = profile.compiled(columns: evaluator.columnNames(for: profile))
        var text = "id,profile,split,label,species,status,accepted,code,message\n"
        for i in 0..<table.count {
            let label = table.labels[i], status = table.statuses[i]
            text += field(table.ids[i]) + "," + field(profile.name) + "," + table.splits[i].rawValue + ","
            text += label.csvLabel + "," + (label.species.map(field) ?? "") + ","
            if !status.isOK {
                text += field(status.field) + ",,,\n"
                continue
            }
            if notCalibrated {
                text += "ok,,NOT_CALIBRATED,the profile's calibration could not run\n"
                continue
            }
            let decision = compiled.decide { table.values[$0][i] }
            if decision.isAccepted {
                text += "ok,1,,\n"
            } else {
                let gate = profile.gates[decision.failedGate]
                text += "ok,0," + field(ProfileEvaluator.code(of: gate, decision: decision)) + ","
                text += field(gate.message) + "\n"
            }
        }
        return text
    }

    @Test func samplesRowsEqualThePlainWriter() throws {
        for (appended, timeouts) in [(false, false), (true, false), (false, true), (true, true)] {
            let table = Self.table(appended: appended, timeouts: timeouts)
            let written = try Self.file { try SamplesSchema.writeScores(table, to: $0) }
            #expect(written == Self.plainSamples(table), "appended: \(appended), timeouts: \(timeouts)")
        }
    }

    @Test func decisionRowsEqualThePlainWriter() throws {
        let profile = try ProfileLoader().load(
            yaml: """
                name: two-gates
                source: test
                gates:
                  - {output: scores.score, op: ge, value: 0.25, code: "LOW, score", message: "below \\"0.25\\""}
                  - {output: other, op: le, value: 4, code: HIGH, message: other too high}
                """, file: "two.yaml")
        for (appended, timeouts) in [(false, false), (true, false), (false, true), (true, true)] {
            let table = Self.table(appended: appended, timeouts: timeouts)
            let written = try Self.file { _ = try ProfileEvaluator(table: table).evaluate([profile], decisions: $0) }
            #expect(
                written == Self.plainDecisions(table, profile, notCalibrated: false),
                "appended: \(appended), timeouts: \(timeouts)")
        }
    }

    /// A calibrated profile on a table without its calibration split: every processed row says
    /// NOT_CALIBRATED.
    @Test func notCalibratedRowsEqualThePlainWriter() throws {
        let job = EvalRunner.ScoreJob(scoreFiles: ["x.csv"], criterion: .eer, outputFolder: "")
        let profile = try EvalRunner.scoreProfile(job, files: ["x.csv"])
        let full = Self.table(appended: true)
        var table = MeasurementTable(columns: full.columns)
        for i in 0..<full.count where full.splits[i] != .dev {
            table.append(
                id: full.ids[i], label: full.labels[i], split: full.splits[i], status: full.statuses[i],
                values: [full.values[0][i], full.values[1][i]])
        }
        let written = try Self.file { _ = try ProfileEvaluator(table: table).evaluate([profile], decisions: $0) }
        #expect(written == Self.plainDecisions(table, profile, notCalibrated: true))
        #expect(written.contains("NOT_CALIBRATED"))
    }

    @Test func fingerprintsEqualTheStringHashes() {
        for (appended, timeouts) in [(false, false), (true, false), (false, true), (true, true)] {
            let table = Self.table(appended: appended, timeouts: timeouts)
            var data: UInt64 = 0, outputs: UInt64 = 0
            for i in 0..<table.count {
                data &+= DatasetFingerprint.hash(id: table.ids[i], label: table.labels[i], split: table.splits[i])
                outputs &+= DatasetFingerprint.outputsHash(
                    id: table.ids[i], status: table.statuses[i], values: [table.values[0][i], table.values[1][i]])
            }
            #expect(DatasetFingerprint.of(table) == FNV1a.hex(data))
            #expect(DatasetFingerprint.outputs(table) == FNV1a.hex(outputs))
        }
        // A NaN with a payload hashes as the plain NaN.
        var table = MeasurementTable(columns: ["x"])
        table.append(id: "n", label: .bonaFide, split: .eval, status: .ok, values: [Double(nan: 7, signaling: false)])
        var plain = MeasurementTable(columns: ["x"])
        plain.append(id: "n", label: .bonaFide, split: .eval, status: .ok, values: [.nan])
        #expect(DatasetFingerprint.outputs(table) == DatasetFingerprint.outputs(plain))
    }

    /// Scoring and calibration test `.ok` by the status's code number: failures (of two codes)
    /// are counted as failed and calibrate as NaN, as the per-row statuses say.
    @Test func talliesAndCalibrationSetsFollowTheStatuses() throws {
        let job = EvalRunner.ScoreJob(scoreFiles: ["x.csv"], criterion: .eer, outputFolder: "")
        let profile = try EvalRunner.scoreProfile(job, files: ["x.csv"])
        for timeouts in [false, true] {
            let table = Self.table(appended: true, timeouts: timeouts)
            let result = try #require(try ProfileEvaluator(table: table).evaluate([profile]).first)
            let eval = (0..<table.count).filter { table.splits[$0] == .eval }
            #expect(result.reported.failedCount == eval.filter { !table.statuses[$0].isOK }.count)
            var dev = ScoreSet(speciesNames: table.speciesNames)
            for i in 0..<table.count where table.splits[i] == .dev {
                let value = table.values[0][i]
                if !table.statuses[i].isOK {
                    dev.append(score: .nan, speciesIndex: table.speciesIndex[i])
                } else if value.isNaN {
                    dev.appendRejectedAtEveryThreshold(speciesIndex: table.speciesIndex[i])
                } else {
                    dev.append(score: value, speciesIndex: table.speciesIndex[i])
                }
            }
            let expected = try ThresholdCriterion.eer.choose(on: ErrorCurve(dev)).threshold
            #expect(result.calibrations.first?.threshold.bitPattern == expected.bitPattern, "timeouts: \(timeouts)")
        }
        #expect(Self.table(appended: true, timeouts: true).statuses.failedCount == 13)
    }
}

import Foundation
import PadArchive
import PadMetrics
import PadProfiles
import PadText
import PadVocabulary
import Testing

@testable import PadEvaluation

/// `decisions.csv` is written on one core while the splits are scored on the other
/// (``ProfileEvaluator/scoredBesideDecisions(_:_:reportSplit:curves:notCalibrated:decisions:)``):
/// the file and the results must be those of the two steps run one after the other.
@Suite struct DecisionsBesideScoringTests {
    /// 30,000 rows: dev and eval, ties (scores rounded to 0.01), not assessable (NaN) values,
    /// failures to process, three species; fixed seed.
    static func table() -> MeasurementTable {
        var table = MeasurementTable(columns: ["pad.score", "quality.sharpness"])
        var state: UInt64 = 29
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        let species = ["print", "replay", "mask"]
        for k in 0..<30_000 {
            let label: Label = k % 4 == 0 ? .bonaFide : .attack(species: species[k % 3])
            let split: Split = k % 5 < 2 ? .dev : .eval
            let failed = k % 97 == 0
            let score = k % 53 == 0 ? Double.nan : ((next() + (label.isBonaFide ? 0.4 : 0)) * 100).rounded() / 100
            table.append(
                id: "s\(k),\"q\"", label: label, split: split,
                status: failed ? .failed(code: .decodeError, message: "bad") : .ok,
                values: failed ? [.nan, .nan] : [score, (next() * 20).rounded()])
        }
        return table
    }

    static func profile() throws -> Profile {
        try ProfileLoader().load(
            yaml: """
                name: pad
                source: test
                score: pad.score
                gates:
                  - {output: quality.sharpness, op: ge, value: 3, code: BLURRED, message: blurred}
                  - output: pad.score
                    calibrate: {target_apcer: 0.05, on: dev}
                    code: SPOOF
                    message: "attack, or so it says"
                """, file: "pad.yaml")
    }

    static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.path + "/padevaluation-\(UUID().uuidString).csv"
    }

    /// What a set's result says, as text (`SetResult` is not `Equatable`).
    static func summary(_ set: ProfileResult.SetResult?) -> String {
        guard let set else { return "none" }
        let headline = set.headline.map { h in
            "bpcer \(h.bpcer.value) apcer \(h.apcer.map(\.value)) max \(h.apcerMax.value)"
        }
        let metrics = set.scoreMetrics.map { m in
            "eer \(m.eer.value) at \(m.eer.threshold) auc \(m.auc) points \(m.curve.thresholds.count) "
                + "bpcer@apcer \(m.bpcerAtAPCER.map { "\($0.threshold) \($0.rate)" }) species \(m.speciesEER)"
        }
        let reasons = set.rejectReasons.map { "\($0.label)/\($0.species)/\($0.code)/\($0.count)" }
        return "\(set.split) \(set.bonaFideCount)+\(set.attackCount)+\(set.failedCount) \(headline ?? "-") "
            + "\(metrics ?? "-") \(reasons) \(set.headlineError ?? "") \(set.scoreError ?? "")"
    }

    /// The concurrent step gives the bytes and results of the sequential steps, on a calibrated
    /// profile whose threshold is chosen on dev (so both splits are scored) and on the same
    /// profile with the calibration failed (the decisions then carry the failure).
    @Test func concurrentDecisionsAndScoresEqualSequentialOnes() throws {
        let evaluator = ProfileEvaluator(table: Self.table())
        let profile = try Self.profile()
        let columns = evaluator.columnNames(for: profile)
        var notes: [ResultNote] = []
        let calibration = evaluator.calibrate(profile, columns: columns, reportSplit: .eval, notes: &notes)
        #expect(calibration.failure == nil && calibration.thresholds.count == 1)
        let compiled = profile.compiled(columns: columns, calibratedThresholds: calibration.thresholds)
        for notCalibrated in [nil, "no attacks on dev"] as [String?] {
            let sequentialPath = Self.temporaryPath(), concurrentPath = Self.temporaryPath()
            defer {
                try? FileManager.default.removeItem(atPath: sequentialPath)
                try? FileManager.default.removeItem(atPath: concurrentPath)
            }
            let sequentialWriter = try CSVWriter(path: sequentialPath)
            try evaluator.writeDecisions(profile, compiled, notCalibrated: notCalibrated, to: sequentialWriter)
            try sequentialWriter.close()
            let sequential = evaluator.scoredSplits(profile, compiled, reportSplit: .eval, curves: CurveCache())

            let concurrentWriter = try CSVWriter(path: concurrentPath)
            let concurrent = try evaluator.scoredBesideDecisions(
                profile, compiled, reportSplit: .eval, curves: CurveCache(), notCalibrated: notCalibrated,
                decisions: concurrentWriter)
            try concurrentWriter.close()

            let written = try Data(contentsOf: URL(fileURLWithPath: concurrentPath))
            #expect(written == (try Data(contentsOf: URL(fileURLWithPath: sequentialPath))))
            // One row per sample and a failed row ends in empty fields.
            let text = String(decoding: written, as: UTF8.self)
            #expect(text.split(separator: "\n").count == 30_000)
            #expect(text.hasPrefix("\"s0,\"\"q\"\"\",pad,dev,bonafide,,decode_error,,,\n"))
            #expect(Self.summary(concurrent.0) == Self.summary(sequential.0))
            #expect(Self.summary(concurrent.1) == Self.summary(sequential.1))
            #expect(concurrent.0.split == "eval" && concurrent.1?.split == "dev")
        }
    }

    /// Without a writer the scores are still computed (presentation tables decided without a
    /// `presentation_decisions.csv`, tests): the same results as with one.
    @Test func noWriterGivesTheSameScores() throws {
        let evaluator = ProfileEvaluator(table: Self.table())
        let profile = try Self.profile()
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try CSVWriter(path: path)
        let withFile = try evaluator.evaluate([profile], decisions: writer)[0]
        try writer.close()
        let without = try evaluator.evaluate([profile])[0]
        #expect(Self.summary(withFile.reported) == Self.summary(without.reported))
        #expect(Self.summary(withFile.calibrationSet) == Self.summary(without.calibrationSet))
        #expect(withFile.calibrations.map(\.threshold) == without.calibrations.map(\.threshold))
    }

    /// `decisions.csv` written in the background (on a ``BackgroundLane``: score files, where the
    /// run goes on to the presentations while the rows are written): the bytes and results of the
    /// writer given to `evaluate`, for two profiles one after the other (rows in profile order),
    /// one of them calibrated on dev.
    @Test func backgroundDecisionsEqualTheOnesWrittenBesideScoring() throws {
        let evaluator = ProfileEvaluator(table: Self.table())
        var fixed = try Self.profile()
        fixed.name = "fixed"
        fixed.gates[1].calibration = nil
        fixed.gates[1].threshold = 0.5
        let profiles = [try Self.profile(), fixed]
        let besidePath = Self.temporaryPath(), backgroundPath = Self.temporaryPath()
        defer {
            try? FileManager.default.removeItem(atPath: besidePath)
            try? FileManager.default.removeItem(atPath: backgroundPath)
        }
        let beside = try CSVWriter(path: besidePath)
        let besideResults = try evaluator.evaluate(profiles, decisions: beside)
        try beside.close()
        let background = BackgroundLane(try CSVWriter(path: backgroundPath))
        let backgroundResults = try evaluator.evaluate(profiles, decisions: background)
        background.enqueue { try $0.close() }
        try background.wait()
        try background.wait() // nothing enqueued since: returns at once
        let written = try Data(contentsOf: URL(fileURLWithPath: backgroundPath))
        #expect(written == (try Data(contentsOf: URL(fileURLWithPath: besidePath))))
        #expect(String(decoding: written, as: UTF8.self).split(separator: "\n").count == 60_001)
        for (a, b) in zip(backgroundResults, besideResults) {
            #expect(Self.summary(a.reported) == Self.summary(b.reported))
            #expect(Self.summary(a.calibrationSet) == Self.summary(b.calibrationSet))
        }
    }

    /// A write that fails (the disk full, here: the writer closed under it) stops the background
    /// rows and is thrown by `wait()`, not lost.
    @Test func aBackgroundWriteErrorIsThrownByWait() throws {
        let evaluator = ProfileEvaluator(table: Self.table())
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try CSVWriter(path: path)
        try writer.close()
        let background = BackgroundLane(writer)
        _ = try evaluator.evaluate([try Self.profile()], decisions: background)
        #expect(throws: (any Error).self) { try background.wait() }
    }
}

/// `decisions.csv` as written read back through ``DecisionsSchema``: the header is the schema's,
/// every row comes back typed, and the counts are the evaluator's own; a row no writer writes is
/// refused naming its line.
@Suite struct DecisionsSchemaTests {
    @Test func writtenDecisionsReadBackTyped() throws {
        let evaluator = ProfileEvaluator(table: DecisionsBesideScoringTests.table())
        let profile = try DecisionsBesideScoringTests.profile()
        let path = DecisionsBesideScoringTests.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try CSVWriter(path: path)
        let result = try evaluator.evaluate([profile], decisions: writer)[0]
        try writer.close()
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let header = String(decoding: bytes.prefix { $0 != 0x0A }, as: UTF8.self)
        #expect(header == DecisionsSchema.header.joined(separator: ","))
        var rows = 0, failed = 0, bonaFideRejected = 0
        try DecisionsSchema.forEachRow(bytes, path: path) { row in
            rows += 1
            if row.status != "ok" { failed += 1 }
            if row.split == "eval" && row.isBonaFide && row.accepted == false { bonaFideRejected += 1 }
            #expect(row.isBonaFide == row.species.isEmpty)
            #expect((row.accepted == nil) == (row.status != "ok"))
        }
        #expect(rows == 30_000)
        let headline = try #require(result.reported.headline)
        #expect(bonaFideRejected == headline.bpcer.errors)
        #expect(failed == 30_000 - (0..<evaluator.table.count).filter { evaluator.table.statuses[$0].isOK }.count)

        let edited = Array("\(DecisionsSchema.header.joined(separator: ","))\ns1,p,eval,bonafide,,ok,yes,,\n".utf8)
        let error = #expect(throws: EvaluationError.self) {
            try DecisionsSchema.forEachRow(edited, path: "d.csv") { _ in }
        }
        #expect(error?.description == "d.csv:2: accepted 'yes' (1, 0 or empty)")
        let noColumn = Array("id,profile\n".utf8)
        let missing = #expect(throws: EvaluationError.self) {
            try DecisionsSchema.forEachRow(noColumn, path: "d.csv") { _ in }
        }
        #expect(missing?.description == "d.csv: no 'split' column")
    }
}

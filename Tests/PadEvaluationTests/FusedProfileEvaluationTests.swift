import Foundation
import PadMetrics
import PadProfiles
import PadVocabulary
import Testing

@testable import PadEvaluation

/// A profile whose swept score is a fusion of two outputs, decided on a hand-made table with every
/// number worked out by hand. `mean` fusion (bob.fusion.base's mean of StandardScaler outputs)
/// trained on dev:
///   dev a.x = 2, 4, 0, 2: mean 2, population variance (0 + 4 + 4 + 0) / 4 = 2, scale sqrt 2;
///   dev b.y = 10, 30, 20, 20: mean 20, variance (100 + 100 + 0 + 0) / 4 = 50, scale 5 sqrt 2;
///   fused = ((a - 2) / sqrt 2 + (b - 20) / (5 sqrt 2)) / 2.
/// On eval: the bona fide (4, 30) fuses to (sqrt 2 + sqrt 2) / 2 = sqrt 2, the attack (0, 10) to
/// -sqrt 2, the bona fide with b NaN to NaN (not assessable: rejected), the failed sample fails.
@Suite struct FusedProfileEvaluationTests {
    static func table(splits: [Split] = [.dev, .dev, .dev, .dev, .eval, .eval, .eval, .eval]) -> MeasurementTable {
        var table = MeasurementTable(columns: ["a.x", "b.y"])
        let failed = SampleStatus.failed(code: .decodeError, message: "bad")
        let rows: [(String, Label, SampleStatus, [Double])] = [
            ("d0", .bonaFide, .ok, [2, 10]), ("d1", .bonaFide, .ok, [4, 30]),
            ("d2", .attack(species: "print"), .ok, [0, 20]), ("d3", .attack(species: "print"), .ok, [2, 20]),
            ("e0", .bonaFide, .ok, [4, 30]), ("e1", .attack(species: "print"), .ok, [0, 10]),
            ("e2", .bonaFide, .ok, [3, .nan]), ("e3", .attack(species: "print"), failed, [.nan, .nan]),
        ]
        for ((id, label, status, values), split) in zip(rows, splits) {
            table.append(id: id, label: label, split: split, status: status, values: values)
        }
        return table
    }

    static func profile(_ fusion: String = "mean") throws -> Profile {
        try ProfileLoader().load(
            yaml: """
                name: f
                source: test
                score: {name: fused.xy, fusion: \(fusion), outputs: [a.x, b.y]}
                gates:
                  - {output: fused.xy, op: ge, value: 0, code: SPOOF}
                """, file: "f.yaml")
    }

    @Test func meanFusionTrainedOnDevDecidesEval() throws {
        let result = try ProfileEvaluator(table: Self.table()).evaluate([Self.profile()])[0]
        let trained = try #require(result.fusion?.trained)
        #expect(result.fusion?.split == "dev" && result.fusion?.failure == nil)
        #expect(trained.normalisations.map(\.mean) == [2, 20])
        #expect(trained.normalisations.map(\.variance) == [2, 50])
        #expect(trained.weights == [0.5, 0.5] && trained.intercept == 0)
        #expect((trained.trainingBonaFide, trained.trainingAttacks, trained.trainingFailed) == (2, 2, 0))
        let decisions = try #require(result.decisions)
        #expect((4..<8).map { decisions.accepted($0) } == [true, false, false, nil])
        let headline = try #require(result.reported.headline)
        #expect(headline.bpcer.errors == 1 && headline.bpcer.total == 2)
        #expect(headline.apcerMax.errors == 0 && headline.apcerMax.total == 1)
        #expect(result.reported.scoreMetrics?.score == "fused.xy")
        #expect(result.notes.first.map { if case .fusion = $0 { true } else { false } } == true)
        // The bootstrap input derives the fused score again with the run's weights.
        let input = try #require(SubjectBootstrap.Input(result, table: Self.table()))
        #expect(input.rows == [4, 5, 6])
        #expect(abs(input.scores![0] - 2.0.squareRoot()) < 1e-15 && abs(input.scores![1] + 2.0.squareRoot()) < 1e-15)
        #expect(input.scores![2].isNaN)
    }

    /// The measurements stay measurements: the table the caller holds has no fused column.
    @Test func theRunsTableIsNotChanged() throws {
        let evaluator = ProfileEvaluator(table: Self.table())
        _ = try evaluator.evaluate([Self.profile()])
        #expect(evaluator.table.columns == ["a.x", "b.y"])
    }

    /// A dataset without the training split has no fusion and no rates (as an uncalibrated gate);
    /// a score file without it trains on the reported set and says its rates are optimistic.
    @Test func withoutTheTrainingSplit() throws {
        let allEval = Self.table(splits: Array(repeating: .eval, count: 8))
        let dataset = try ProfileEvaluator(table: allEval).evaluate([Self.profile()])[0]
        #expect(dataset.fusion?.trained == nil)
        #expect(dataset.reported.headline == nil)
        #expect(dataset.reported.headlineError == "not fused: no dev samples to train it on")
        let scores = try ProfileEvaluator(table: allEval, choosesOnReportedSetWithoutCalibrationSplit: true)
            .evaluate([Self.profile()])[0]
        // Bona fide d0, d1, e0 (e2 has a NaN output: left out), attacks d2, d3, e1 (e3 failed).
        #expect(scores.fusion?.split == "eval" && scores.fusion?.trained?.trainingBonaFide == 3)
        #expect(scores.fusion?.trained?.trainingAttacks == 3 && scores.fusion?.trained?.trainingFailed == 1)
        #expect(scores.notes.contains(.check(.fusedOnReportedSet(score: "fused.xy", split: "eval"))))
        #expect(scores.reported.headline != nil)
    }

    /// b.y >= 15, and a mean fusion of a.x with c.z, an output no table here has, >= 0.
    static func unmeasuredFusion() throws -> Profile {
        try ProfileLoader().load(
            yaml: """
                name: f
                source: test
                score: {name: fused.xz, fusion: mean, outputs: [a.x, c.z]}
                gates:
                  - {output: b.y, op: ge, value: 15, code: LOW}
                  - {output: fused.xz, op: ge, value: 0}
                """, file: "f.yaml")
    }

    /// A fused output the run did not measure leaves the fused score unmeasured: its gate is left
    /// out and listed like a gate on any output the run lacks, and the other gates still decide.
    @Test func anUnmeasuredFusedOutputLeavesTheFusedGateOut() throws {
        let profile = try Self.unmeasuredFusion()
        let result = try ProfileEvaluator(table: Self.table()).evaluate([profile])[0]
        #expect(result.gatesLeftOut == ["fused.xz"])
        #expect(result.fusion?.failure == "fused output c.z was not measured in this run")
        #expect(result.reported.scoreMetrics == nil)
        // b.y >= 15 alone on eval: bona fide 30 accepted and NaN rejected, attack 10 rejected.
        let headline = try #require(result.reported.headline)
        #expect(headline.bpcer.errors == 1 && headline.bpcer.total == 2 && headline.apcerMax.errors == 0)
        #expect(profile.leftOutGates(measured: ["a.x", "b.y"]) == [1])
    }

    /// Logistic fusion on one class cannot train: said, not crashed.
    @Test func oneClassOnDevIsReported() throws {
        var table = MeasurementTable(columns: ["a.x", "b.y"])
        table.append(id: "d0", label: .bonaFide, split: .dev, status: .ok, values: [1, 2])
        table.append(id: "d1", label: .bonaFide, split: .dev, status: .ok, values: [2, 1])
        table.append(id: "e0", label: .bonaFide, split: .eval, status: .ok, values: [1, 1])
        let result = try ProfileEvaluator(table: table).evaluate([Self.profile("logistic")])[0]
        #expect(
            result.reported.headlineError
                == "not fused: no attack training sample: logistic fusion needs both classes on dev")
    }

    /// Per presentation, the fused column is aggregated like a measured score: the mean of the
    /// frames' fused scores, with the weights trained on frames.
    @Test func presentationsAggregateTheFramesFusedScores() throws {
        // e0 and e2 become two frames of one bona fide presentation `v`, every other row its own.
        var table = MeasurementTable(columns: ["a.x", "b.y"])
        let source = Self.table()
        for i in 0..<source.count {
            let label: Label = source.speciesIndex[i] < 0 ? .bonaFide : .attack(species: "print")
            table.append(
                id: source.ids[i], label: label, split: source.splits[i], status: source.statuses[i],
                values: [source.values[0][i], source.values[1][i]])
            table.setLastPresentation(i == 4 || i == 6 ? "v" : source.ids[i], frameIndex: nil)
        }
        // e2's b.y is NaN: give it a value so both frames are assessable: (3, 25) fuses to
        // (1 / sqrt 2 + 5 / (5 sqrt 2)) / 2 = 1 / sqrt 2; the presentation's mean is (sqrt 2 + 1 / sqrt 2) / 2.
        var values = table.values
        values[1][6] = 25
        table = MeasurementTable(
            columns: table.columns, ids: (0..<table.count).map { table.ids[$0] }, splits: table.splits,
            statuses: table.statuses, values: values, speciesIndex: table.speciesIndex,
            speciesNames: table.speciesNames,
            presentations: table.presentations)
        let frames = try ProfileEvaluator(table: table).evaluate([Self.profile()])
        let level = try PresentationLevel.evaluate(table, frameResults: frames, aggregate: .mean)
        let presentations = level.tables[0]
        let fused = try #require(presentations.column(named: "fused.xy"))
        let v = try #require((0..<presentations.count).first { presentations.ids[$0] == "v" })
        let expected = (2.0.squareRoot() + 1 / 2.0.squareRoot()) / 2
        #expect(abs(fused[v] - expected) < 1e-15)
        #expect(level.results[0].fusion == frames[0].fusion)
    }

    /// Presentations of a run that lacks a fused output say so once, as the frames do.
    @Test func presentationsOfAnUnmeasuredFusionCarryOneNote() throws {
        var table = MeasurementTable(columns: ["a.x", "b.y"])
        for (i, id) in ["v#0", "v#1", "w#0"].enumerated() {
            table.append(
                id: id, label: i < 2 ? .bonaFide : .attack(species: "print"), split: .dev, status: .ok,
                values: [Double(i), 20])
            table.setLastPresentation(String(id.prefix(1)), frameIndex: nil)
        }
        let profile = try Self.unmeasuredFusion()
        let frames = try ProfileEvaluator(table: table).evaluate([profile])
        let level = try PresentationLevel.evaluate(table, frameResults: frames, aggregate: .mean)
        let notes = level.results[0].notes.filter { if case .fusion = $0 { true } else { false } }
        #expect(notes.count == 1 && level.results[0].fusion?.failure == "fused output c.z was not measured in this run")
        #expect(level.results[0].gatesLeftOut == ["fused.xz"])
    }
}

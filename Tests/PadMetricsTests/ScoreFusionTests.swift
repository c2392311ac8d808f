import Foundation
import Testing
@testable import PadMetrics

/// ``TrainedFusion`` against scikit-learn 1.9.1 (`StandardScaler`, `LogisticRegression(C=1e6,
/// solver="lbfgs", tol=1e-12, max_iter=10000)`) and bob.fusion.base's mean rule, on
/// Fixtures/golden/fusion_dev_eval.csv (three correlated outputs, dev 62 and eval 62 samples, one
/// NaN in each split; make_golden_roc_fusion.py), and by hand.
@Suite struct ScoreFusionTests {
    static let names = ["out_a", "out_b", "out_c"]

    static func reference() throws -> [String: Any] { try RocFusionFixtures.json("fusion_dev_eval") as! [String: Any] }

    static func numbers(_ value: Any?) -> [Double] { (value as! [Any]).map(RocFusionFixtures.number) }

    static func expectClose(_ mine: [Double], _ theirs: [Double], _ what: String, tolerance: Double = 1e-12) {
        #expect(mine.count == theirs.count, "\(what): count")
        for (i, (a, b)) in zip(mine, theirs).enumerated() {
            #expect(RocFusionFixtures.close(a, b, tolerance * max(1, abs(b))), "\(what) [\(i)]: \(a) vs \(b)")
        }
    }

    /// Mean, variance and scale per output: StandardScaler fitted on dev without the NaN sample.
    @Test func normalisationEqualsStandardScaler() throws {
        let (dev, _) = try RocFusionFixtures.fusionSplits()
        let expected = try Self.reference()
        let scaler = expected["scaler"] as! [String: Any]
        let fusion = try TrainedFusion.train(
            .mean, outputNames: Self.names, outputs: dev.outputs, isBonaFide: dev.isBonaFide)
        Self.expectClose(fusion.normalisations.map(\.mean), Self.numbers(scaler["mean"]), "mean")
        Self.expectClose(fusion.normalisations.map(\.variance), Self.numbers(scaler["var"]), "variance")
        Self.expectClose(fusion.normalisations.map(\.scale), Self.numbers(scaler["scale"]), "scale")
        #expect(fusion.trainingFailed == 1)
        #expect(fusion.trainingBonaFide + fusion.trainingAttacks == expected["n_train"] as! Int)
    }

    /// bob.fusion.base's mean: numpy.mean of the StandardScaler outputs, on dev and eval (NaN for
    /// the sample with a NaN output).
    @Test func meanFusionEqualsBobFusionMean() throws {
        let (dev, eval) = try RocFusionFixtures.fusionSplits()
        let expected = try Self.reference()["mean"] as! [String: Any]
        let fusion = try TrainedFusion.train(
            .mean, outputNames: Self.names, outputs: dev.outputs, isBonaFide: dev.isBonaFide)
        #expect(fusion.weights == [1.0 / 3, 1.0 / 3, 1.0 / 3] && fusion.intercept == 0)
        Self.expectClose(fusion.fusedScores(dev.outputs), Self.numbers(expected["dev"]), "mean dev")
        Self.expectClose(fusion.fusedScores(eval.outputs), Self.numbers(expected["eval"]), "mean eval")
        #expect(fusion.probability(eval.outputs.map { $0[0] }).isNaN)
    }

    /// Weights and intercept of Newton's method against lbfgs to 1e-6 relative, and against
    /// scikit-learn's newton-cholesky solver on the same objective to 1e-9 relative.
    @Test func logisticWeightsEqualScikitLearn() throws {
        let (dev, _) = try RocFusionFixtures.fusionSplits()
        let expected = try Self.reference()["logistic"] as! [String: Any]
        let fusion = try TrainedFusion.train(
            .logistic, outputNames: Self.names, outputs: dev.outputs, isBonaFide: dev.isBonaFide)
        #expect(fusion.inverseRegularisation == 1e6)
        let lbfgs = Self.numbers(expected["coef"]) + [expected["intercept"] as! Double]
        let newton = Self.numbers(expected["coef_newton_cholesky"]) + [expected["intercept_newton_cholesky"] as! Double]
        for (mine, (a, b)) in zip(fusion.weights + [fusion.intercept], zip(lbfgs, newton)) {
            #expect(RocFusionFixtures.relativelyClose(mine, a, 1e-6), "\(mine) vs lbfgs \(a)")
            #expect(RocFusionFixtures.relativelyClose(mine, b, 1e-9), "\(mine) vs newton-cholesky \(b)")
        }
    }

    /// The fused score is `decision_function` and the probability `predict_proba[:, 1]`: with
    /// scikit-learn's own weights, to 1e-12 on dev and eval; with the trained weights, to the
    /// 1e-6 the weights agree to.
    @Test func logisticScoresEqualDecisionFunctionAndPredictProba() throws {
        let (dev, eval) = try RocFusionFixtures.fusionSplits()
        let expected = try Self.reference()["logistic"] as! [String: Any]
        let trained = try TrainedFusion.train(
            .logistic, outputNames: Self.names, outputs: dev.outputs, isBonaFide: dev.isBonaFide)
        let scikit = TrainedFusion(
            method: .logistic, outputNames: Self.names, normalisations: trained.normalisations,
            weights: Self.numbers(expected["coef"]), intercept: expected["intercept"] as! Double,
            inverseRegularisation: 1e6, trainingBonaFide: trained.trainingBonaFide,
            trainingAttacks: trained.trainingAttacks, trainingFailed: trained.trainingFailed)
        let decisions = expected["decision_function"] as! [String: Any]
        let probabilities = expected["predict_proba"] as! [String: Any]
        for (split, data) in [("dev", dev), ("eval", eval)] {
            let samples = data.isBonaFide.indices.map { i in data.outputs.map { $0[i] } }
            let decision = Self.numbers(decisions[split]), probability = Self.numbers(probabilities[split])
            Self.expectClose(scikit.fusedScores(data.outputs), decision, "decision_function \(split)")
            Self.expectClose(samples.map(scikit.probability), probability, "predict_proba \(split)")
            Self.expectClose(trained.fusedScores(data.outputs), decision, "trained \(split)", tolerance: 1e-6)
            Self.expectClose(samples.map(trained.probability), probability, "trained \(split)", tolerance: 1e-6)
        }
    }

    /// Two outputs on dev, values 1, 3 and 10, 30: means 2 and 20, population variances 1 and
    /// 100, scales 1 and 10. The sample (3, 10) normalises to (1, -1): mean fusion 0.
    /// Logistic, one output at -1 and +1 with three bona fide and one attack at each value (mean
    /// 0, variance 1, so z = x): the labels do not depend on z, so w = 0 by symmetry, and the
    /// unpenalised intercept solves sum (p - t) = 0, p = 6/8 = 3/4, b = ln(3/4 / (1/4)) = ln 3.
    @Test func smallCasesByHand() throws {
        let mean = try TrainedFusion.train(
            .mean, outputNames: ["a", "b"], outputs: [[1, 3], [10, 30]], isBonaFide: [true, false])
        #expect(
            mean.normalisations == [.init(mean: 2, variance: 1, scale: 1), .init(mean: 20, variance: 100, scale: 10)])
        #expect(mean.fusedScore([3, 10]) == 0)
        let x: [Double] = [-1, 1, -1, 1, -1, 1, -1, 1]
        let labels = [true, true, true, true, true, true, false, false]
        let logistic = try TrainedFusion.train(.logistic, outputNames: ["a"], outputs: [x], isBonaFide: labels)
        #expect(abs(logistic.weights[0]) < 1e-12)
        #expect(abs(logistic.intercept - log(3.0)) < 1e-12)
        #expect(abs(logistic.probability([5]) - 0.75) < 1e-12)
    }

    /// A constant output keeps scale 1 (StandardScaler), so it is centred and not divided by 0.
    @Test func constantOutputHasScaleOne() throws {
        let fusion = try TrainedFusion.train(
            .mean, outputNames: ["a", "b"], outputs: [[0.5, 0.5, 0.5], [1, 2, 3]], isBonaFide: [true, false, true])
        #expect(fusion.normalisations[0] == ZNormalisation(mean: 0.5, variance: 0, scale: 1))
    }

    /// What a manifest records comes back identical from JSON.
    @Test func trainedFusionRoundTripsThroughJSON() throws {
        let (dev, _) = try RocFusionFixtures.fusionSplits()
        let fusion = try TrainedFusion.train(
            .logistic, outputNames: Self.names, outputs: dev.outputs, isBonaFide: dev.isBonaFide)
        let decoded = try JSONDecoder().decode(TrainedFusion.self, from: try JSONEncoder().encode(fusion))
        #expect(decoded == fusion)
    }

    @Test func trainingNeedsBothClassesAndMatchingShapes() {
        #expect(throws: FusionError.noAttacks) {
            _ = try TrainedFusion.train(
                .logistic, outputNames: ["a"], outputs: [[0.1, 0.2]], isBonaFide: [true, true])
        }
        #expect(throws: FusionError.self) {
            _ = try TrainedFusion.train(.mean, outputNames: ["a", "b"], outputs: [[0.1]], isBonaFide: [true])
        }
        #expect(throws: FusionError.noSamples) {
            _ = try TrainedFusion.train(.mean, outputNames: ["a"], outputs: [[.nan]], isBonaFide: [true])
        }
    }
}

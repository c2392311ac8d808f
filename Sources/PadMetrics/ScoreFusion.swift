import Foundation
import PadVocabulary

/// z-normalisation of one output with its dev statistics, as scikit-learn's `StandardScaler`
/// (the preprocessor of bob.fusion.base's algorithms) fits and applies it: z = (x - mean) / scale.
package struct ZNormalisation: Sendable, Equatable, Codable {
    /// Mean over the training samples.
    package let mean: Double
    /// Population variance (divisor n), by StandardScaler's corrected two-pass rule.
    package let variance: Double
    /// sqrt(variance), or 1 when the output is constant on the training samples (StandardScaler's
    /// `_is_constant_feature`: variance <= n eps variance + (n mean eps)^2), so a constant output
    /// is centred and never divided by ~0.
    package let scale: Double

    package init(mean: Double, variance: Double, scale: Double) {
        self.mean = mean
        self.variance = variance
        self.scale = scale
    }

    /// Fitted on `values` (no NaN among them) as StandardScaler's `_incremental_mean_and_var`
    /// does on a first fit: mean = sum / n; with d = x - mean, variance = (sum d^2 - (sum d)^2 / n) / n
    /// (Chan, Golub and LeVeque's correction of the two-pass algorithm), sums taken in sample
    /// order as NumPy reduces a column.
    package init(fitting values: [Double]) {
        let n = Double(values.count)
        let mean = values.reduce(0, +) / n
        var sum = 0.0, squares = 0.0
        for x in values {
            let d = x - mean
            sum += d
            squares += d * d
        }
        let variance = (squares - sum * sum / n) / n
        let constant = variance <= n * .ulpOfOne * variance + (n * mean * .ulpOfOne) * (n * mean * .ulpOfOne)
        self.init(mean: mean, variance: variance, scale: constant ? 1 : variance.squareRoot())
    }

    package func normalised(_ x: Double) -> Double { (x - mean) / scale }
}

/// Why a fusion cannot be trained.
package enum FusionError: Error, Sendable, Equatable, CustomStringConvertible {
    case noOutputs
    /// Output names and output arrays differ in number, or an output has a different number of
    /// samples than the labels.
    case shapeMismatch(String)
    /// No training sample has every output (all have a NaN somewhere).
    case noSamples
    case noBonaFide
    case noAttacks
    /// An infinite training value: mean and variance would be infinite or NaN.
    case infiniteOutput(String)
    case notConverged(iterations: Int)

    package var description: String {
        switch self {
        case .noOutputs: return "a fusion needs at least one output"
        case .shapeMismatch(let text): return text
        case .noSamples: return "no training sample has a value for every output"
        case .noBonaFide: return "no bona fide training sample: logistic fusion needs both classes"
        case .noAttacks: return "no attack training sample: logistic fusion needs both classes"
        case .infiniteOutput(let name): return "output \(name) has an infinite value on the training samples"
        case .notConverged(let iterations):
            return "logistic fusion: Newton's method did not converge in \(iterations) iterations"
        }
    }
}

/// A fusion trained on dev: what a manifest records to fuse any split the same way later.
///
/// ```swift
/// let fusion = try TrainedFusion.train(
///     .logistic, outputNames: ["cnn", "texture"], outputs: [devCNN, devTexture], isBonaFide: devLabels)
/// let fused = fusion.fusedScores([evalCNN, evalTexture])  // higher = more bona fide
/// let data = try JSONEncoder().encode(fusion)
/// ```
/// Outputs are passed one array per output (each the value of that output for every sample, in
/// the same sample order). The fused score of a sample with outputs x_j is the linear predictor
///
///     s = intercept + sum_j weights[j] * (x_j - mean_j) / scale_j
///
/// with the z-normalisation of each output fitted on the training (dev) samples, both classes
/// together (bob.fusion.base fits its preprocessors on its training scores). For ``FusionMethod/mean``
/// the weights are 1/k for k outputs and the intercept 0 (NumPy's mean divides the sum by k
/// instead: the two agree to rounding). For ``FusionMethod/logistic`` they are the optimum of
///
///     f(w, b) = 1/2 ||w||^2 + C * sum_i log(1 + exp(-y_i (w . z_i + b))),  y_i = +1 bona fide, -1 attack,
///
/// scikit-learn's objective for `LogisticRegression(C=C)` with `solver="lbfgs"` (L2 penalty on
/// the weights, none on the intercept). The fused score is then the log-odds of bona fide, what
/// scikit-learn's `decision_function` returns and bob.fusion.base's `fuse` writes; higher = more
/// bona fide, like every padbench score. ``probability(_:)`` is `predict_proba[:, 1]`.
///
/// Samples with a NaN output (failures to process) are left out of training, as bob.fusion.base's
/// fuse script removes them, and counted in ``trainingFailed``; their fused score is NaN, so
/// ``ScoreSet`` counts them as failures again.
package struct TrainedFusion: Sendable, Equatable, Codable {
    package let method: FusionMethod
    /// The fused outputs, in the order of ``normalisations`` and ``weights``.
    package let outputNames: [String]
    package let normalisations: [ZNormalisation]
    /// Weight of each normalised output in the linear predictor.
    package let weights: [Double]
    package let intercept: Double
    /// C of the logistic regression (inverse of the L2 regularisation strength); nil for mean.
    package let inverseRegularisation: Double?
    /// Training samples used, by class.
    package let trainingBonaFide: Int
    package let trainingAttacks: Int
    /// Training samples left out for a NaN output.
    package let trainingFailed: Int

    package init(
        method: FusionMethod, outputNames: [String], normalisations: [ZNormalisation], weights: [Double],
        intercept: Double, inverseRegularisation: Double?, trainingBonaFide: Int, trainingAttacks: Int,
        trainingFailed: Int
    ) {
        self.method = method
        self.outputNames = outputNames
        self.normalisations = normalisations
        self.weights = weights
        self.intercept = intercept
        self.inverseRegularisation = inverseRegularisation
        self.trainingBonaFide = trainingBonaFide
        self.trainingAttacks = trainingAttacks
        self.trainingFailed = trainingFailed
    }

    /// Trains a fusion on dev: `outputs[j][i]` is output j of sample i, `isBonaFide[i]` its label.
    /// `inverseRegularisation` is C of the logistic regression (ignored by mean); 1e6 makes the
    /// penalty negligible next to the log-loss of tens of samples while keeping the optimum finite
    /// and unique when dev is linearly separable (scikit-learn's own default is C = 1).
    /// - Throws: ``FusionError``.
    package static func train(
        _ method: FusionMethod, outputNames: [String], outputs: [[Double]], isBonaFide: [Bool],
        inverseRegularisation: Double = 1e6
    ) throws(FusionError) -> TrainedFusion {
        guard !outputs.isEmpty else { throw .noOutputs }
        guard outputNames.count == outputs.count else {
            throw .shapeMismatch("\(outputNames.count) output names for \(outputs.count) outputs")
        }
        for (name, values) in zip(outputNames, outputs) where values.count != isBonaFide.count {
            throw .shapeMismatch("output \(name) has \(values.count) values for \(isBonaFide.count) samples")
        }
        let complete = isBonaFide.indices.filter { i in outputs.allSatisfy { !$0[i].isNaN } }
        guard !complete.isEmpty else { throw .noSamples }
        let columns = outputs.map { values in complete.map { values[$0] } }
        for (name, values) in zip(outputNames, columns) where values.contains(where: \.isInfinite) {
            throw .infiniteOutput(name)
        }
        let labels = complete.map { isBonaFide[$0] }
        let bonaFide = labels.filter { $0 }.count
        let normalisations = columns.map(ZNormalisation.init(fitting:))
        let k = outputs.count
        switch method {
        case .mean:
            return TrainedFusion(
                method: .mean, outputNames: outputNames, normalisations: normalisations,
                weights: Array(repeating: 1 / Double(k), count: k), intercept: 0, inverseRegularisation: nil,
                trainingBonaFide: bonaFide, trainingAttacks: labels.count - bonaFide,
                trainingFailed: isBonaFide.count - complete.count)
        case .logistic:
            guard bonaFide > 0 else { throw .noBonaFide }
            guard bonaFide < labels.count else { throw .noAttacks }
            let normalised = zip(columns, normalisations).map { values, z in values.map(z.normalised) }
            let (weights, intercept) = try LogisticRegressionNewton.fit(
                columns: normalised, labels: labels, inverseRegularisation: inverseRegularisation)
            return TrainedFusion(
                method: .logistic, outputNames: outputNames, normalisations: normalisations, weights: weights,
                intercept: intercept, inverseRegularisation: inverseRegularisation, trainingBonaFide: bonaFide,
                trainingAttacks: labels.count - bonaFide, trainingFailed: isBonaFide.count - complete.count)
        }
    }

    /// The fused score of one sample (its outputs in ``outputNames`` order): the linear predictor.
    /// NaN when an output is NaN.
    package func fusedScore(_ sample: [Double]) -> Double {
        precondition(sample.count == weights.count, "one value per fused output")
        var score = intercept
        for j in weights.indices { score += weights[j] * normalisations[j].normalised(sample[j]) }
        return score
    }

    /// Fused scores of many samples, outputs passed one array per output as in ``train(_:outputNames:outputs:isBonaFide:inverseRegularisation:)``.
    package func fusedScores(_ outputs: [[Double]]) -> [Double] {
        precondition(outputs.count == weights.count, "one array per fused output")
        let count = outputs.first?.count ?? 0
        precondition(outputs.allSatisfy { $0.count == count }, "every output has a value per sample")
        return (0..<count).map { i in fusedScore(outputs.map { $0[i] }) }
    }

    /// P(bona fide | outputs) of a logistic fusion: 1 / (1 + exp(-s)) of the fused score s
    /// (scikit-learn's `predict_proba(X)[:, 1]`, `expit` of `decision_function`). NaN for a mean
    /// fusion, whose score is no log-odds.
    package func probability(_ sample: [Double]) -> Double {
        method == .logistic ? LogisticRegressionNewton.logistic(fusedScore(sample)) : .nan
    }
}

/// Newton's method (iteratively reweighted least squares) for L2-regularised logistic regression
/// with an unpenalised intercept, on scikit-learn's objective:
///
///     f(theta) = 1/2 ||w||^2 + C sum_i l_i,  l_i = log(1 + exp(-y_i (w . z_i + b))),  theta = (w, b)
///     gradient: g = (w + C Z^T (p - t), C sum_i (p_i - t_i)),  p_i = 1 / (1 + exp(-(w . z_i + b))), t_i in {0, 1}
///     Hessian:  H = diag(1, ..., 1, 0) + C Zt^T diag(p_i (1 - p_i)) Zt,  Zt = [Z 1]
///
/// H is positive definite: v^T H v = ||v_w||^2 + C sum_i p_i (1 - p_i) (v_w . z_i + v_b)^2 > 0
/// for v != 0 (the first term unless v_w = 0, then the second since v_b != 0 and 0 < p_i < 1).
/// So f is strictly convex; with both classes present it grows without bound along every
/// direction (the penalty in w, the log-loss of both classes in b), so it has exactly one
/// minimiser, which scikit-learn's lbfgs (minimising f / (C n), the same minimiser) and this
/// method both approach; they differ only in where they stop.
///
/// It starts at theta = 0. Each step solves H d = -g by Cholesky and halves the step until f
/// decreases by at least 1e-4 of the predicted decrease -g . d (Armijo backtracking). Once that
/// predicted decrease is below 1e-10 max(1, |f|), close to the optimum where f's own rounding
/// cannot judge a step, the full step is taken (the region of quadratic convergence). It stops by
/// taking a step with every |d_j| <= 1e-10 max(1, max_j |theta_j|) (or a zero gradient): the error
/// left after it is of the order of its square, below the rounding of theta. More than 100
/// iterations, a step that halves below 1e-10 or a non-finite step throw
/// ``FusionError/notConverged(iterations:)``.
enum LogisticRegressionNewton {
    static let maximumIterations = 100

    /// `columns[j][i]`: feature j of sample i; `labels[i]`: sample i is of the positive class.
    static func fit(columns: [[Double]], labels: [Bool], inverseRegularisation c: Double) throws(FusionError) -> (
        weights: [Double], intercept: Double
    ) {
        let d = columns.count, n = labels.count, width = d + 1
        // One flat row-major matrix with a trailing 1 per row for the intercept: an array per row
        // would cost a heap block each (a million dev samples, tens of megabytes more).
        var flat = [Double](repeating: 1, count: n * width)
        for j in 0..<d {
            for i in 0..<n { flat[i * width + j] = columns[j][i] }
        }
        let rows = flat
        func row(_ i: Int) -> ArraySlice<Double> { rows[(i * width)..<((i + 1) * width)] }
        let targets = labels.map { $0 ? 1.0 : 0.0 }
        func objective(_ theta: [Double]) -> Double {
            var loss = 0.0
            for i in 0..<n {
                let z = dot(row(i), theta)
                loss += softplus(labels[i] ? -z : z)
            }
            return 0.5 * (0..<d).reduce(0) { $0 + theta[$1] * theta[$1] } + c * loss
        }
        var theta = [Double](repeating: 0, count: d + 1)
        var value = objective(theta)
        for _ in 0..<maximumIterations {
            var gradient = theta
            gradient[d] = 0
            var hessian = [[Double]](repeating: [Double](repeating: 0, count: d + 1), count: d + 1)
            for j in 0..<d { hessian[j][j] = 1 }
            for i in 0..<n {
                let x = row(i), base = x.startIndex
                let p = logistic(dot(x, theta))
                let residual = c * (p - targets[i]), weight = c * p * (1 - p)
                for j in 0...d {
                    gradient[j] += residual * x[base + j]
                    for l in 0...j { hessian[j][l] += weight * x[base + j] * x[base + l] }
                }
            }
            let step = solveCholesky(hessian, gradient.map { -$0 })
            let decrease = -dot(gradient, step)
            let largest = max(1, theta.map(abs).max()!)
            guard decrease.isFinite else { throw .notConverged(iterations: maximumIterations) }
            if decrease == 0 || step.allSatisfy({ abs($0) <= 1e-10 * largest }) {
                let last = zip(theta, step).map(+)
                return (Array(last[0..<d]), last[d])
            }
            // Close to the optimum the predicted decrease is below the rounding of f itself, so f
            // cannot judge the step: the full Newton step is taken there (quadratic convergence).
            var length = 1.0
            if decrease > 1e-10 * max(1, abs(value)) {
                while objective(zip(theta, step).map { $0 + length * $1 }) > value - 1e-4 * length * decrease {
                    length /= 2
                    if length < 1e-10 { throw .notConverged(iterations: maximumIterations) }
                }
            }
            theta = zip(theta, step).map { $0 + length * $1 }
            value = objective(theta)
        }
        throw .notConverged(iterations: maximumIterations)
    }

    /// 1 / (1 + exp(-z)) without overflow for either sign.
    static func logistic(_ z: Double) -> Double {
        z >= 0 ? 1 / (1 + exp(-z)) : exp(z) / (1 + exp(z))
    }

    /// log(1 + exp(t)) without overflow: t + log1p(exp(-t)) for t > 0.
    static func softplus(_ t: Double) -> Double {
        t > 0 ? t + log1p(exp(-t)) : log1p(exp(t))
    }

    static func dot<A: Collection<Double>>(_ a: A, _ b: [Double]) -> Double {
        zip(a, b).reduce(0) { $0 + $1.0 * $1.1 }
    }

    /// Solves A x = b for a symmetric positive definite A given by its lower triangle.
    static func solveCholesky(_ a: [[Double]], _ b: [Double]) -> [Double] {
        let m = b.count
        var lower = [[Double]](repeating: [Double](repeating: 0, count: m), count: m)
        for j in 0..<m {
            var diagonal = a[j][j]
            for k in 0..<j { diagonal -= lower[j][k] * lower[j][k] }
            lower[j][j] = diagonal.squareRoot()
            for i in (j + 1)..<m {
                var entry = a[i][j]
                for k in 0..<j { entry -= lower[i][k] * lower[j][k] }
                lower[i][j] = entry / lower[j][j]
            }
        }
        var y = b
        for i in 0..<m {
            for k in 0..<i { y[i] -= lower[i][k] * y[k] }
            y[i] /= lower[i][i]
        }
        var x = y
        for i in stride(from: m - 1, through: 0, by: -1) {
            for k in (i + 1)..<m { x[i] -= lower[k][i] * x[k] }
            x[i] /= lower[i][i]
        }
        return x
    }
}

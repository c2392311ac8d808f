/// The Expected Performance and Spoofability Curve (EPSC: Chingovska, Anjos and Marcel,
/// "Biometrics Evaluation Under Spoofing Attacks", IEEE TIFS 9(12), 2014): a face comparator's
/// thresholds chosen on dev for a range of weights between zero-effort impostors and attacks,
/// and the error rates those thresholds give on eval.
///
/// ```swift
/// let epsc = try EPSC(
///     dev: try EPSC.Scores(devScores), eval: try EPSC.Scores(evalScores), criterion: .eer,
///     omegas: EPSC.weights(points: 10), betas: [0.5])
/// let curve = epsc.points[0].map { ($0.omega, $0.werWB, $0.iapmr.value) }
/// ```
/// Source: bob.bio.base 8.1.1, `bob/bio/base/script/error_utils.py` (the functions named below),
/// called as `vuln_figure.Epsc` / `Epsc3D` call them (`bob vuln epsc`): the spoof positives are
/// the genuine scores, NaN scores are dropped first (`clean_scores`). bob.pad.base 6.0.1's
/// `error_utils` no longer has these functions; the same code (same author header) is in
/// bob.bio.base. With FAR = #(impostors >= t) / #impostors, IAPMR (bob's SFAR) =
/// #(attacks >= t) / #attacks and FRR = #(genuine < t) / #genuine (bob.measure `farfrr`):
/// - FAR_w = (1 - omega) FAR + omega IAPMR (`weighted_err`);
/// - WER_w,beta = (1 - beta) FRR + beta FAR_w; HTER_w = (FAR_w + FRR) / 2 (`error_rates_at_weight`).
/// The threshold for (omega, beta) minimises on dev (`weighted_neg_error_rate_criteria`):
/// - `eer`: |FAR_w - FRR| when beta == 0.5, else |(1 - beta) FRR - beta FAR_w|;
/// - `wer`: (1 - beta) FRR + beta FAR_w; `min-hter`: (FAR_w + FRR) / 2 (beta unused).
/// The search is bob's, not an exact sweep (`weighted_negatives_threshold`,
/// `recursive_thr_search`), reproduced operation by operation so the thresholds are bob's doubles:
/// start with [lowest impostor or attack score, highest genuine score]; evaluate the criterion at
/// the 101 thresholds low + i (high - low) / 100 (i = 0...100); of those where it is minimal
/// (exact ties), take the one at index count / 2 (rounded down); search again in [that - step,
/// that + step]; stop when |(high - low) / high| < 1e-10 and return high. Where bob's search never
/// stops (a span that collapses onto 0 gives 0 / 0 and Python's recursion limit), padbench
/// returns that collapsed threshold.
package struct EPSC: Sendable, Equatable {
    /// bob's `criteria` of `epsc_thresholds`.
    package enum Criterion: String, Sendable, CaseIterable {
        case eer
        case wer
        case minHTER = "min-hter"
    }

    /// One split's scores as bob's EPSC reads them: licit negatives (zero-effort impostors),
    /// licit positives (genuine) and spoof (all attacks pooled, species ignored), NaN dropped,
    /// each sorted ascending.
    package struct Scores: Sendable, Equatable {
        package let licitNegatives: [Double]
        package let licitPositives: [Double]
        package let spoof: [Double]

        /// - Throws: ``VulnerabilityError/noProcessedScores(set:)`` when a set has no non-NaN score
        ///   (bob.measure `farfrr` raises on an empty set).
        package init(licitNegatives: [Double], licitPositives: [Double], spoof: [Double]) throws(VulnerabilityError) {
            func processed(_ scores: [Double], _ name: String) throws(VulnerabilityError) -> [Double] {
                let kept = scores.filter { !$0.isNaN }.sorted()
                guard !kept.isEmpty else { throw .noProcessedScores(set: name) }
                return kept
            }
            self.licitNegatives = try processed(licitNegatives, "zero-effort impostor")
            self.licitPositives = try processed(licitPositives, "genuine")
            self.spoof = try processed(spoof, "attack")
        }

        package init(_ scores: ComparatorScores) throws(VulnerabilityError) {
            try self.init(
                licitNegatives: scores.zeroEffortImpostors, licitPositives: scores.genuine, spoof: scores.attacks)
        }

        /// FAR, FRR and IAPMR at t (bob.measure `farfrr` on the licit and the spoof scores).
        func rates(at t: Double) -> (far: Proportion, frr: Proportion, iapmr: Proportion) {
            (
                Proportion(errors: licitNegatives.count - Self.below(licitNegatives, t), total: licitNegatives.count),
                Proportion(errors: Self.below(licitPositives, t), total: licitPositives.count),
                Proportion(errors: spoof.count - Self.below(spoof, t), total: spoof.count)
            )
        }

        /// How many of the ascending scores are < t (the first index whose score is >= t).
        static func below(_ sorted: [Double], _ t: Double) -> Int {
            var low = 0, high = sorted.count
            while low < high {
                let mid = (low + high) / 2
                if sorted[mid] < t { low = mid + 1 } else { high = mid }
            }
            return low
        }
    }

    /// One point of the curve: the threshold chosen on dev for (omega, beta) and eval's rates there
    /// (bob's `error_rates_at_weight`: frr, far, sfar, far_w, wer_wb, hter_w).
    package struct Point: Sendable, Equatable {
        package var omega: Double
        package var beta: Double
        package var threshold: Double
        package var frr: Proportion
        package var far: Proportion
        /// bob's SFAR, plotted as IAPMR by `bob vuln epsc`.
        package var iapmr: Proportion
        package var farW: Double
        package var werWB: Double
        package var hterW: Double
    }

    package let criterion: Criterion
    package let omegas: [Double]
    package let betas: [Double]
    /// `points[b][w]` for `betas[b]` and `omegas[w]`, bob's [beta, omega] layout
    /// (`epsc_thresholds`, then `all_error_rates` / `epsc_error_rates`).
    package let points: [[Point]]

    /// - Throws: ``VulnerabilityError/infiniteScore(set:)`` when a dev score is infinite (bob's
    ///   search spans the scores; an infinite end gives NaN thresholds).
    package init(dev: Scores, eval: Scores, criterion: Criterion = .eer, omegas: [Double], betas: [Double])
        throws(VulnerabilityError)
    {
        self.criterion = criterion
        self.omegas = omegas
        self.betas = betas
        var points: [[Point]] = []
        for beta in betas {
            var row: [Point] = []
            for omega in omegas {
                let t = try Self.threshold(on: dev, omega: omega, beta: beta, criterion: criterion)
                row.append(Self.errorRates(on: eval, threshold: t, omega: omega, beta: beta))
            }
            points.append(row)
        }
        self.points = points
    }

    /// bob's `epsc_weights` and the default omega and beta of `epsc_thresholds`: i * (1 / points)
    /// for i = 0...points (so 3 / 10 is 0.30000000000000004, as bob has it). bob's own default is 100
    /// points; `bob vuln epsc` uses 10 (2D) and 5 (3D, `--sampling`).
    package static func weights(points: Int = 100) -> [Double] {
        precondition(points > 0, "at least one step")
        let step = 1 / Double(points)
        return (0...points).map { Double($0) * step }
    }

    /// The dev threshold for (omega, beta): bob's `weighted_negatives_threshold` (the search in
    /// this type's comment).
    package static func threshold(on dev: Scores, omega: Double, beta: Double, criterion: Criterion)
        throws(VulnerabilityError) -> Double
    {
        // span_min = min(licit_neg, spoof_neg), span_max = max(licit_pos, spoof_pos = licit_pos).
        var low = min(dev.licitNegatives[0], dev.spoof[0]), high = dev.licitPositives[dev.licitPositives.count - 1]
        guard low.isFinite else {
            throw .infiniteScore(set: dev.licitNegatives[0] < dev.spoof[0] ? "zero-effort impostor" : "attack")
        }
        guard high.isFinite else { throw .infiniteScore(set: "genuine") }
        let steps = 100
        while !(abs((high - low) / high) < 1e-10) && high != low {
            let step = (high - low) / Double(steps)
            var lowest = Double.infinity, minimal: [Double] = []
            for i in 0...steps {
                let t = Double(i) * step + low
                let value = criterionValue(dev, omega: omega, beta: beta, threshold: t, criterion: criterion)
                if value < lowest {
                    lowest = value
                    minimal = [t]
                } else if value == lowest {
                    minimal.append(t)
                }
            }
            let chosen = minimal[minimal.count / 2]
            (low, high) = (chosen - step, chosen + step)
        }
        return high
    }

    /// bob's `weighted_neg_error_rate_criteria` at threshold t on dev.
    static func criterionValue(_ dev: Scores, omega: Double, beta: Double, threshold t: Double, criterion: Criterion)
        -> Double
    {
        let (far, frr, iapmr) = dev.rates(at: t)
        let farW = (1 - omega) * far.value + omega * iapmr.value
        switch criterion {
        case .eer: return beta == 0.5 ? abs(farW - frr.value) : abs((1 - beta) * frr.value - beta * farW)
        case .minHTER: return (farW + frr.value) / 2
        case .wer: return (1 - beta) * frr.value + beta * farW
        }
    }

    /// bob's `error_rates_at_weight`: eval's rates at a threshold chosen on dev.
    package static func errorRates(on eval: Scores, threshold t: Double, omega: Double, beta: Double) -> Point {
        let (far, frr, iapmr) = eval.rates(at: t)
        let farW = (1 - omega) * far.value + omega * iapmr.value
        return Point(
            omega: omega, beta: beta, threshold: t, frr: frr, far: far, iapmr: iapmr, farW: farW,
            werWB: (1 - beta) * frr.value + beta * farW, hterW: (farW + frr.value) / 2)
    }
}

/// Demographic differentials of a PAD decision (ISO/IEC 19795-10:2024): the error rates of each
/// group of one characteristic (sex, age, skin ...) and two one-number summaries of how far apart
/// they are, with PAD's rates in the place of verification's (APCER for FMR: an attack accepted is
/// a false accept; BPCER for FNMR: a bona fide rejected is a false reject).
///
/// Example: `DemographicDifferentialsTests.handWorkedThreeGroups`
/// in `Tests/PadMetricsTests/DemographicDifferentialsTests.swift` (compiled and run by `swift test`).
package enum DemographicDifferentials {
    /// Fairness Discrepancy Rate (de Freitas Pereira & Marcel, "Fairness in Biometrics: a
    /// figure of merit to assess biometric verification systems", IEEE T-BIOM 2021):
    /// FDR(τ) = 1 − (α·A(τ) + (1−α)·B(τ)), A = max over group pairs |APCER_i − APCER_j|,
    /// B = max over group pairs |BPCER_i − BPCER_j| (the paper's FMR and FNMR). 1 is fair, 0 is
    /// the worst. A rate with fewer than two groups has no pair: its term is 0. NaN only when α
    /// is outside [0, 1].
    package static func fairnessDiscrepancyRate(apcer: [Double], bpcer: [Double], alpha: Double = 0.5) -> Double {
        guard (0...1).contains(alpha) else { return .nan }
        // Fewer than two groups with a rate: no pair to compare, no differential (not "perfectly
        // fair", FDR 1, as a dataset of one group read before).
        guard apcer.filter({ !$0.isNaN }).count > 1 || bpcer.filter({ !$0.isNaN }).count > 1 else { return .nan }
        return 1 - (alpha * maxPairwiseDifference(apcer) + (1 - alpha) * maxPairwiseDifference(bpcer))
    }

    /// max_{i,j} |x_i − x_j| = max − min (0 for fewer than two values); NaN values are left out.
    package static func maxPairwiseDifference(_ x: [Double]) -> Double {
        let v = x.filter { !$0.isNaN }
        guard let low = v.min(), let high = v.max(), v.count > 1 else { return 0 }
        return high - low
    }

    /// Gini coefficient with the sample-size correction of Howard et al. (GARBE, "Evaluating
    /// Proposed Fairness Models for Face Recognition Algorithms", 2022, arXiv:2203.05051):
    /// G = n/(n−1) · Σ_i Σ_j |x_i − x_j| / (2 n² x̄), over the n groups' rates (NaN left out).
    /// 0 when every group has the same rate (also when all are 0, where x̄ = 0); NaN for fewer
    /// than two groups (no inequality to measure).
    package static func gini(_ x: [Double]) -> Double {
        let v = x.filter { !$0.isNaN }
        let n = Double(v.count)
        guard v.count > 1 else { return .nan }
        let mean = v.reduce(0, +) / n
        guard mean > 0 else { return 0 }
        var sum = 0.0
        for a in v { for b in v { sum += abs(a - b) } }
        return n / (n - 1) * sum / (2 * n * n * mean)
    }

    /// GARBE(τ) = α·G_APCER + (1−α)·G_BPCER (Howard et al. 2022, with FMR and FNMR read as APCER
    /// and BPCER): 0 is fair, higher is less fair. A rate with fewer than two groups contributes
    /// 0 (nothing to compare), so GARBE is that of the other rate alone; NaN when neither has two.
    package static func garbe(apcer: [Double], bpcer: [Double], alpha: Double = 0.5) -> Double {
        guard (0...1).contains(alpha) else { return .nan }
        let a = gini(apcer), b = gini(bpcer)
        if a.isNaN && b.isNaN { return .nan }
        return alpha * (a.isNaN ? 0 : a) + (1 - alpha) * (b.isNaN ? 0 : b)
    }

    /// The highest group rate over the lowest (ISO/IEC 19795-10's ratio of the worst to the best
    /// group): +inf when the lowest is 0 and the highest is not, NaN when every rate is 0 or
    /// there are fewer than two groups.
    package static func maxMinRatio(_ x: [Double]) -> Double {
        let v = x.filter { !$0.isNaN }
        guard let low = v.min(), let high = v.max(), v.count > 1, high > 0 else { return .nan }
        return low == 0 ? .infinity : high / low
    }

    /// ``maxMinRatio(_:)`` of proportions as one exact fraction rounded once, (e_max·n_min) /
    /// (e_min·n_max), so 3/10 over 1/10 prints `3`, not the `2.9999999999999996` of 0.3 / 0.1.
    /// Proportions without samples are left out.
    package static func maxMinRatio(_ rates: [Proportion]) -> Double {
        let v = rates.filter { $0.total > 0 }
        guard let low = v.min(by: { $0.value < $1.value }), let high = v.max(by: { $0.value < $1.value }),
            v.count > 1, high.errors > 0
        else { return .nan }
        return low.errors == 0 ? .infinity : Double(high.errors * low.total) / Double(low.errors * high.total)
    }

    /// Decisions counted per group: bona fide rejected and attacks accepted per species.
    package struct GroupCounts: Sendable, Equatable {
        package var group: String
        package var bpcer: Proportion
        /// APCER per species (index into the table's species names).
        package var apcer: [Proportion]
        /// Distinct subjects among the group's decided samples (nil: the run names no subjects).
        /// A group of one person measures that person, not the group.
        package var subjects: Int?

        package init(group: String, speciesCount: Int) {
            self.group = group
            bpcer = Proportion(errors: 0, total: 0)
            apcer = Array(repeating: Proportion(errors: 0, total: 0), count: speciesCount)
        }

        /// The group's APCER_max over the species it has attacks of (ISO/IEC 30107-3's headline):
        /// its index, or nil when the group has no attack.
        package var apcerMaxSpecies: Int? {
            apcer.indices.filter { apcer[$0].total > 0 }.max { apcer[$0].value < apcer[$1].value }
        }

        package var apcerMax: Proportion { apcerMaxSpecies.map { apcer[$0] } ?? Proportion(errors: 0, total: 0) }
    }

    /// Counts per group of decided samples: `group[i]` (nil = no group, left out), `species[i]`
    /// (-1 = bona fide), `accepted[i]`, and `subjects[i]` ("" = unknown) when given. Groups sorted
    /// by name.
    package static func count(
        groups: [String?], species: [Int32], accepted: [Bool], speciesCount: Int, subjects: [String]? = nil
    ) -> [GroupCounts] {
        var byName: [String: GroupCounts] = [:]
        var people: [String: Set<String>] = [:]
        for i in groups.indices {
            guard let g = groups[i] else { continue }
            if let subjects, !subjects[i].isEmpty { people[g, default: []].insert(subjects[i]) }
            var c = byName[g] ?? GroupCounts(group: g, speciesCount: speciesCount)
            if species[i] < 0 {
                c.bpcer.total += 1
                if !accepted[i] { c.bpcer.errors += 1 }
            } else {
                c.apcer[Int(species[i])].total += 1
                if accepted[i] { c.apcer[Int(species[i])].errors += 1 }
            }
            byName[g] = c
        }
        if subjects != nil {
            for g in byName.keys { byName[g]!.subjects = people[g]?.count ?? 0 }
        }
        return byName.values.sorted { $0.group < $1.group }
    }
}

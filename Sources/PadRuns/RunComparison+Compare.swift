import PadMetrics
import PadReport

extension RunComparison {
    /// The latency gate's clock: the measuring thread's CPU time (what a step cost, unmoved by
    /// other load on the machine; a step without it, an external program's, is gated on wall
    /// time) or wall time for every step (what a caller waits, neighbours included).
    package enum LatencyClock: String, Sendable, CaseIterable, Codable {
        case cpu, wall
    }

    package enum GateKind: String, Sendable, CaseIterable, Codable {
        case accuracy, latency, fairness, all
        var accuracy: Bool { self == .accuracy || self == .all }
        var latency: Bool { self == .latency || self == .all }
        var fairness: Bool { self == .fairness || self == .all }
    }

    package struct Settings: Sendable {
        package var rateTolerance: Double = 0.005
        package var latencyRatio: Double = 1.3
        /// Which clock the latency gate reads where a step has both (`cpu` by default).
        package var latencyClock: LatencyClock = .cpu
        /// Latency is gated only when the two runs' reference work (`timing.csv`'s `reference`
        /// row, CPU p50) took times within this factor of each other: the machine ran at the
        /// same speed.
        package var machineSpeedTolerance: Double = 1.15
        package var minSamples: Int = 30
        package var allowDifferentDataset = false
        package var gate: GateKind = .all
        package var significance: Double = 0.05
        /// `--profiles`: the profiles the accuracy gate judges (nil = all); the others' metrics
        /// are shown, not gated.
        package var profiles: [String]?
        /// The paired bootstrap of EER and BPCER at each APCER target (same samples only).
        package var bootstrap = PairedBootstrap.Settings()
        /// Drop of FDR or rise of GARBE that counts (``FairnessComparison``).
        package var fairnessTolerance: Double = 0.05
        package init() {}
    }

    /// `padbench compare BASE NEW`: what changed between two runs, and whether it is a regression
    /// that should fail CI. The comparison's JUnit XML and page are PadReport's.
    ///
    /// Example: `CompareTests.pairedScoreRunsRegressByMcNemarAndSelfComparisonDoesNot`
    /// in `Tests/PadBenchTests/CompareTests.swift` (compiled and run by `swift test`).
    /// Accuracy, per profile, on the reported split:
    /// - same samples (equal dataset fingerprints): APCER of every species and BPCER are tested on the
    ///   per-sample decisions with an exact one-sided McNemar test (``McNemar``): a regression when
    ///   the rate rises by more than the tolerance and p < 0.05;
    /// - different samples (only with `allowDifferentDataset`): APCER_max and BPCER regress when the
    ///   rate rises by more than the tolerance and the new 95% Clopper-Pearson interval lies entirely
    ///   above the base one.
    /// - same samples, profiles with a swept score: EER and BPCER at each APCER target of
    ///   ``ProfileResult/targets`` by a paired bootstrap over subjects (``PairedBootstrap``): a
    ///   regression when the rise is above the tolerance and its one-sided 95% interval excludes zero,
    ///   so a model whose whole curve got worse is caught even when its rates at the profile's
    ///   threshold did not move. `profiles` limits the accuracy gate to named profiles; the others'
    ///   metrics are shown as not gated (JUnit `<skipped/>`).
    /// - runs with a face comparator (`vulnerability.csv` in both): IAPMR, IAPAR and the system FNMR
    ///   by the same tests, paired per comparison (``VulnerabilityComparison``).
    /// Latency, per step, from every sample's stored time: the p50 and p99 ratios new / base with a
    /// distribution-free 95% interval (each quantile's order-statistic interval at 97.5%, combined);
    /// a regression only when the whole interval of the p50 or p99 ratio lies above the limit.
    ///
    /// Nothing passes by omission: a gated metric present on one side only, a profile whose
    /// definition changed under the same name, different conventions, or no gated metric at all
    /// make the runs "not comparable" (``ComparisonError``, exit 2). Nothing is trusted blindly
    /// either: each run is checked first (``StoredRun/verify()``: rates against their counts and
    /// against `decisions.csv`, one decision row per sample), and a disagreement is exit 2.
    package init(base: StoredRun, new: StoredRun, settings: Settings = Settings()) throws(ComparisonError) {
        // An edited archive is refused before any of its numbers is read (``StoredRun/verify()``).
        for run in [base, new] {
            do { try run.verify() } catch { throw ComparisonError("\(error)") }
        }
        let conventionKeys = [
            "polarity", "tie_rule", "apcer_headline", "target_rule", "eer_rule", "fta", "report_split",
        ]
        for key in conventionKeys where base.manifest.conventions[key] != new.manifest.conventions[key] {
            throw ComparisonError(
                "archives use different conventions for \(key): "
                    + "'\(base.manifest.conventions[key] ?? "none")' vs '\(new.manifest.conventions[key] ?? "none")'"
            )
        }
        let paired = base.manifest.dataset.fingerprint == new.manifest.dataset.fingerprint
        if !paired && !settings.allowDifferentDataset {
            throw ComparisonError(
                "archives are on different samples (fingerprint \(base.manifest.dataset.fingerprint) vs "
                    + "\(new.manifest.dataset.fingerprint)); "
                    + "pass --allow-different-dataset to compare their rates with the interval test"
            )
        }
        var checks: [Check] = [], notes: [String] = [], problems: [String] = [], overlays: [Overlay] = []
        do {
            let baseSamples = paired ? try base.verifiedSamples() : nil
            let newSamples = paired ? try new.verifiedSamples() : nil
            if settings.gate.accuracy {
                let accuracy = try AccuracyComparison(base: base, new: new, paired: paired, settings: settings)
                checks += accuracy.checks; notes += accuracy.notes; problems += accuracy.problems
                overlays = accuracy.overlays
                let system = try VulnerabilityComparison(base: base, new: new, paired: paired, settings: settings)
                checks += system.checks; notes += system.notes; problems += system.problems
            }
            if settings.gate.latency {
                let latency = try LatencyComparison(
                    base: base, new: new, baseSamples: baseSamples, newSamples: newSamples, settings: settings)
                checks += latency.checks; notes += latency.notes
            }
            if settings.gate.fairness {
                let fairness = try FairnessComparison(base: base, new: new, settings: settings)
                checks += fairness.checks; notes += fairness.notes
            }
        } catch let error as ComparisonError {
            throw error
        } catch {
            throw ComparisonError("\(error)")
        }
        if !problems.isEmpty { throw ComparisonError(problems.joined(separator: "; ")) }
        guard checks.contains(where: \.gated) else {
            throw ComparisonError(
                "no gated metric in common (gate \(settings.gate.rawValue))"
                    + "\(notes.isEmpty ? "" : ": " + notes.joined(separator: "; "))"
            )
        }
        self.init(
            checks: checks, overlays: overlays, notes: notes, paired: paired,
            bootstrap: checks.contains { $0.test == "paired-bootstrap" } ? settings.bootstrap : nil)
    }
}

/// Runs that cannot be compared (exit code 2).
package struct ComparisonError: Error, Sendable, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

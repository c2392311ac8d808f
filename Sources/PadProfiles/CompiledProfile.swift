/// A profile bound to a column layout: gates hold column indices, so deciding is a loop over
/// Doubles without dictionary lookups (it runs once per sample per profile).
///
/// Example: `PadProfilesDocExamples.compileAndDecide`
/// in `Tests/PadProfilesTests/DocExamplesTests.swift` (compiled and run by `swift test`).
package struct CompiledProfile: Sendable {
    package struct CompiledGate: Sendable {
        package var gateIndex: Int
        package var gate: Gate
        /// Column of the output; nil when the run has no such column (the gate then sees NaN).
        package var column: Int?
    }

    /// An active gate as numbers alone, the form every per-sample loop reads: copying one copies
    /// no String (a ``Gate`` holds several), and whether it reads the swept score is decided here,
    /// once, not by comparing output names per sample.
    package struct Test: Sendable {
        package var gateIndex: Int
        /// Column of the output; -1 when the run has no such column (the gate then sees NaN).
        package var column: Int
        package var comparison: Gate.Comparison
        package var threshold: Double
        package var upper: Double
        /// The gate is on the profile's swept score.
        package var onScore: Bool

        /// ``Gate/passes(_:)``.
        @inlinable
        package func passes(_ value: Double) -> Bool { comparison.holds(value, threshold: threshold, upper: upper) }
    }

    package let profile: Profile
    package let gates: [CompiledGate]
    /// ``gates`` as ``Test``s, in the same order.
    package let tests: [Test]
    /// Gates (by index) whose output this run did not measure and that have no approximation:
    /// left out of the decisions and listed in the report, never silently.
    package let unmeasuredGates: [Int]
    /// Gates (by index) decided by their approximation on padbench's own outputs.
    package let approximatedGates: [Int]
    /// Column of the swept score, if the profile names one that the run measured, or, when the
    /// run did not measure it, of the approximation its gate was decided on (`approximate:`).
    package let scoreColumn: Int?
    /// The output actually swept: the profile's score, or its gate's approximation (nil without a column).
    package let sweptOutput: String?
    /// The swept score is read lower-bona-fide (its gate is `le`): swept negated, so that curves,
    /// EER and targets keep "accepted when score >= t" (results show thresholds negated back).
    package let scoreNegated: Bool

    /// - Parameter columns: the output name of each column as this profile reads it, nil for a
    ///   column it must not see (another option set's measurements).
    /// - Parameter calibratedThresholds: the threshold chosen for each calibrated gate, by gate index.
    package init(profile: Profile, columns: [String?], calibratedThresholds: [Int: Double] = [:]) {
        let index = Dictionary(
            columns.enumerated().compactMap { i, name in name.map { ($0, i) } }, uniquingKeysWith: { a, _ in a })
        var gates: [CompiledGate] = []
        var unmeasured: [Int] = [], approximated: [Int] = []
        for (i, gate) in profile.gates.enumerated() where !gate.isSkipped {
            var bound = gate
            // A calibrated threshold is chosen on the swept (bona-fide-high) values: a `le` gate
            // (a lower-bona-fide output, `eval --score`) sweeps the output negated.
            if gate.calibration != nil {
                let t = calibratedThresholds[i] ?? .nan
                bound.threshold = gate.comparison == .le ? -t : t
            }
            if let column = index[gate.output] {
                gates.append(CompiledGate(gateIndex: i, gate: bound, column: column))
            } else if let approximate = gate.approximated, let column = index[approximate.output] {
                gates.append(CompiledGate(gateIndex: i, gate: approximate, column: column))
                approximated.append(i)
            } else {
                unmeasured.append(i)
            }
        }
        self.profile = profile
        self.gates = gates
        // A gate on the score decided by its approximation is still the score's gate: the swept
        // score is not held to it.
        self.tests = gates.map { g in
            Test(
                gateIndex: g.gateIndex, column: g.column ?? -1, comparison: g.gate.comparison,
                threshold: g.gate.threshold, upper: g.gate.upper,
                onScore: profile.score != nil && profile.gates[g.gateIndex].output == profile.score)
        }
        self.unmeasuredGates = unmeasured
        self.approximatedGates = approximated
        if let score = profile.score, let column = index[score] {
            (scoreColumn, sweptOutput, scoreNegated) = (column, score, profile.sweepsScoreNegated)
        } else if let score = profile.score,
            let gate = profile.gates.first(where: { $0.output == score && !$0.isSkipped }),
            let approximate = gate.approximated, let column = index[approximate.output]
        {
            // The score's gate was decided on its approximation: sweep what decided it.
            (scoreColumn, sweptOutput) = (column, approximate.output)
            scoreNegated = approximate.comparison == .le || approximate.comparison == .lt
        } else {
            (scoreColumn, sweptOutput, scoreNegated) = (nil, nil, profile.sweepsScoreNegated)
        }
    }

    /// Accept when every active gate passes; otherwise the first failing gate.
    @inlinable
    package func decide(_ value: (Int) -> Double) -> Decision {
        for t in tests {
            let v = t.column < 0 ? .nan : value(t.column)
            if !t.passes(v) { return Decision(failedGate: t.gateIndex, valueWasNaN: v.isNaN) }
        }
        return .accepted
    }

    /// True when every capture gate passes: every active gate not on the swept score (all gates
    /// when the profile names no score). A best shot is the first frame for which this holds.
    @inlinable
    package func passesCaptureGates(_ value: (Int) -> Double) -> Bool {
        for t in tests where !t.onScore {
            if !t.passes(t.column < 0 ? .nan : value(t.column)) { return false }
        }
        return true
    }

    /// The swept score with the other gates held fixed: the score when every gate that is not on
    /// the score output passes; nil when one of them fails or the score is not assessable (the
    /// sample is then rejected at every threshold of the sweep, never given a score of -inf).
    @inlinable
    package func sweptScore(_ value: (Int) -> Double) -> Double? {
        guard let scoreColumn else { return nil }
        for t in tests where !t.onScore {
            if !t.passes(t.column < 0 ? .nan : value(t.column)) { return nil }
        }
        let s = value(scoreColumn)
        return s.isNaN ? nil : (scoreNegated ? -s : s)
    }
}

/// The outcome of a profile on one sample.
package struct Decision: Sendable, Equatable {
    /// Index into `profile.gates` of the first failing gate; -1 when accepted.
    package var failedGate: Int
    /// True when the failing gate saw NaN (the output could not be assessed).
    package var valueWasNaN: Bool

    package init(failedGate: Int, valueWasNaN: Bool = false) {
        self.failedGate = failedGate
        self.valueWasNaN = valueWasNaN
    }

    package static let accepted = Decision(failedGate: -1)
    package var isAccepted: Bool { failedGate < 0 }
}

extension Profile {
    /// True when the swept score's own gate is `le` or `lt` (lower values are bona fide).
    package var sweepsScoreNegated: Bool {
        guard let score else { return false }
        let gate = gates.first { $0.output == score && !$0.isSkipped }
        return gate?.comparison == .le || gate?.comparison == .lt
    }

    package func compiled(columns: [String?], calibratedThresholds: [Int: Double] = [:]) -> CompiledProfile {
        CompiledProfile(profile: self, columns: columns, calibratedThresholds: calibratedThresholds)
    }
}

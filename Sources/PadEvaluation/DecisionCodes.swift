import PadProfiles

/// One profile's decision on every row of its table, made once: the tallies, `decisions.csv`, the
/// subject bootstrap and the run's analyses (fairness, EDC, vulnerability) all read these codes,
/// so a sample is decided once per profile and nothing is read back from disk. Two bytes a row.
///
/// Code: 0 accepted; `1 + 2 * gate + (value was NaN ? 1 : 0)` rejected by that first failing gate
/// (``Decision``); ``failed`` for a row whose measurement failed (not decided).
///
/// ```swift
/// let codes = DecisionCodes([Decision.accepted, Decision(failedGate: 1, valueWasNaN: true), nil])
/// // codes.accepted(0) == true, codes.accepted(1) == false, codes.accepted(2) == nil
/// ```
package struct DecisionCodes: Sendable, Equatable {
    package static let failed = UInt16.max
    package private(set) var codes: [UInt16]

    /// Every row of `table` decided by `compiled` (failed rows coded ``failed``).
    package init(table: MeasurementTable, compiled: CompiledProfile) {
        let values = table.values
        var codes = [UInt16](repeating: Self.failed, count: table.count)
        table.statuses.withCodeNumbers { statuses, ok in
            for i in 0..<table.count where statuses[i] == ok {
                codes[i] = Self.code(compiled.decide { values[$0][i] })
            }
        }
        self.codes = codes
    }

    /// The decisions given, nil for a failed row.
    package init(_ decisions: [Decision?]) {
        codes = decisions.map { $0.map(Self.code) ?? Self.failed }
    }

    @inline(__always)
    static func code(_ decision: Decision) -> UInt16 {
        // A profile's gates are few (YAML written by hand): 32,767 gates fit the code.
        decision.isAccepted ? 0 : UInt16(1 + decision.failedGate * 2 + (decision.valueWasNaN ? 1 : 0))
    }

    package var count: Int { codes.count }

    /// Row `i`'s decision; nil when its measurement failed.
    @inline(__always)
    package func decision(_ i: Int) -> Decision? {
        let code = codes[i]
        if code == Self.failed { return nil }
        if code == 0 { return .accepted }
        return Decision(failedGate: Int(code - 1) / 2, valueWasNaN: (code - 1) % 2 == 1)
    }

    /// Whether row `i` was accepted; nil when its measurement failed.
    @inline(__always)
    package func accepted(_ i: Int) -> Bool? {
        let code = codes[i]
        return code == Self.failed ? nil : code == 0
    }
}

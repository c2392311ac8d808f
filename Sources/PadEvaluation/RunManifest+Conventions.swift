import PadArchive
import PadMetrics
import PadProfiles

/// The conventions a run reads back, typed: the manifest stores every convention as text (the
/// record a reader of `manifest.json` sees), and these are the ones code acts on.
extension RunManifest {
    /// The key of ``frameAggregate`` in `conventions`.
    static let frameAggregateKey = "frame_aggregate"
    /// The key of ``countsPresentations`` in `conventions`.
    static let countedUnitKey = "counted_unit"

    /// How a presentation's frame scores were combined (`--aggregate`); nil when none was
    /// recorded (still images, or a command that chose none: then ``effectiveFrameAggregate``).
    package var frameAggregate: FrameAggregate? {
        get { conventions[Self.frameAggregateKey].flatMap(FrameAggregate.init(rawValue:)) }
        set { conventions[Self.frameAggregateKey] = newValue?.rawValue }
    }

    /// The aggregate a presentation-level computation uses: the recorded one, else the mean.
    package var effectiveFrameAggregate: FrameAggregate { frameAggregate ?? .mean }

    /// True when the run counts presentations (its headline files are per presentation and the
    /// frame-level ones are under `frames/`).
    package var countsPresentations: Bool {
        get { conventions[Self.countedUnitKey] != nil }
        set { conventions[Self.countedUnitKey] = newValue ? "presentation (frame-level results in frames/)" : nil }
    }

    /// The key of ``comparatorThreshold`` in `conventions`.
    static let comparatorThresholdKey = "comparator_threshold"

    /// How the face comparator's threshold is set when the run has comparison scores
    /// (`fmr=<x>`: at that FMR on zero-effort impostors; `fixed=<t>`); nil without comparisons.
    package var comparatorThreshold: ComparatorThreshold? {
        get {
            guard let text = conventions[Self.comparatorThresholdKey], let equals = text.firstIndex(of: "="),
                let value = Double(text[text.index(after: equals)...])
            else { return nil }
            switch text[..<equals] {
            case "fmr": return .fmr(value)
            case "fixed": return .fixed(value)
            default: return nil
            }
        }
        set {
            switch newValue {
            case .fmr(let x)?: conventions[Self.comparatorThresholdKey] = "fmr=\(x)"
            case .fixed(let t)?: conventions[Self.comparatorThresholdKey] = "fixed=\(t)"
            case nil: conventions[Self.comparatorThresholdKey] = nil
            }
        }
    }

    /// The conventions two shards must share to be merged: all but the ones that depend on which
    /// presentations a shard holds (a shard of still images records neither).
    package var shardIndependentConventions: [String: String] {
        conventions.filter { $0.key != Self.countedUnitKey && $0.key != Self.frameAggregateKey }
    }
}

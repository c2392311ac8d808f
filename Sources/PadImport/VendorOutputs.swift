/// Outputs that come from outside padbench's own estimators: vendor SDK exports and PAD scores
import PadVocabulary
/// imported with `padbench import` (docs/formats.md; docs/ARCHITECTURE.md). Profiles may gate on them; a run
/// that lacks them leaves such gates out (or uses their `approximate:` form) and says so.
package enum VendorOutputs {
    package static let catalogue: [String: OutputDescriptor] = {
        let list: [(String, String, Double, Double, Direction, String)] = [
            (
                "pad.score", "", 0, 1, .higherIsBetter,
                "PAD score, higher = more bona fide (imported or external estimator)"
            ),
            ("luna.liveness", "", 0, 1, .higherIsBetter, "LUNA OneShotLiveness liveness.estimations.probability"),
            ("luna.prediction", "", 0, 1, .higherIsBetter, "LUNA OneShotLiveness liveness.prediction (1 = live)"),
            ("luna.quality", "", 0, 1, .higherIsBetter, "LUNA OneShotLiveness liveness.estimations.quality"),
            ("luna.error_code", "", 0, .infinity, .none, "LUNA error code (1001-1017), 0 without error"),
            ("misnap.quality", "", 0, 1000, .higherIsBetter, "MiSnap FFQ final frame quality"),
            ("misnap.lighting", "", 0, 1000, .higherIsBetter, "MiSnap FFL final lighting"),
            ("misnap.sharpness", "", 0, 1000, .higherIsBetter, "MiSnap FFS final sharpness"),
            ("misnap.eye_distance", "px", 0, .infinity, .none, "MiSnap FFD final eye distance"),
            ("misnap.face_found", "", 0, 1000, .higherIsBetter, "MiSnap FEF face found confidence"),
            ("misnap.live", "", 0, 1, .higherIsBetter, "MiSnap FPL event: passive liveness detected (1), else 0"),
            ("misnap.spoof", "", 0, 1, .lowerIsBetter, "MiSnap FSD event: spoof detected (1), else 0"),
            ("misnap.auto_capture", "", 0, 1, .none, "MiSnap SA event: auto capture started (1), else 0"),
            ("misnap.still_capture", "", 0, 1, .none, "MiSnap SS event: still capture started (1), else 0"),
            ("misnap.failover", "", 0, 1, .none, "MiSnap MF event: measured failover (1), else 0"),
            ("idemia.live", "", 0, 1, .higherIsBetter, "IDEMIA capture status: 1 Live, 0 Fake"),
        ]
        var catalogue: [String: OutputDescriptor] = [:]
        for (name, unit, lo, hi, direction, summary) in list {
            catalogue[name] = OutputDescriptor(
                name: name, unit: unit, minimum: lo, maximum: hi, direction: direction, summary: summary)
        }
        return catalogue
    }()
}

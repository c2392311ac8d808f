/// How a profile decides a presentation (one capture attempt, ISO/IEC 30107-3) from its frames:
/// the profile's `frames:` section. Still images are presentations of one frame, where every
/// rule decides as the frame's own decision.
///
/// ```yaml
/// frames: {decide: best_shot}          # or aggregate (the default), or:
/// frames: {decide: k_of_n, k: 3, n: 5}
/// ```
/// - `aggregate`: every output is aggregated over the presentation's assessable frames (the run's
///   `--aggregate`, mean by default, as OULU-NPU and bob.pad users average frame scores per video)
///   and the gates decide on the aggregated outputs.
/// - `best_shot`: the first frame, in frame order, that passes every capture gate (every gate
///   not on the profile's `score`) is the presentation's frame, and liveness is decided on it
///   (LUNA ID's flow: a best shot is selected, then liveness runs on it). With no such frame the
///   presentation is rejected by its first frame's failing capture gate.
/// - `k_of_n`: of the first `n` frames, at least `k` must be accepted by every gate (Aware and
///   MiSnap collect several frames per capture).
package enum FramesRule: Sendable, Equatable {
    case aggregate
    case bestShot
    case atLeast(k: Int, of: Int)

    /// The YAML spelling, as `frames.decide` writes it and reports show it.
    package var text: String {
        switch self {
        case .aggregate: return "aggregate"
        case .bestShot: return "best_shot"
        case .atLeast(let k, let n): return "k_of_n(k=\(k),n=\(n))"
        }
    }
}

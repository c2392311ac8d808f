import Foundation
import Testing

/// Whether the long equality suites run: in CI (`CI=true`), with `PADBENCH_TESTS=all` or
/// `make test-all`. A local `make test` skips them and says so in its output.
public enum Thorough {
    public static var enabled: Bool {
        let environment = ProcessInfo.processInfo.environment
        return environment["CI"] == "true" || environment["PADBENCH_TESTS"] == "all"
    }
}

extension Trait where Self == ConditionTrait {
    /// A test that compares many real inputs with an independent reference (OpenCV's cascade on
    /// every scan, onnxruntime's boxes, twenty reruns of a bench) and takes seconds: it runs in CI
    /// and with `make test-all`, not in every local run.
    public static var thorough: Self {
        .enabled(if: Thorough.enabled, "a long equality suite: runs in CI and with `make test-all`")
    }
}

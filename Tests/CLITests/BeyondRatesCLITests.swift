import Foundation
import Testing

/// Issue 30 from the command line: every run writes metrics.csv (folder and archive); `compare
/// --gate fairness` on runs without group labels has nothing to gate (exit 2, one line saying
/// why); `--fairness-tolerance` out of [0, 1] is a usage error.
@Suite struct BeyondRatesCLITests {
    typealias CLI = CommandLineTests

    @Test func evalWritesMetricsAndFairnessGateNeedsGroups() throws {
        let dir = CLI.folder()
        let base = try StoredRunCLITests.base(dir)
        #expect(FileManager.default.fileExists(atPath: dir + "/base/metrics.csv"))
        let (status, listing) = try StoredRunCLITests.tar(["--zstd", "-tf", base])
        #expect(status == 0 && listing.split(separator: "\n").contains("metrics.csv"))
        let metrics = try String(contentsOfFile: dir + "/base/metrics.csv", encoding: .utf8)
        #expect(
            metrics.hasPrefix("profile,split,level,group_kind,group,metric,value,errors,n,ci_low,ci_high,ci_method\n"))
        // 20 bona fide accepted at 0.45: BPCER 0/20 with its Clopper-Pearson interval.
        #expect(metrics.contains("\nscores,all,presentation,,,bpcer,0,0,20,0,"))

        let gate = try CLI.run(["compare", base, base, "--gate", "fairness"])
        #expect(gate.status == 2 && gate.out.isEmpty)
        #expect(
            gate.err
                == "padbench compare: not comparable: no gated metric in common (gate fairness): fairness.csv missing "
                + "from BASE and NEW (no group.* labels): demographic differentials not gated\n")
        let bad = try CLI.run(["compare", base, base, "--fairness-tolerance", "2"])
        #expect(bad.status == 64 && bad.err.contains("--fairness-tolerance must be in [0, 1], got 2.0"), "\(bad.err)")
    }
}

import Foundation
import Testing

/// The latency gate measures what a step costs, not what the neighbours cost: `bench` records
/// each step's CPU time beside its wall time (`cpu.<step>_ns` in `samples.csv`, `cpu_*_us` in
/// `timing.csv`), an external program's step has none (it computes in its own process), the
/// machine's speed is recorded (`reference` row), throughput is written once, and `compare`
/// gates CPU time where both runs have it.
@Suite struct LatencyClockCLITests {
    typealias CLI = CommandLineTests
    static let root = ProfileOutputsCLITests.root

    @Test func benchRecordsCPUTimeAndCompareGatesIt() throws {
        let dir = CLI.folder()
        let run = dir + "/run"
        let bench = try CLI.run(
            [
                "bench", "--dataset", "datasets/sample", "--estimators", "quality", "--external",
                "ext=python3 examples/external/pad_estimator.py", "--quiet", "--out", run,
            ], in: Self.root)
        #expect(bench.status == 0, "\(bench.err)")
        let samples = try String(contentsOfFile: run + "/samples.csv", encoding: .utf8)
        let header = samples.prefix { $0 != "\n" }.split(separator: ",").map(String.init)
        // `quality` brings `face` (its dependency); the external program gets no CPU column.
        #expect(
            Array(header.suffix(7)) == [
                "decode_ns", "face_ns", "quality_ns", "ext_ns", "cpu.decode_ns", "cpu.face_ns", "cpu.quality_ns",
            ])
        let wall = header.firstIndex(of: "quality_ns")!, cpu = header.firstIndex(of: "cpu.quality_ns")!
        // Every row: CPU time of a step is at most its wall time (plus the clocks' granularity).
        let rows = samples.split(separator: "\n").dropFirst().map {
            $0.split(separator: ",", omittingEmptySubsequences: false)
        }
        #expect(rows.count == 144)
        for row in rows {
            let wallQuality = UInt64(row[wall])!, cpuQuality = UInt64(row[cpu])!
            #expect(cpuQuality > 0 && cpuQuality <= wallQuality + 1_000_000, "\(row)")
        }
        let timing = try String(contentsOfFile: run + "/timing.csv", encoding: .utf8).split(separator: "\n")
        #expect(
            timing[0]
                == "step,count,mean_us,p50_us,p90_us,p99_us,max_us,cpu_mean_us,cpu_p50_us,cpu_p90_us,cpu_p99_us,"
                + "cpu_max_us,throughput_per_s,cold_start_us")
        func row(_ step: String) -> [String] {
            timing.first { $0.hasPrefix(step + ",") }.map {
                $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            } ?? []
        }
        // An external program: wall time only. Throughput: on the totals only.
        #expect(row("ext")[7...11].allSatisfy(\.isEmpty) && row("ext")[12].isEmpty, "\(row("ext"))")
        #expect(!row("quality")[8].isEmpty && row("quality")[12].isEmpty)
        #expect(Double(row("sample_total")[12]) ?? 0 > 0)
        // The machine's speed: the reference work, timed on the CPU clock during the run.
        let reference = row("reference")
        #expect(reference.count == 14 && Int(reference[1]) ?? 0 >= 1 && Double(reference[8]) ?? 0 > 0, "\(reference)")
        // A run compared with itself: quality gated on CPU time (wall shown), ext on wall time.
        let same = try CLI.run(["compare", run, run, "--gate", "latency"])
        #expect(same.status == 0, "\(same.out)\(same.err)")
        let lines = same.out.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("ok") && $0.contains("timing quality cpu_p50_us") })
        #expect(
            lines.contains {
                $0.hasPrefix("info") && $0.contains("timing quality p50_us") && $0.contains("gated on CPU time")
            })
        #expect(lines.contains { $0.hasPrefix("ok") && $0.contains("timing ext p50_us") && $0.contains("no CPU time") })
        // The HTML report shows the CPU columns.
        let html = try String(contentsOfFile: run + "/report.html", encoding: .utf8)
        #expect(html.contains("CPU p50 ms") && html.contains("CLOCK_THREAD_CPUTIME_ID"))
        // Wrong options are refused.
        let clock = try CLI.run(["compare", run, run, "--latency-clock", "sundial"])
        #expect(clock.status == 64 && clock.err.contains("sundial"), "\(clock.err)")
        let tolerance = try CLI.run(["compare", run, run, "--machine-speed-tolerance", "0.5"])
        #expect(tolerance.status == 64 && tolerance.err.contains("--machine-speed-tolerance must be at least 1"))
        try? FileManager.default.removeItem(atPath: dir)
    }
}

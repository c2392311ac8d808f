import Foundation
import Testing
@testable import PadArchive
@testable import PadBench
@testable import PadReport
@testable import PadRuns

/// The latency half of `compare` on synthetic per-sample timings: it must fail on a real slowdown
/// and pass on an unchanged or mildly slower run, and must not gate what the sample cannot bound.
@Suite struct LatencyComparisonTests {
    /// A `samples.csv` with `n` samples whose `face_ns` are `scale` x (1.000, 1.001, ..., ) ms and a
    /// constant 0.2 ms `decode_ns`: the nearest-rank p50 of 500 is the 250th value, 1.249 ms.
    static func samples(_ n: Int, scale: Double = 1) throws -> CSVTable {
        var text = "id,path,label,species,split,status,error,decode_ns,face_ns\n"
        for i in 0..<n { text += "s\(i),,bonafide,,none,ok,,200000,\(Int(scale * Double(1_000_000 + i * 1000)))\n" }
        return try CSVTable(bytes: Array(text.utf8), path: "samples.csv")
    }

    /// Any stored run: `LatencyComparison` reads the tables it is given, not the run's own.
    static func anyRun() throws -> StoredRun {
        try StoredRun(path: CompareTests.run(Fixture.folder(), "timing"))
    }

    static func check(_ comparison: LatencyComparison, _ name: String) -> RunComparison.Check? {
        comparison.checks.first { $0.name == name }
    }

    @Test func twiceAsSlowRegressesAndTheSameTimingsDoNot() throws {
        let run = try Self.anyRun()
        let settings = RunComparison.Settings()
        let base = try Self.samples(500)
        let same = try LatencyComparison(
            base: run, new: run, baseSamples: base, newSamples: Self.samples(500), settings: settings)
        #expect(same.checks.allSatisfy { !$0.regressed && $0.gated })
        let p50 = try #require(Self.check(same, "timing face p50_us"))
        #expect(p50.base == 1249 && p50.new == 1249)
        #expect(Self.check(same, "timing face p99_us")?.base == 1494)
        // decode + face per sample: 1.2 ms + i us, p50 1449 us.
        #expect(Self.check(same, "timing sample_total p50_us")?.base == 1449)

        let slower = try LatencyComparison(
            base: run, new: run, baseSamples: base, newSamples: Self.samples(500, scale: 2), settings: settings)
        #expect(Self.check(slower, "timing face p50_us")?.regressed == true)
        #expect(Self.check(slower, "timing face p99_us")?.regressed == true)
        #expect(Self.check(slower, "timing decode p50_us")?.regressed == false)
    }

    /// 1.2 x is under the default limit of 1.3 x: reported, not a regression.
    @Test func aSlowdownUnderTheLimitPasses() throws {
        let run = try Self.anyRun()
        let mild = try LatencyComparison(
            base: run, new: run, baseSamples: Self.samples(500), newSamples: Self.samples(500, scale: 1.2),
            settings: RunComparison.Settings())
        #expect(RunComparison.Settings().latencyRatio == 1.3)
        #expect(!mild.checks.contains { $0.regressed })
        #expect(
            Self.check(mild, "timing face p50_us")?.detail.hasPrefix("median of 500 per-sample ratios x1.200") == true)
    }

    /// p99 needs n >= 436 to be bounded at 97.5%: with 100 samples it is reported, not gated, even
    /// when twice as slow; fewer than `minSamples` timed samples are not gated at all.
    @Test func whatTheSampleCannotBoundIsNotGated() throws {
        let run = try Self.anyRun()
        let hundred = try LatencyComparison(
            base: run, new: run, baseSamples: Self.samples(100), newSamples: Self.samples(100, scale: 2),
            settings: RunComparison.Settings())
        let p99 = try #require(Self.check(hundred, "timing face p99_us"))
        #expect(!p99.gated && !p99.regressed && p99.test == "reported")
        #expect(Self.check(hundred, "timing face p50_us")?.regressed == true)

        let few = try LatencyComparison(
            base: run, new: run, baseSamples: Self.samples(20), newSamples: Self.samples(20, scale: 3),
            settings: RunComparison.Settings())
        #expect(few.checks.isEmpty)
        #expect(few.notes.contains { $0.hasPrefix("timing face: 20 and 20 timed samples, fewer than 30") })
    }

    /// `samples.csv` with wall (`face_ns`) and CPU (`cpu.face_ns`) times: wall `wallScale` x and CPU
    /// `cpuScale` x (1.000, 1.001, ...) ms.
    static func timedSamples(_ n: Int, wallScale: Double, cpuScale: Double) throws -> CSVTable {
        var text = "id,path,label,species,split,status,error,decode_ns,face_ns,cpu.decode_ns,cpu.face_ns\n"
        for i in 0..<n {
            let base = Double(1_000_000 + i * 1000)
            text += "s\(i),,bonafide,,none,ok,,200000,\(Int(wallScale * base)),200000,\(Int(cpuScale * base))\n"
        }
        return try CSVTable(bytes: Array(text.utf8), path: "samples.csv")
    }

    /// Wall time twice as long with the same CPU time (a loaded machine: the thread waited) is no
    /// regression on the default CPU clock: the CPU checks are gated and pass, the wall checks are
    /// shown, not gated. Twice the CPU time is one. `--latency-clock wall` gates wall time again.
    @Test func theCPUClockGatesWhereBothRunsHaveIt() throws {
        let run = try Self.anyRun()
        let base = try Self.timedSamples(500, wallScale: 1, cpuScale: 1)
        let waited = try LatencyComparison(
            base: run, new: run, baseSamples: base,
            newSamples: Self.timedSamples(500, wallScale: 2, cpuScale: 1), settings: RunComparison.Settings())
        #expect(!waited.checks.contains { $0.regressed })
        let cpu = try #require(Self.check(waited, "timing face cpu_p50_us"))
        #expect(cpu.gated && cpu.base == 1249 && cpu.new == 1249)
        let wall = try #require(Self.check(waited, "timing face p50_us"))
        #expect(
            !wall.gated && wall.detail.contains("wall clock, shown; gated on CPU time")
                && wall.detail.contains("x2.000"))
        // CPU time of every step: sample_total's CPU is gated too (decode 0.2 ms + face).
        #expect(Self.check(waited, "timing sample_total cpu_p50_us")?.base == 1449)

        let slower = try LatencyComparison(
            base: run, new: run, baseSamples: base,
            newSamples: Self.timedSamples(500, wallScale: 2, cpuScale: 2), settings: RunComparison.Settings())
        #expect(Self.check(slower, "timing face cpu_p50_us")?.regressed == true)

        var wallClock = RunComparison.Settings()
        wallClock.latencyClock = .wall
        let byWall = try LatencyComparison(
            base: run, new: run, baseSamples: base,
            newSamples: Self.timedSamples(500, wallScale: 2, cpuScale: 1), settings: wallClock)
        #expect(Self.check(byWall, "timing face p50_us")?.regressed == true)
        #expect(Self.check(byWall, "timing face cpu_p50_us") == nil)
    }

    /// A step with CPU time in one run only (a run stored before the columns, an external program)
    /// is gated on wall time, and says why.
    @Test func withoutCPUTimeOnBothSidesWallTimeIsGated() throws {
        let run = try Self.anyRun()
        let comparison = try LatencyComparison(
            base: run, new: run, baseSamples: Self.samples(500),
            newSamples: Self.timedSamples(500, wallScale: 2, cpuScale: 1), settings: RunComparison.Settings())
        let wall = try #require(Self.check(comparison, "timing face p50_us"))
        #expect(wall.gated && wall.regressed && wall.detail.contains("no CPU time of this step in both runs"))
    }

    /// Runs of the same samples in the same order are paired: the p50 check is the median of the
    /// per-sample ratios, and its interval is as narrow as the ratios agree, where the unpaired
    /// interval carries how much the samples differ. Here NEW is 1.1x BASE on every sample: the
    /// paired interval is [x1.1, x1.1]; with the ids renamed the runs are not paired and the
    /// interval of two independent p50s is wider. p99 is never paired.
    @Test func runsOfTheSameSamplesArePaired() throws {
        let run = try Self.anyRun()
        let base = try Self.samples(500)
        let paired = try LatencyComparison(
            base: run, new: run, baseSamples: base, newSamples: Self.samples(500, scale: 1.1),
            settings: RunComparison.Settings())
        let p50 = try #require(Self.check(paired, "timing face p50_us"))
        #expect(
            p50.detail.hasPrefix("median of 500 per-sample ratios x1.100, 95% interval [x1.100, x1.100]"),
            "\(p50.detail)")
        #expect(Self.check(paired, "timing face p99_us")?.detail.hasPrefix("x1.1") == true)
        var renamed = "id,path,label,species,split,status,error,decode_ns,face_ns\n"
        for i in 0..<500 { renamed += "t\(i),,bonafide,,none,ok,,200000,\(Int(1.1 * Double(1_000_000 + i * 1000)))\n" }
        let unpaired = try LatencyComparison(
            base: run, new: run, baseSamples: base,
            newSamples: CSVTable(bytes: Array(renamed.utf8), path: "samples.csv"),
            settings: RunComparison.Settings())
        let wide = try #require(Self.check(unpaired, "timing face p50_us"))
        #expect(
            wide.detail.hasPrefix("x1.100, 95% interval [x1.0") && !wide.detail.contains("per-sample"), "\(wide.detail)"
        )
    }

    /// `timing.csv` with a `reference` row of the given CPU p50 (us).
    static func timing(reference: Double) throws -> CSVTable {
        let text = "step,count,cpu_p50_us\ndecode,500,200\nreference,60,\(reference)\n"
        return try CSVTable(bytes: Array(text.utf8), path: "timing.csv")
    }

    /// The machine's speed: the same reference work 1.6x slower in NEW (other tenants of the host)
    /// makes every latency check "not gated" with the reference's ratio, even a real 2x slowdown;
    /// within the tolerance (1.1x) the slowdown is caught.
    @Test func anotherMachineSpeedIsNotGated() throws {
        let run = try Self.anyRun()
        let base = try Self.timedSamples(500, wallScale: 1, cpuScale: 1)
        let twice = try Self.timedSamples(500, wallScale: 2, cpuScale: 2)
        let slowMachine = try LatencyComparison(
            base: run, new: run, baseSamples: base, newSamples: twice, baseTiming: Self.timing(reference: 100),
            newTiming: Self.timing(reference: 160), settings: RunComparison.Settings())
        #expect(!slowMachine.checks.contains { $0.regressed || $0.gated })
        #expect(
            slowMachine.notes.contains {
                $0.contains("the machine ran at another speed (reference work x1.600 new / base, beyond x1.15)")
            })
        #expect(Self.check(slowMachine, "timing face cpu_p50_us")?.detail.contains("rerun") == true)
        let sameMachine = try LatencyComparison(
            base: run, new: run, baseSamples: base, newSamples: twice, baseTiming: Self.timing(reference: 100),
            newTiming: Self.timing(reference: 110), settings: RunComparison.Settings())
        #expect(Self.check(sameMachine, "timing face cpu_p50_us")?.regressed == true)
        // A faster machine is another speed too.
        let fastMachine = try LatencyComparison(
            base: run, new: run, baseSamples: base, newSamples: base, baseTiming: Self.timing(reference: 160),
            newTiming: Self.timing(reference: 100), settings: RunComparison.Settings())
        #expect(!fastMachine.checks.contains { $0.gated })
    }
}

import Foundation
import Testing
@testable import PadArchive
@testable import PadBench
@testable import PadReport

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

    /// 1.3 x is under the default limit of 1.5 x: reported, not a regression.
    @Test func aSlowdownUnderTheLimitPasses() throws {
        let run = try Self.anyRun()
        let mild = try LatencyComparison(
            base: run, new: run, baseSamples: Self.samples(500), newSamples: Self.samples(500, scale: 1.3),
            settings: RunComparison.Settings())
        #expect(!mild.checks.contains { $0.regressed })
        #expect(Self.check(mild, "timing face p50_us")?.detail.hasPrefix("x1.3") == true)
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
}

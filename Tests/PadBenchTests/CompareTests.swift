import Foundation
import Testing
@testable import PadArchive
@testable import PadBench
@testable import PadDataset
@testable import PadImage
@testable import PadProfiles
@testable import PadReport

@Suite struct CompareTests {
    /// A bench run of 8 bona fide and 8 attacks, then the same measurements decided by a lenient and
    /// a strict profile that share a name: the strict one rejects every bona fide presentation.
    static func runs(count: Int = 8) async throws -> (base: String, new: String, bench: String) {
        let root = Fixture.folder()
        var manifest = "path,label,species,split,subject\n"
        for i in 0..<count {
            Fixture.write(try ImageEncoder.jpeg(Fixture.image(contrast: 50, seed: i), quality: 95), root + "/b\(i).jpg")
            manifest += "b\(i).jpg,bonafide,,,\n"
            Fixture.write(try ImageEncoder.jpeg(Fixture.image(contrast: 3, seed: i), quality: 60), root + "/a\(i).jpg")
            manifest += "a\(i).jpg,attack,print,,\n"
        }
        try manifest.write(toFile: root + "/manifest.csv", atomically: true, encoding: .utf8)
        let loader = ProfileLoader(catalogue: EstimatorCatalog.outputs())
        let bench = try await BenchRunner().run(BenchJob(dataset: DatasetLoader().load(root), profiles: [try loader.builtIn("basic")],
                                                         outputFolder: root + "/bench", concurrency: 2))
        func profile(_ threshold: Double) throws -> Profile {
            try loader.load(yaml: "name: gate\nsource: test\ngates:\n  - {output: quality.sharpness, op: ge, value: \(threshold)}\n", file: "gate.yaml")
        }
        _ = try EvalRunner().evaluateArchive(bench.archivePath, profiles: [profile(0)], outputFolder: root + "/base", commandLine: [])
        _ = try EvalRunner().evaluateArchive(bench.archivePath, profiles: [profile(1e12)], outputFolder: root + "/new", commandLine: [])
        return (root + "/base", root + "/new", root + "/bench")
    }

    @Test func significantRiseIsARegressionAndSelfComparisonIsNot() async throws {
        let (base, new, bench) = try await Self.runs()
        let same = try RunComparison(base: StoredRun(path: base), new: StoredRun(path: base))
        #expect(!same.regressed && same.missing.isEmpty)
        let worse = try RunComparison(base: StoredRun(path: base), new: StoredRun(path: new))
        #expect(worse.regressed)
        let bpcer = worse.checks.first { $0.name == "gate bpcer" }!
        #expect(bpcer.base == 0 && bpcer.new == 1 && bpcer.regressed)
        #expect(!worse.checks.first { $0.name == "gate apcer_max" }!.regressed)   // APCER fell: no regression
        #expect(worse.junit.contains("<failure"))
        // The other direction: BPCER falls, but APCER rises from 0/8 to 8/8: a regression too.
        let back = try RunComparison(base: StoredRun(path: new), new: StoredRun(path: base))
        #expect(back.checks.filter(\.regressed).map(\.name) == ["gate apcer_max"])
        // Profiles on one side only are reported as missing, not as zero.
        let mixed = try RunComparison(base: StoredRun(path: bench), new: StoredRun(path: base))
        #expect(mixed.missing.contains("profile basic: only in BASE") && mixed.missing.contains("profile gate: only in NEW"))
    }

    @Test func foldSummaryGivesMeanAndSampleStandardDeviation() async throws {
        let (base, new, bench) = try await Self.runs()
        let folds = try FoldSummary(runs: [StoredRun(path: base), StoredRun(path: new)])
        // BPCER 0/8 and 8/8: mean 0.5, sample std sqrt(((0 - 0.5)^2 + (1 - 0.5)^2) / 1) = sqrt(0.5).
        let bpcer = folds.rows.first { $0[0] == "gate" && $0[1] == "bpcer" }!
        #expect(bpcer[2] == "2" && bpcer[3] == "0.5" && Double(bpcer[4])! == 0.5.squareRoot() && bpcer[5] == "0" && bpcer[6] == "1")
        #expect(throws: ComparisonError.self) { try FoldSummary(runs: [StoredRun(path: base), StoredRun(path: bench)]) }
    }

    @Test func foreignAndDifferentDataAreErrors() async throws {
        let (base, _, _) = try await Self.runs()
        let other = try await Self.runs(count: 9)
        #expect(throws: ComparisonError.self) { try RunComparison(base: StoredRun(path: base), new: StoredRun(path: other.base)) }
        var settings = RunComparison.Settings()
        settings.allowDifferentDataset = true
        #expect(!(try RunComparison(base: StoredRun(path: base), new: StoredRun(path: other.base), settings: settings)).regressed)
        let junk = Fixture.folder() + "/junk.tar.zst"
        try Data("not an archive".utf8).write(to: URL(fileURLWithPath: junk))
        #expect(throws: ArchiveError.self) { try StoredRun(path: junk) }
    }
}

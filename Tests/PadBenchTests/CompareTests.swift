import Foundation
import Testing
@testable import PadArchive
@testable import PadBench
@testable import PadImage
@testable import PadMetrics
@testable import PadProfiles
@testable import PadReport
@testable import PadRuns

@Suite struct CompareTests {
    /// A generic score file of 20 bona fide (0.55, 0.6, ...) and 20 print attacks (0.05 ... ),
    /// with `shift` added to the attack scores whose index is below `raised`.
    static func scores(_ folder: String, _ name: String, raised: Int = 0, shift: Double = 0, extraSample: Bool = false)
        -> String
    {
        var text = "id,label,species,score\n"
        for i in 0..<20 { text += "bf\(i),bonafide,,\(0.55 + Double(i) * 0.02)\n" }
        for i in 0..<20 { text += "at\(i),attack,print,\(0.05 + Double(i) * 0.02 + (i < raised ? shift : 0))\n" }
        if extraSample { text += "extra,attack,print,0.1\n" }
        let path = folder + "/\(name).csv"
        try! text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func run(
        _ folder: String, _ name: String, threshold: Double = 0.5, raised: Int = 0, shift: Double = 0,
        extraSample: Bool = false
    ) throws -> String {
        let file = scores(folder, name, raised: raised, shift: shift, extraSample: extraSample)
        return try EvalRunner().evaluateScores(
            .init(scoreFiles: [file], threshold: threshold, outputFolder: folder + "/" + name)
        ).folder
    }

    /// Raising 12 of 20 attacks above the threshold: APCER[print] 0/20 -> 12/20 with 12 discordant
    /// pairs all worse: McNemar p = 0.5^12 = 0.00024 < 0.05, a regression named by species.
    @Test func pairedScoreRunsRegressByMcNemarAndSelfComparisonDoesNot() throws {
        let folder = Fixture.folder()
        let base = try Self.run(folder, "base")
        let worse = try Self.run(folder, "worse", raised: 12, shift: 0.6)
        let same = try RunComparison(base: StoredRun(path: base), new: StoredRun(path: base))
        #expect(!same.regressed && same.paired)
        let comparison = try RunComparison(base: StoredRun(path: base), new: StoredRun(path: worse))
        let apcer = comparison.checks.first { $0.name == "scores apcer[print]" }!
        #expect(apcer.regressed && apcer.test == "mcnemar" && apcer.base == 0 && apcer.new == 0.6)
        #expect(abs(McNemar.oneSidedPValue(worse: 12, better: 0) - 1.0 / 4096) < 1e-15)
        #expect(comparison.regressed && comparison.junit.contains("<failure"))
        // The other direction is an improvement.
        #expect(!(try RunComparison(base: StoredRun(path: worse), new: StoredRun(path: base))).regressed)
        // One attack raised: 0/20 -> 1/20 is above the 0.5 pp tolerance but p = 0.5: not significant.
        let one = try Self.run(folder, "one", raised: 1, shift: 0.6)
        #expect(!(try RunComparison(base: StoredRun(path: base), new: StoredRun(path: one))).regressed)
    }

    /// A profile decided differently under the same name, or a profile on one side only, is not
    /// comparable (exit 2), never "no regression".
    @Test func nothingPassesByOmission() throws {
        let folder = Fixture.folder()
        let base = try Self.run(folder, "base")
        let otherThreshold = try Self.run(folder, "other", threshold: 0.6)
        #expect(throws: ComparisonError.self) {
            try RunComparison(base: StoredRun(path: base), new: StoredRun(path: otherThreshold))
        }
        var latencyOnly = RunComparison.Settings()
        latencyOnly.gate = .latency
        #expect(throws: ComparisonError.self) {
            try RunComparison(base: StoredRun(path: base), new: StoredRun(path: base), settings: latencyOnly)
        }
    }

    @Test func differentSamplesNeedTheFlagAndUseIntervals() throws {
        let folder = Fixture.folder()
        let base = try Self.run(folder, "base")
        let more = try Self.run(folder, "more", extraSample: true)
        #expect(throws: ComparisonError.self) {
            try RunComparison(base: StoredRun(path: base), new: StoredRun(path: more))
        }
        var settings = RunComparison.Settings()
        settings.allowDifferentDataset = true
        let comparison = try RunComparison(base: StoredRun(path: base), new: StoredRun(path: more), settings: settings)
        #expect(
            !comparison.regressed && !comparison.paired && comparison.checks.contains { $0.test == "clopper-pearson" })
        let junk = Fixture.folder() + "/junk.tar.zst"
        try Data("not an archive".utf8).write(to: URL(fileURLWithPath: junk))
        #expect(throws: ArchiveError.self) { try StoredRun(path: junk) }
    }

    @Test func foldSummaryGivesMeanAndSampleStandardDeviation() throws {
        let folder = Fixture.folder()
        let base = try Self.run(folder, "base")
        let worse = try Self.run(folder, "worse", raised: 12, shift: 0.6)
        let folds = try FoldSummary(runs: [StoredRun(path: base), StoredRun(path: worse)])
        // APCER_max 0/20 and 12/20: mean 0.3, sample std sqrt(((0 - 0.3)^2 + (0.6 - 0.3)^2) / 1) = sqrt(0.18).
        let apcer = folds.rows.first { $0[0] == "scores" && $0[1] == "apcer_max" }!
        #expect(
            apcer[2] == "2" && apcer[3] == "0.3" && abs(Double(apcer[4])! - 0.18.squareRoot()) < 1e-12
                && apcer[5] == "0" && apcer[6] == "0.6")
        // What people read: min and max with the counts of their fold; EER has no counts.
        let typed = try #require(folds.statistics.first { $0.profile == "scores" && $0.metric == "apcer_max" })
        #expect(typed.folds.map(\.errors) == [0, 12] && typed.folds.map(\.total) == [20, 20])
        #expect(typed.terminalRow == ["scores", "apcer_max", "2", "30.0%", "42.4%", "0.0% (0/20)", "60.0% (12/20)"])
        let eer = try #require(folds.statistics.first { $0.profile == "scores" && $0.metric == "eer" })
        #expect(eer.folds.allSatisfy { $0.errors == nil } && !eer.min.text.contains("("))
        #expect(throws: ComparisonError.self) { try FoldSummary(runs: [StoredRun(path: base), StoredRun(path: base)]) }
    }

    /// An edited samples.csv no longer matches the manifest's fingerprint and is refused.
    @Test func editedArchivesAreRefused() throws {
        let folder = Fixture.folder()
        let base = try Self.run(folder, "base")
        let run = try StoredRun(path: base)
        _ = try run.verifiedSamples()
        // Rewrite the archive with one label flipped in samples.csv.
        let reader = try ResultArchiveReader(path: base + "/results.tar.zst")
        let writer = try ResultArchiveWriter(finalPath: folder + "/edited.tar.zst")
        for name in reader.entryNames {
            var bytes = try reader.entry(named: name)
            if name == "samples.csv" {
                bytes = Array(
                    String(decoding: bytes, as: UTF8.self).replacingOccurrences(
                        of: "bf3,,bonafide", with: "bf3,,attack"
                    ).utf8)
            }
            try writer.add(name: name, contents: bytes)
        }
        try writer.commit()
        #expect(throws: ArchiveError.self) { try StoredRun(path: folder + "/edited.tar.zst").verifiedSamples() }
    }
}

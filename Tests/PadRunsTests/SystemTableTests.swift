import Foundation
import Testing
import TestSupport
@testable import PadMetrics
@testable import PadReport
@testable import PadRuns

/// `padbench table`: the ranking and the pairwise McNemar tests worked by hand, and each pair's
/// tests against what `compare` (``RunComparison``) gives for the same two runs.
@Suite struct SystemTableTests {
    typealias Decided = AccuracyComparison.Decided

    /// EER ascending, ties by BPCER at the first target, then the order given; nil after every
    /// number; rows equal on both share the rank of the first of them.
    @Test func rankingByEERThenFirstTarget() {
        let keys: [(eer: Double?, bpcer: Double?)] = [
            (0.10, 0.30), // 0: third of the three at EER 10%
            (0.05, 0.50), // 1: lowest EER: rank 1
            (0.10, 0.20), // 2: EER 10%, BPCER 20%: rank 2
            (nil, 0.01), // 3: no EER: last, whatever its BPCER
            (0.10, 0.20), // 4: equal to row 2 on both: rank 2 too, after it
            (0.10, nil), // 5: EER 10%, target not met: after every BPCER at 10%
        ]
        let (order, ranks) = SystemTable.ranking(keys)
        #expect(order == [1, 2, 4, 0, 5, 3])
        #expect(ranks == [1, 2, 2, 4, 5, 6])
    }

    /// Six bona fide, six print and two replay attacks decided by two systems.
    /// Bona fide (an error is a rejection): b1, b2, b3 accepted by the first and rejected by the
    /// second, b4 the other way round, b5 accepted by both, b6 rejected by both: discordant 1 / 3.
    /// p (second worse) = P(X >= 3), X ~ Bin(4, 1/2) = (4 + 1) / 16 = 0.3125;
    /// p (first worse) = P(X >= 1) = 15 / 16 = 0.9375; two-sided = 2 x 0.3125 = 0.625.
    /// Print (an error is an acceptance): p1-p5 accepted by the first only, p6 rejected by both:
    /// discordant 5 / 0. p (second worse) = 1 (no sample got worse); p (first worse) = 1 / 32 =
    /// 0.03125; two-sided 0.0625.
    /// Replay: r1 accepted by both, r2 rejected by both: no discordant sample, every p = 1.
    /// x1 is decided by the first system only: it pairs with nothing and counts nowhere.
    @Test func mcnemarOfAHandMadeCase() {
        var first: [String: Decided] = [:], second: [String: Decided] = [:]
        for (id, a, b) in [("b1", true, false), ("b2", true, false), ("b3", true, false), ("b4", false, true)]
            + [("b5", true, true), ("b6", false, false)]
        {
            first[id] = Decided(species: nil, accepted: a)
            second[id] = Decided(species: nil, accepted: b)
        }
        for k in 1...5 {
            first["p\(k)"] = Decided(species: "print", accepted: true)
            second["p\(k)"] = Decided(species: "print", accepted: false)
        }
        first["p6"] = Decided(species: "print", accepted: false)
        second["p6"] = Decided(species: "print", accepted: false)
        for (id, accepted) in [("r1", true), ("r2", false)] {
            first[id] = Decided(species: "replay", accepted: accepted)
            second[id] = Decided(species: "replay", accepted: accepted)
        }
        first["x1"] = Decided(species: "print", accepted: true)
        let tests = SystemTable.mcnemar(first, second)
        #expect(Set(tests.keys) == ["", "print", "replay"])
        let bonaFide = tests[""]!, print = tests["print"]!, replay = tests["replay"]!
        #expect(bonaFide.firstOnlyWrong == 1 && bonaFide.secondOnlyWrong == 3)
        // McNemar sums binomial terms through lgamma: equal to the fractions up to rounding.
        #expect(abs(bonaFide.pSecondWorse - 0.3125) < 1e-12 && abs(bonaFide.pFirstWorse - 0.9375) < 1e-12)
        #expect(abs(bonaFide.pTwoSided - 0.625) < 1e-12)
        #expect(print.firstOnlyWrong == 5 && print.secondOnlyWrong == 0)
        #expect(print.pSecondWorse == 1 && abs(print.pFirstWorse - 0.03125) < 1e-12)
        #expect(abs(print.pTwoSided - 0.0625) < 1e-12)
        #expect(replay == SystemTable.McNemarTest(firstOnlyWrong: 0, secondOnlyWrong: 0) && replay.pTwoSided == 1)
    }

    /// Three score runs of one threshold on the same 40 samples (the replay attacks raised by 0,
    /// 0.2 and 0.3, listed worst first): ranked by EER, and every pair's McNemar counts and
    /// one-sided p-values, and its paired bootstrap of the EER, are those of `compare FIRST SECOND`
    /// (and `compare SECOND FIRST` for the other one-sided p).
    @Test func threeScoreRunsRankAndPairAsCompare() throws {
        let folder = TestFolder.root + "/padbench-table-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let paths = try [("worst", 0.3), ("best", 0.0), ("middle", 0.2)].map { name, raise in
            try Self.evalRun(folder, name, raise: raise)
        }
        let runs = try paths.map { (label: OverlayPlots.label(of: $0), run: try StoredRun(path: $0)) }
        let table = try SystemTable(runs: runs)
        #expect(table.rows.map(\.label) == ["best", "middle", "worst"])
        #expect(table.rows.map(\.rank) == [1, 2, 3])
        #expect(table.pairs.count == 3 && table.pairs.allSatisfy(\.paired))
        let byLabel = Dictionary(uniqueKeysWithValues: runs.map { ($0.label, $0.run) })
        for pair in table.pairs {
            let a = byLabel[table.rows[pair.first].label]!, b = byLabel[table.rows[pair.second].label]!
            let forward = try RunComparison(base: a, new: b), backward = try RunComparison(base: b, new: a)
            #expect(pair.rates.map(\.metric) == ["bpcer", "apcer[print]", "apcer[replay]"])
            for test in pair.rates {
                let m = try #require(test.mcnemar)
                let there = try #require(forward.checks.first { $0.name == "scores \(test.metric)" })
                let back = try #require(backward.checks.first { $0.name == "scores \(test.metric)" })
                #expect(there.test == "mcnemar" && back.test == "mcnemar")
                #expect(
                    there.detail.contains(
                        "discordant: \(m.secondOnlyWrong) now wrong, \(m.firstOnlyWrong) now right; "
                            + "one-sided exact McNemar p = \(RateText.fixed(m.pSecondWorse, 4))"), "\(there.detail)")
                #expect(
                    back.detail.contains(
                        "discordant: \(m.firstOnlyWrong) now wrong, \(m.secondOnlyWrong) now right; "
                            + "one-sided exact McNemar p = \(RateText.fixed(m.pFirstWorse, 4))"), "\(back.detail)")
            }
            let eer = try #require(pair.eer?.metrics.first)
            let there = try #require(forward.checks.first { $0.name == "scores eer" })
            #expect(there.test == "paired-bootstrap" && there.base == eer.base && there.new == eer.new)
            let rise = try #require(eer.rise), low = try #require(eer.lowerBound)
            #expect(
                there.detail.contains(
                    "new - base \(RateText.percentagePoints(rise)), one-sided 95% interval [\(RateText.percentagePoints(low)), +inf)"
                ), "\(there.detail)")
        }
        // The worst row's replay APCER rises beyond chance against the best: 6 of 10 replay attacks
        // accepted at 0.45 (0.48 to 0.63; the fourth is 0.06 + 0.09 + 0.3 = 0.44999999999999996)
        // where the best accepts none: p = 1 / 2^6.
        let extremes = try #require(
            table.pairs.first { table.rows[$0.first].label == "best" && table.rows[$0.second].label == "worst" })
        let replay = try #require(extremes.rates.first { $0.metric == "apcer[replay]" }?.mcnemar)
        #expect(replay.firstOnlyWrong == 0 && replay.secondOnlyWrong == 6)
        #expect(abs(replay.pSecondWorse - 1.0 / 64) < 1e-12)
    }

    /// `padbench eval` (the executable beside the test bundle) of 20 bona fide and 10 print and 10
    /// replay attacks, `raise` added to the replay scores, accepted at 0.45.
    static func evalRun(_ folder: String, _ name: String, raise: Double) throws -> String {
        var text = "id,label,species,score\n"
        for i in 0..<20 { text += "bf\(i),bonafide,,\(0.5 + Double(i) * 0.025)\n" }
        for i in 0..<10 { text += "p\(i),attack,print,\(0.05 + Double(i) * 0.03)\n" }
        for i in 0..<10 { text += "r\(i),attack,replay,\(0.06 + Double(i) * 0.03 + raise)\n" }
        let file = folder + "/\(name).csv", out = folder + "/" + name
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: padbench)
        process.arguments = ["eval", "--scores", file, "--threshold", "0.45", "--out", out]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return out + "/results.tar.zst"
    }

    /// The built `padbench` beside the test bundle (`swift build --build-tests` builds both).
    static let padbench: String = {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("padbench").path)
            && folder.path != "/"
        {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("padbench").path
    }()
}

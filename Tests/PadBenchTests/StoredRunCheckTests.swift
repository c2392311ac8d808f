import Foundation
import Testing
@testable import PadArchive
@testable import PadBench
@testable import PadMetrics
@testable import PadReport
@testable import PadRuns

/// Stored runs are checked, not trusted: each archive edit of issue 25 is refused by
/// ``StoredRun/verify()`` (and so by `compare`, `show` and `folds`) with the number that disagrees.
/// The run: `CompareTests.run`, 20 bona fide and 20 print attacks of one profile `scores`
/// (threshold 0.5: every bona fide accepted, every attack rejected), 40 decision rows.
@Suite struct StoredRunCheckTests {
    /// A copy of `archive` with `edit` applied to the member `name`.
    static func edited(_ archive: String, _ name: String, to copy: String, _ edit: (String) -> String) throws -> String
    {
        let reader = try ResultArchiveReader(path: archive)
        let writer = try ResultArchiveWriter(finalPath: copy)
        for member in reader.entryNames {
            var bytes = try reader.entry(named: member)
            if member == name { bytes = Array(edit(String(decoding: bytes, as: UTF8.self)).utf8) }
            try writer.add(name: member, contents: bytes)
        }
        try writer.commit()
        return copy
    }

    static func mismatch(_ path: String) -> String? {
        do {
            try StoredRun(path: path).verify()
            return nil
        } catch {
            return "\(error)"
        }
    }

    static func base() throws -> (folder: String, archive: String) {
        let folder = Fixture.folder()
        let run = try CompareTests.run(folder, "base")
        return (folder, run + "/results.tar.zst")
    }

    @Test func untouchedRunsPass() throws {
        let (_, archive) = try Self.base()
        #expect(Self.mismatch(archive) == nil)
        // Bench runs (failures of every kind, shards, calibrated profiles) and merges are verified
        // in BenchRunnerTests and MergeTests.
    }

    /// Every bona fide rejected in decisions.csv while results.json still says BPCER 0/20:
    /// today `compare` saw "20 now wrong" and passed, since it gated the stored rates.
    @Test func decisionsEditedToRejectEveryBonaFideAreNamed() throws {
        let (folder, archive) = try Self.base()
        let copy = try Self.edited(archive, "decisions.csv", to: folder + "/rejected.tar.zst") {
            $0.replacingOccurrences(of: ",bonafide,,ok,1,,", with: ",bonafide,,ok,0,score,below the threshold")
        }
        let message = try #require(Self.mismatch(copy))
        #expect(message == "\(copy):results.json: profile scores on all has BPCER 0/20, decisions.csv gives 20/20")
        #expect(throws: ComparisonError.self) {
            try RunComparison(base: StoredRun(path: archive), new: StoredRun(path: copy))
        }
        #expect(throws: StoredRunMismatch.self) {
            try FoldSummary(runs: [StoredRun(path: archive), StoredRun(path: copy)])
        }
    }

    /// results.json claiming BPCER 18/20 with the interval [0%, 16.8%]: the interval of 18/20 is
    /// [68.3%, 98.8%] (scipy.stats.beta.ppf(0.025, 18, 3) = 0.6830, ppf(0.975, 19, 2) = 0.9877).
    @Test func aRateWhoseIntervalIsNotItsCountsIsNamed() throws {
        let (folder, archive) = try Self.base()
        let copy = try Self.edited(archive, "results.json", to: folder + "/claimed.tar.zst") { text in
            var summary = try! RunSummary.decode(from: Array(text.utf8), path: "results.json")
            summary.profiles[0].reported.bpcer = RunSummary.Rate(Proportion(errors: 18, total: 20))
            summary.profiles[0].reported.bpcer!.ciLow = 0
            summary.profiles[0].reported.bpcer!.ciHigh = 0.168
            return String(decoding: try! summary.encoded(), as: UTF8.self)
        }
        let message = try #require(Self.mismatch(copy))
        #expect(
            message
                == "\(copy):results.json: profile scores BPCER on all 18/20 has 95% CI [0.0%, 16.8%], "
                + "its counts give [68.3%, 98.8%]")
        let (low, high) = ClopperPearson.interval(errors: 18, total: 20)
        #expect(abs(low - 0.6830) < 5e-5 && abs(high - 0.9877) < 5e-5)
        // The interval right but the counts not the decisions': named by the decisions.
        let consistent = try Self.edited(archive, "results.json", to: folder + "/consistent.tar.zst") { text in
            var summary = try! RunSummary.decode(from: Array(text.utf8), path: "results.json")
            summary.profiles[0].reported.bpcer = RunSummary.Rate(Proportion(errors: 18, total: 20))
            return String(decoding: try! summary.encoded(), as: UTF8.self)
        }
        #expect(
            Self.mismatch(consistent)
                == "\(consistent):results.json: profile scores on all has BPCER 18/20, decisions.csv gives 0/20")
    }

    /// decisions.csv cut to 19 of its 40 rows, or every row twice.
    @Test func missingAndDoubledRowsAreNamed() throws {
        let (folder, archive) = try Self.base()
        let cut = try Self.edited(archive, "decisions.csv", to: folder + "/cut.tar.zst") { text in
            text.split(separator: "\n").prefix(20).joined(separator: "\n") + "\n"
        }
        #expect(
            Self.mismatch(cut)
                == "\(cut):decisions.csv: profile scores has 19 rows, the manifest 40 samples (rows missing)")
        let doubled = try Self.edited(archive, "decisions.csv", to: folder + "/doubled.tar.zst") { text in
            let lines = text.split(separator: "\n")
            return ([lines[0]] + lines.dropFirst().flatMap { [$0, $0] }).joined(separator: "\n") + "\n"
        }
        #expect(
            Self.mismatch(doubled)
                == "\(doubled):decisions.csv: profile scores has 80 rows, the manifest 40 samples (rows doubled)")
        // One row doubled in place of another: the count holds, the fingerprint does not.
        let swapped = try Self.edited(archive, "decisions.csv", to: folder + "/swapped.tar.zst") { text in
            var lines = text.split(separator: "\n")
            lines[2] = lines[1]
            return lines.joined(separator: "\n") + "\n"
        }
        #expect(Self.mismatch(swapped)?.contains("the rows of profile scores are not the manifest's samples") == true)
        // A row no padbench writes.
        let odd = try Self.edited(archive, "decisions.csv", to: folder + "/odd.tar.zst") {
            $0.replacingOccurrences(of: "bf3,scores,,bonafide,,ok,1,,", with: "bf3,scores,,bonafide,,ok,yes,,")
        }
        #expect(
            Self.mismatch(odd)
                == "\(odd):decisions.csv line 5: accepted 'yes' (1, 0, or empty for a failed sample)")
    }
}

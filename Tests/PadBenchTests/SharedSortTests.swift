import Foundation
import PadVocabulary
import Testing
@testable import PadBench
@testable import PadEvaluation
@testable import PadMetrics
import PadProfiles
@testable import PadReport
import TestSupport

/// `eval --scores` keeps the profile's sorted scores and `outputs.csv` reuses them (and, for the
/// `(all)` row, the profile's curve): every row equals the one computed on its own.
@Suite struct SharedSortTests {
    /// Ties, +-0, infinities, failures (NaN, status failed) and splits; `heldValue` adds processed
    /// samples without a value (the profile rejects them at every threshold).
    static func table(speciesFirst: String, heldValue: Bool = false, split: Bool = true) -> MeasurementTable {
        var table = MeasurementTable(columns: [EvalRunner.scoreOutput])
        let scores: [Double] = [0, -0.0, 0.5, .infinity, -.infinity, 0.25, -0.25, 0.5, 0, 1]
        for k in 0..<300 {
            let label: Label =
                k % 3 == 0 ? .bonaFide : .attack(species: k % 3 == 1 ? speciesFirst : "other")
            let score = k % 17 == 0 ? Double.nan : scores[k % scores.count] * Double(1 + k % 4)
            let status: SampleStatus =
                score.isNaN && !(heldValue && k % 2 == 0) ? .failed(code: .noScore, message: "no score") : .ok
            let rowSplit: Split = split ? (k % 5 == 0 ? .dev : .eval) : .none
            table.append(id: "s\(k)", label: label, split: rowSplit, status: status, values: [score])
        }
        return table
    }

    static func results(_ table: MeasurementTable, keep: Bool) throws -> [ProfileResult] {
        let job = EvalRunner.ScoreJob(scoreFiles: ["x.csv"], criterion: .bpcerAtAPCER(0.05), outputFolder: "")
        var evaluator = ProfileEvaluator(table: table, choosesOnReportedSetWithoutCalibrationSplit: true)
        evaluator.keepsSortedScores = keep
        return try evaluator.evaluate([try EvalRunner.scoreProfile(job, files: ["x.csv"])])
    }

    static func csv(_ rows: [OutputSeparation.Row]) -> [[String]] { OutputSeparation.table(rows).rows }

    @Test func outputsRowsFromTheProfilesSortEqualTheirOwnComputation() throws {
        // "a-print" sorts before "other": the (all) row is the set itself (the profile's curve);
        // "z-print" after it: the (all) row reorders the species (its own curve from the shared sort).
        for first in ["a-print", "z-print"] {
            for split in [true, false] {
                let table = Self.table(speciesFirst: first, split: split)
                let kept = try Self.results(table, keep: true)
                #expect(kept[0].reported.scoreMetrics?.sortedScores != nil)
                #expect(try Self.results(table, keep: false)[0].reported.scoreMetrics?.sortedScores == nil)
                #expect(RunStatistics.sharedSort(of: EvalRunner.scoreOutput, results: kept, table: table) != nil)
                let shared = try RunStatistics.outputSeparation(table, results: kept)
                let alone = try RunStatistics.outputSeparation(table)
                #expect(shared.count == 3 && Self.csv(shared) == Self.csv(alone), "\(first) split \(split)")
            }
        }
    }

    /// Processed samples without a value are rejected at every threshold by the profile but left
    /// out of outputs.csv: those sorted scores are not shared, and the rows stay their own.
    @Test func aProfileThatRejectsSamplesAtEveryThresholdSharesNothing() throws {
        let table = Self.table(speciesFirst: "a-print", heldValue: true)
        let kept = try Self.results(table, keep: true)
        #expect(kept[0].reported.scoreMetrics?.sortedScores?.rejectsNoneAtEveryThreshold == false)
        #expect(RunStatistics.sharedSort(of: EvalRunner.scoreOutput, results: kept, table: table) == nil)
        let rows = try RunStatistics.outputSeparation(table, results: kept)
        #expect(Self.csv(rows) == Self.csv(try RunStatistics.outputSeparation(table)))
        #expect(rows.allSatisfy { $0.missingBonaFide + $0.missingAttacks > 0 })
    }

    /// A shared sort whose class counts differ from the values' is not used.
    @Test func aSharedSortOfOtherSamplesIsNotUsed() throws {
        var other = ScoreSet(speciesNames: ["print"])
        other.append(score: 9, speciesIndex: -1)
        other.append(score: -9, speciesIndex: 0)
        let values: [Double] = [0.5, 0.25, .nan, 0.75], species: [Int32] = [-1, 0, 0, -1]
        let mismatched = OutputSeparation.SharedSort(sorted: SortedScores(other), curve: try ErrorCurve(other))
        let rows = OutputSeparation.rows(
            output: "o", values: values, species: species, speciesNames: ["print"], shared: mismatched)
        let alone = OutputSeparation.rows(output: "o", values: values, species: species, speciesNames: ["print"])
        #expect(Self.csv(rows) == Self.csv(alone))
        // Hand-computed: bona fide 0.5, 0.75 against print 0.25: AUC 1, EER 0 (every t in (0.25, 0.5]
        // separates; bob.measure's eer_threshold gives the midpoint 0.375), 2 bona fide, 1 attack,
        // 1 attack missing.
        #expect(Self.csv(rows) == [["o", "print", "higher-bona-fide", "1", "0", "0.375", "2", "1", "0", "1"]])
    }
}

/// The table of a score file is built without an array of labels or of statuses: its labels,
/// statuses (failed `no_score` with its message for NaN/empty scores), splits and values are
/// those of the table built from such arrays.
@Suite struct ScoreTableTests {
    @Test func scoreTableEqualsTheTableBuiltFromLabelAndStatusArrays() throws {
        let path = TestFolder.root + "/padbench-table-\(UUID().uuidString).csv"
        try Data(
            ("id,label,species,score,split\na,bonafide,,0.5,dev\nb,attack,print,,eval\n"
                + "c,attack,replay,-0,test\nd,bonafide,,nan,eval\ne,attack,print,inf,train\n").utf8
        ).write(to: URL(fileURLWithPath: path))
        let scores = try ScoreFileReader().read([path])
        let table = try EvalRunner.table(eval: scores, dev: nil)
        let labels: [Label] = [
            .bonaFide, .attack(species: "print"), .attack(species: "replay"), .bonaFide,
            .attack(species: "print"),
        ]
        let statuses: [SampleStatus] = [
            .ok, .failed(code: .noScore, message: "no score in the file"), .ok,
            .failed(code: .noScore, message: "no score in the file"), .ok,
        ]
        let reference = MeasurementTable(
            columns: [EvalRunner.scoreOutput], ids: ["a", "b", "c", "d", "e"], labels: labels,
            splits: [.dev, .eval, .eval, .eval, .train], statuses: statuses, values: [scores.set.scores],
            speciesIndex: [-1, 0, 1, -1, 0], speciesNames: ["print", "replay"])
        #expect(Array(table.labels) == labels && Array(reference.labels) == labels)
        #expect(Array(table.statuses) == statuses && Array(reference.statuses) == statuses)
        #expect(table.failedCount == 2 && table.splits == reference.splits)
        #expect(table.values[0].map(\.bitPattern) == [0.5, .nan, -0.0, .nan, .infinity].map(\.bitPattern))
        #expect(DatasetFingerprint.of(table) == DatasetFingerprint.of(reference))
    }
}

/// A score file's presentations are checked (one presentation, one label, species and split)
/// by the numbers their interning gave them (an array of first rows, no second dictionary of
/// names): the first conflict is the error of the check by names, with the same lines, whichever
/// half of the file it falls in; without a conflict the interned presentations are those of the
/// rows in order.
@Suite struct PresentationCheckBesideInterningTests {
    static func read(_ text: String, split: Bool) throws -> ImportedScores {
        let path = TestFolder.root + "/padbench-frames-\(UUID().uuidString).csv"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var reader = ScoreFileReader()
        reader.parallelScanBytes = split ? 1 : Int.max
        return try reader.read([path])
    }

    static func lines() -> [String] {
        var lines = ["id,label,species,score,presentation,split"]
        for k in 0..<400 {
            let video = k / 5, bonaFide = video % 3 == 0
            lines.append(
                "f\(k),\(bonaFide ? "bonafide," : "attack,print"),0.\(k % 9),v\(video),\(video % 4 == 0 ? "dev" : "eval")"
            )
        }
        return lines
    }

    @Test func conflictsNameTheSameLinesAsACheckAlone() throws {
        // Line 352 (frame 350, video 70, attack) joins video 3 (bona fide, line 17 first): a label
        // conflict in the second half; line 303 (frame 301, eval) joins video 56 (dev, line 282
        // first): a split.
        var labels = Self.lines()
        labels[351] = "f350,attack,print,0.5,v3,eval"
        var splits = Self.lines()
        splits[302] = "f301,attack,print,0.5,v56,eval"
        for (lines, message) in [
            (labels, "presentation 'v3' spans two labels: 'attack' here, 'bonafide' at "),
            (splits, "presentation 'v56' spans two splits: 'eval' here, 'dev' at "),
        ] {
            for split in [false, true] {
                let scores = try Self.read(lines.joined(separator: "\n") + "\n", split: split)
                var alone: ScoreFileError?
                do { try scores.checkPresentations { scores.splits[$0] } } catch {
                    alone = error
                }
                let expected = try #require(alone)
                #expect(expected.message.hasPrefix(message))
                #expect(throws: expected) { try EvalRunner.table(eval: scores, dev: nil) }
            }
        }
    }

    @Test func internedPresentationsAreTheRowsInOrder() throws {
        let scores = try Self.read(Self.lines().joined(separator: "\n"), split: true)
        let table = try EvalRunner.table(eval: scores, dev: nil)
        #expect(Array(table.presentations) == scores.presentations && table.presentations.names.count == 80)
        #expect(table.presentations.names.first == "v0" && table.presentations.names.last == "v79")
    }
}

import Foundation
import Testing
@testable import PadArchive
@testable import PadBench
@testable import PadDataset
@testable import PadEvaluation
@testable import PadImage
@testable import PadMetrics
@testable import PadProfiles
@testable import PadReport

/// outputs.csv, subjects in samples.csv and the bootstrap, `eval --archive --score`, and the
/// folds / compare pages, through the runners and the built binary.
@Suite struct ReportOutputsTests {
    /// 4 sharp bona fide (subjects s0, s0, s1, s1) and 4 blurred print attacks (s2, s2, s3, s3);
    /// `prepare` may edit the dataset folder before it is loaded.
    static func benchRun(_ root: String, prepare: (String) throws -> Void = { _ in }) async throws
        -> BenchRunner.Outcome
    {
        try Fixture.writeSharpAndBlurred(root) { i, isAttack in "s\((isAttack ? 2 : 0) + i / 2)" }
        try prepare(root)
        let loader = ProfileLoader(catalogue: EstimatorCatalog.outputs())
        let sharp = try loader.load(
            yaml: """
                name: sharp
                source: test
                score: quality.sharpness
                gates:
                  - {output: quality.sharpness, op: ge, value: 100, code: BLUR, message: too blurred}
                """, file: "sharp.yaml")
        return try await BenchRunner().run(
            BenchJob(
                dataset: DatasetLoader().load(root), profiles: [sharp],
                outputFolder: root + "/run", concurrency: 2))
    }

    @Test func everyRunWritesOutputsAndSubjectIntervals() async throws {
        let root = Fixture.folder()
        let bench = try await Self.benchRun(root)
        // Subjects go into samples.csv and come back from the archive.
        let archive = try ResultArchiveReader(path: bench.archivePath)
        let stored = try MeasurementTable(samplesCSV: archive.entry(named: "samples.csv"), path: "samples.csv")
        #expect(stored.subjects == ["s0", "s2", "s0", "s2", "s1", "s3", "s1", "s3"] && stored.hasSubjects)
        // outputs.csv, in the folder and the archive: sharpness separates print completely.
        #expect(archive.contains("outputs.csv"))
        let outputs = try CSVTable(bytes: archive.entry(named: "outputs.csv"), path: "outputs.csv")
        let row = outputs.records.map(\.fields).first { $0[0] == "quality.sharpness" && $0[1] == "print" }!
        #expect(row[2] == "higher-bona-fide" && row[3] == "1" && row[4] == "0" && row[6] == "4" && row[7] == "4")
        // Bootstrap: 2 subjects per class; the gate (sharpness >= 100) accepts every sample, so in
        // every replicate BPCER is 0 and APCER 1; the swept score separates: EER 0.
        let summary = try CSVTable(bytes: archive.entry(named: "summary.csv"), path: "summary.csv")
        let fields = summary.records[0].fields
        func value(_ name: String) throws -> String { fields[try summary.requireColumn(name)] }
        #expect(try value("n_subjects_bonafide") == "2" && value("n_subjects_attack") == "print:2")
        #expect(try value("bpcer_subject_ci_low") == "0" && value("bpcer_subject_ci_high") == "0")
        #expect(
            try value("apcer_max") == "1" && value("apcer_max_subject_ci_low") == "1"
                && value("apcer_max_subject_ci_high") == "1")
        #expect(try value("eer_subject_ci_low") == "0" && value("eer_subject_ci_high") == "0")
        let json = try RunSummary.decode(from: archive.entry(named: "results.json"), path: "results.json")
        #expect(json.profiles[0].reported.subjectBootstrap?.bonaFideSubjects == 2)
        #expect(json.profiles[0].reported.subjectBootstrap?.bpcer == .init(low: 0, high: 0))
        let html = try String(contentsOfFile: bench.folder + "/report.html", encoding: .utf8)
        #expect(html.contains("Which output separates which attack") && html.contains("subject bootstrap 95%"))
        // The page ranks the first 12 outputs and points to outputs.csv for the rest.
        let outputCount = Set(outputs.records.map { $0.fields[0] }).count
        #expect(outputCount > 12 && html.contains("\(outputCount - 12) more outputs, ranked lower: outputs.csv."))
    }

    /// A table without subjects (score files, old archives) gets no bootstrap and empty columns.
    @Test func noSubjectsNoBootstrap() throws {
        var table = MeasurementTable(columns: ["x"])
        table.append(id: "a", label: .bonaFide, split: .none, status: .ok, values: [1])
        table.append(id: "b", label: .attack(species: "print"), split: .none, status: .ok, values: [0])
        #expect(!table.hasSubjects && table.subject(0) == "")
        table.append(id: "c", label: .bonaFide, split: .none, status: .ok, values: [2], subject: "p")
        #expect(table.subjects == ["", "", "p"] && table.hasSubjects)
        let csv = Array("id,path,label,species,split,status,error,x,decode_ns\na,,bonafide,,,ok,,1,0\n".utf8)
        #expect(!(try MeasurementTable(samplesCSV: csv, path: "old.csv")).hasSubjects)
    }

    /// `eval --archive RUN --score OUTPUT`: one output, threshold at the EER, no profile file.
    @Test func evalOneOutputOfAnArchive() async throws {
        let root = Fixture.folder()
        let bench = try await Self.benchRun(root)
        let outcome = try EvalRunner().evaluateArchive(
            bench.archivePath, profiles: [try EvalRunner.outputProfile("quality.sharpness")],
            outputFolder: root + "/score", commandLine: [],
            choosesOnReportedSetWithoutCalibrationSplit: true, requireOutputs: true)
        let r = outcome.results[0]
        #expect(r.profile.name == "score-output" && r.scoreMetrics?.eer.value == 0)
        #expect(r.headline?.bpcer.errors == 0 && r.headline?.apcerMax.errors == 0)
        #expect(r.thresholdSource == .chosenOnReportedSet(split: "all"))
        #expect(r.thresholdSource.text == "all (not calibrated: chosen on the reported set)")
        // An output the run lacks is refused before anything is written (the profile check names it).
        #expect(throws: (any Error).self) {
            try EvalRunner().evaluateArchive(
                bench.archivePath, profiles: [try EvalRunner.outputProfile("quality.nope")],
                outputFolder: root + "/nope",
                commandLine: [], choosesOnReportedSetWithoutCalibrationSplit: true, requireOutputs: true)
        }
        #expect(!FileManager.default.fileExists(atPath: root + "/nope"))
    }

    /// issue 27: `--score OUTPUT` decides in the output's declared direction (quality.blur is
    /// lower-better: the sharp bona fide have the lower blur), `--direction` overrides it, and
    /// `--criterion` / `--threshold` are honoured. On main at ea3c17e blur was read higher-bona-fide
    /// whatever the manifest said (every bona fide rejected at the EER threshold).
    @Test func evalOneOutputDecidesInItsDirection() async throws {
        let root = Fixture.folder()
        let bench = try await Self.benchRun(root)
        func run(_ job: OutputScoreJob, _ name: String) throws -> ProfileResult {
            try EvalRunner().evaluateArchive(
                bench.archivePath, profiles: [], outputFolder: root + "/" + name, commandLine: [],
                choosesOnReportedSetWithoutCalibrationSplit: true, requireOutputs: true, outputScore: job
            ).results[0]
        }
        let declared = try run(OutputScoreJob(output: "quality.blur"), "declared")
        #expect(declared.notes.first?.text.contains("lower-bonafide (declared lower-better)") == true)
        #expect(declared.thresholdSign == -1 && (declared.scoreMetrics?.auc ?? 0) >= 0.5)
        let threshold = try #require(declared.scoreThreshold.map(declared.shownThreshold))
        let forced = try run(OutputScoreJob(output: "quality.blur", direction: .higherBonaFide), "forced")
        #expect(forced.notes.first?.text.contains("higher-bonafide (--direction)") == true)
        #expect(forced.thresholdSign == 1 && (forced.scoreMetrics?.auc ?? 1) <= 0.5)
        #expect(try #require(forced.scoreMetrics?.eer.value) > (try #require(declared.scoreMetrics?.eer.value)))
        // The inverted reading is flagged (AUC < 0.5).
        #expect(forced.notes.contains { $0.text.hasPrefix("check: swept score quality.blur has AUC") })
        // A fixed threshold in the output's own units (accepted when blur <= t) decides as the
        // calibrated one did.
        let fixed = try run(OutputScoreJob(output: "quality.blur", threshold: threshold), "fixed")
        #expect(fixed.scoreThreshold.map(fixed.shownThreshold) == threshold)
        #expect(fixed.headline?.bpcer.errors == declared.headline?.bpcer.errors)
        #expect(fixed.headline?.apcerMax.errors == declared.headline?.apcerMax.errors)
        let target = try run(OutputScoreJob(output: "quality.blur", criterion: .bpcerAtAPCER(0.01)), "target")
        #expect(target.calibrations.count == 1)
    }

    /// `padbench` beside the test bundle (`swift build --build-tests` builds both).
    static let binary: String = {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("padbench").path)
            && folder.path != "/"
        {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("padbench").path
    }()

    static func padbench(_ arguments: [String]) -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try! process.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    @Test func commandLinePagesAndErrors() throws {
        let folder = Fixture.folder()
        let base = try CompareTests.run(folder, "base")
        let worse = try CompareTests.run(folder, "worse", raised: 12, shift: 0.6)
        let compare = Self.padbench(["compare", base, worse, "--html", folder + "/compare.html"])
        #expect(compare.status == 1)
        let page = try String(contentsOfFile: folder + "/compare.html", encoding: .utf8)
        #expect(
            page.contains("REGRESSED") && page.contains("mcnemar") && page.contains("scores apcer[print]")
                && page.contains("+60.00 pp"))
        let folds = Self.padbench(["folds", base, worse, "--out", folder + "/folds"])
        #expect(folds.status == 0)
        let foldsPage = try String(contentsOfFile: folder + "/folds/folds.html", encoding: .utf8)
        // Apcer_max 0 and 0.6.
        #expect(foldsPage.contains("<h2>scores</h2>") && foldsPage.contains("30.0% \u{00B1} 42.4%"))
        // --score on an output the run lacks: exit 1, one line, nothing written; without --archive: usage error 64.
        let missing = Self.padbench([
            "eval", "--archive", base + "/results.tar.zst", "--score", "quality.nope", "--out", folder + "/x",
        ])
        #expect(
            missing.status == 1 && missing.error.contains("unknown output `quality.nope`")
                && !missing.error.contains("Usage"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/x"))
        #expect(Self.padbench(["eval", "--scores", "s.csv", "--score", "x", "--out", folder + "/y"]).status == 64)
        let score = Self.padbench([
            "eval", "--archive", base + "/results.tar.zst", "--score", "scores.score", "--out", folder + "/z",
        ])
        #expect(score.status == 0 && score.output.contains("score-output"))
        #expect(FileManager.default.fileExists(atPath: folder + "/z/outputs.csv"))
    }
}

import Foundation
import Testing
@testable import PadBench
@testable import PadDataset
@testable import PadEstimators
@testable import PadImport
@testable import PadProfiles
import TestSupport

/// The manual's input examples are committed files under examples/; each is shown verbatim on a page of the
/// manual (README.md or a page under docs/) and imported here exactly as it is, onto the committed sample dataset.
@Suite struct ReadmeExamplesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    /// The manual: README.md and every docs/*.md page, concatenated, so an example shown on any page counts.
    static let manual: String = {
        let docs = root + "/docs"
        let pages = ((try? FileManager.default.contentsOfDirectory(atPath: docs)) ?? [])
            .filter { $0.hasSuffix(".md") }.sorted().map { docs + "/" + $0 }
        return ([root + "/README.md"] + pages).map { try! String(contentsOfFile: $0, encoding: .utf8) }
            .joined(separator: "\n")
    }()
    static let sample = try! DatasetLoader().load(root + "/datasets/sample")

    static func example(_ path: String) throws -> String {
        let full = root + "/examples/" + path
        let text = try String(contentsOfFile: full, encoding: .utf8)
        #expect(
            manual.contains(
                "```\(path.hasSuffix(".csv") ? "csv" : path.hasSuffix(".txt") ? "text" : "json")\n\(text)```"),
            "neither README.md nor a page under docs/ shows examples/\(path) verbatim")
        return full
    }

    static func imported(
        _ format: VendorFormat, _ path: String, profiles: [String] = [], noDecision: NoDecisionPolicy = .fta
    ) throws -> ImportRunner.Outcome {
        let file = try example(path)
        let out = TestFolder.root + "/padbench-readme-\(UUID().uuidString)"
        return try ImportRunner().run(
            format: format, noDecision: noDecision, dataset: sample, inputs: [file],
            profiles: try ProfileLoader().resolveAll(profiles), outputFolder: out)
    }

    /// The value of `output` for the sample whose file is `name`.
    static func value(_ outcome: ImportRunner.Outcome, _ output: String, _ name: String) -> Double? {
        guard let row = sample.samples.firstIndex(where: { ($0.path as NSString).lastPathComponent == name }) else {
            return nil
        }
        return outcome.table.column(named: output)?[row]
    }

    /// Every example profile loads against padbench's own outputs and is shown verbatim in the manual.
    @Test func exampleProfilesLoadAndAreShown() throws {
        let folder = Self.root + "/examples/profiles"
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".yaml") }
        #expect(files.contains("minifasnet-fused.yaml"))
        for file in files {
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            #expect(
                Self.manual.contains("```yaml\n\(text)```"), "no page of the manual shows examples/profiles/\(file)")
            let profile = try ProfileLoader(catalogue: EstimatorCatalog.knownOutputs()).load(file: folder + "/" + file)
            #expect(profile.fusion == nil || profile.score == profile.fusion?.name)
        }
    }

    @Test func lunaOSLArrayAndJSONLines() throws {
        let array = try Self.imported(.lunaOSL, "imports/luna-osl.json", profiles: ["luna-osl"])
        #expect(array.matched == 2)
        #expect(
            Self.value(array, "luna.liveness", "000000.jpg") == 0.93
                && Self.value(array, "luna.quality", "000000.jpg") == 0.81)
        #expect(
            Self.value(array, "luna.error_code", "000001.jpg") == 1005
                && Self.value(array, "luna.liveness", "000001.jpg")!.isNaN)
        #expect(array.results[0].gatesLeftOut.isEmpty && array.results[0].isLivenessDecision)
        let lines = try Self.imported(.lunaOSL, "imports/luna-osl.jsonl")
        #expect(lines.matched == 2)
        #expect(
            Self.value(lines, "luna.liveness", "000004.jpg") == 0.88
                && Self.value(lines, "luna.prediction", "000005.jpg") == 0)
        #expect(Self.value(lines, "luna.error_code", "000005.jpg") == 0)
    }

    @Test func misnapMibiData() throws {
        let outcome = try Self.imported(.misnapMibi, "imports/misnap/000000.json", profiles: ["misnap-mibi"])
        #expect(outcome.matched == 1)
        let expected: [String: Double] = [
            "misnap.quality": 812, "misnap.lighting": 640, "misnap.sharpness": 355, "misnap.eye_distance": 118,
            "misnap.face_found": 990, "misnap.live": 1, "misnap.spoof": 0, "misnap.auto_capture": 1,
            "misnap.still_capture": 0, "misnap.failover": 0,
        ]
        for (output, value) in expected { #expect(Self.value(outcome, output, "000000.jpg") == value, "\(output)") }
        #expect(outcome.results[0].gatesLeftOut.isEmpty)
        // The document's time-only events ({"SA": [597]}, {"FPL": [2800]}): live, so accepted (the
        // other samples have no export: failures to process, not rejections).
        #expect(outcome.results[0].rejectReasons.isEmpty)
    }

    @Test func idemiaStatusCSV() throws {
        let outcome = try Self.imported(.idemiaStatus, "imports/idemia-status.csv", profiles: ["idemia-status"])
        #expect(outcome.matched == 4)
        #expect(
            Self.value(outcome, "idemia.live", "000000.jpg") == 1
                && Self.value(outcome, "idemia.live", "000001.jpg") == 0)
        let statuses = Dictionary(uniqueKeysWithValues: zip(outcome.table.ids, outcome.table.statuses.map(\.field)))
        #expect(
            statuses["eval/bonafide/000004.jpg"] == "no_decision"
                && statuses["eval/attack/replay/000005.jpg"] == "no_liveness_run")
        // Live bona fide accepted, Fake print attack rejected: BPCER 0/1, APCER 0/1 on the two decided.
        let point = try #require(outcome.results[0].headline)
        #expect(point.bpcer == .init(errors: 0, total: 1))
        #expect(point.apcer[point.speciesNames.firstIndex(of: "print")!] == .init(errors: 0, total: 1))
    }

    @Test func longCSVWithTheUsersNames() throws {
        let outcome = try Self.imported(.longCSV, "imports/long.csv")
        #expect(outcome.table.columns == ["vendorx.liveness", "vendorx.quality"])
        #expect(
            Self.value(outcome, "vendorx.liveness", "000001.jpg") == 0.08
                && Self.value(outcome, "vendorx.quality", "000000.jpg") == 0.77)
    }

    @Test func bob5ColumnScores() throws {
        let file = try Self.example("scores/bob5.txt")
        let outcome = try EvalRunner().evaluateScores(
            .init(
                scoreFiles: [file], threshold: 0.5,
                outputFolder: TestFolder.root + "/padbench-readme-\(UUID().uuidString)"))
        #expect(
            outcome.table.ids == [
                "bonafide/000000.jpg", "bonafide/000004.jpg", "attack/print/000001.jpg", "attack/replay/000005.jpg",
            ])
        #expect(outcome.table.values[0] == [0.91, 0.77, 0.12, 0.35])
        #expect(outcome.table.labels.map(\.species) == [nil, nil, "print", "replay"])
        let point = try #require(outcome.results[0].headline)
        #expect(point.bpcer == .init(errors: 0, total: 2) && point.apcerMax == .init(errors: 0, total: 1))
    }
}

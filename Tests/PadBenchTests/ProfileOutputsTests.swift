import Foundation
import Testing
@testable import PadArchive
@testable import PadBench
@testable import PadDataset
@testable import PadEstimators
@testable import PadExternal
@testable import PadEvaluation
@testable import PadImport
@testable import PadImage
import PadMetrics
@testable import PadProfiles
@testable import PadReport

/// Profiles over the outputs a run declares (issue 13): an external program's `describe` answer
/// under the user's name, every output of an import, the columns of an archive; gates whose
/// output the run lacks are left out loudly (or refused with `strict`).
@Suite struct ProfileOutputsTests {
    static let externalScript = ExternalEstimatorTests.script

    /// Four bona fide and four print attacks (JPEGs of different contrast), dev and eval.
    static func dataset() throws -> (LoadedDataset, String) {
        let root = Fixture.folder()
        var manifest = "path,label,species,split,subject\n"
        for i in 0..<8 {
            Fixture.write(try ImageEncoder.jpeg(Fixture.image(contrast: 5 + 9 * i, seed: i)), root + "/s\(i).jpg")
            manifest +=
                "s\(i).jpg,\(i % 2 == 0 ? "bonafide" : "attack"),"
                + "\(i % 2 == 0 ? "" : "print"),\(i < 4 ? "dev" : "eval"),p\(i / 2)\n"
        }
        try manifest.write(toFile: root + "/manifest.csv", atomically: true, encoding: .utf8)
        return (try DatasetLoader().load(root), root)
    }

    static func profile(_ yaml: String, file: String = "mine.yaml") throws -> Profile {
        try ProfileLoader().load(yaml: yaml, file: file)
    }

    static let mymodel = """
        name: mymodel
        source: test
        score: mymodel.score
        gates:
          - output: mymodel.score
            calibrate: {criterion: eer, on: dev}
            code: SPOOF
        """

    /// The example's score computed here independently: compressed bits per pixel of the file,
    /// bpp = 8 x bytes / (width x height) with the size from padbench's own decoder, as 1 / (1 + bpp).
    static func exampleScore(_ path: String) throws -> Double {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path)).count
        let image = try ImageDecoder().decode(fileAt: path)
        let bpp = 8.0 * Double(bytes) / Double(image.width * image.height)
        return 1.0 / (1.0 + bpp)
    }

    @Test func externalOutputUnderTheUsersNameIsGatedAndSwept() async throws {
        let (dataset, root) = try Self.dataset()
        let job = BenchJob(
            dataset: dataset, profiles: [try Self.profile(Self.mymodel)],
            estimatorOptions: EstimatorOptions(externalCommands: ["mymodel": "python3 \(Self.externalScript)"]),
            outputFolder: root + "/run", concurrency: 2, strict: true)
        let outcome = try await BenchRunner().run(job)
        let result = try #require(outcome.results.first)
        #expect(result.gatesLeftOut.isEmpty && result.isLivenessDecision)
        let scores = try #require(outcome.table.column(named: "mymodel.score"))
        for (i, sample) in dataset.samples.enumerated() {
            #expect(abs(scores[i] - (try Self.exampleScore(sample.path))) <= 1e-12)
        }
        // The EER of the swept score on eval equals the one computed from the table's scores.
        var set = ScoreSet()
        for i in dataset.samples.indices where dataset.samples[i].split == .eval {
            set.append(score: scores[i], species: dataset.samples[i].label.species)
        }
        let eer = try #require(result.scoreMetrics?.eer)
        #expect(eer.value == (try EqualErrorRate(try ErrorCurve(set))).value)
        #expect(result.calibrations.count == 1 && result.calibrations[0].output == "mymodel.score")
    }

    @Test func typoInAnExternalOutputIsLocatedBeforeMeasuring() async throws {
        let (dataset, root) = try Self.dataset()
        let typo = try Self.profile(
            Self.mymodel.replacingOccurrences(of: "  - output: mymodel.score", with: "  - output: mymodel.scroe"))
        let job = BenchJob(
            dataset: dataset, profiles: [typo],
            estimatorOptions: EstimatorOptions(externalCommands: ["mymodel": "python3 \(Self.externalScript)"]),
            outputFolder: root + "/run", concurrency: 1)
        await #expect { try await BenchRunner().run(job) } throws: {
            ($0 as? ProfileError)
                == ProfileError(
                    file: "mine.yaml", line: 5, column: 13,
                    "unknown output `mymodel.scroe`; did you mean `mymodel.score`?")
        }
        #expect(
            !FileManager.default.fileExists(atPath: root + "/run")
                && !FileManager.default.fileExists(atPath: root + "/run.partial"))
    }

    @Test func presetWhoseScoreTheRunLacksIsLeftOutLoudlyOrRefusedWhenStrict() async throws {
        let (dataset, root) = try Self.dataset()
        let idemia = try ProfileLoader().builtIn("idemia-high")
        let outcome = try await BenchRunner().run(
            BenchJob(dataset: dataset, profiles: [idemia], outputFolder: root + "/run", concurrency: 1))
        #expect(outcome.results[0].gatesLeftOut == ["pad.score"])
        #expect(!outcome.results[0].isLivenessDecision)
        let warnings = TerminalTables.warnings(outcome.results)
        #expect(
            warnings == [
                "profile idemia-high: gates left out, outputs not measured in this run: "
                    + "pad.score; its rates are not a liveness decision"
            ])
        let strict = BenchJob(
            dataset: dataset, profiles: [idemia], outputFolder: root + "/strict", concurrency: 1, strict: true)
        await #expect { try await BenchRunner().run(strict) } throws: {
            "\($0)"
                == "--strict: profile idemia-high (builtin:idemia-high): gates left out, "
                + "outputs not measured in this run: pad.score (line 10)"
        }
        #expect(
            !FileManager.default.fileExists(atPath: root + "/strict")
                && !FileManager.default.fileExists(atPath: root + "/strict.partial"))
    }

    @Test func longCSVOutputsNamedByTheUserAreGatedAndSwept() throws {
        let (dataset, root) = try Self.dataset()
        var csv = "id,output,value\n"
        let values = [0.9, 0.2, 0.8, 0.4, 0.9, 0.7, 0.6, 0.2]
        for (i, v) in values.enumerated() { csv += "s\(i).jpg,vendorx.quality,\(v)\n" }
        try csv.write(toFile: root + "/long.csv", atomically: true, encoding: .utf8)
        let profile = try Self.profile(
            """
            name: vendorx
            source: test
            score: vendorx.quality
            gates:
              - {output: vendorx.quality, op: ge, value: 0.5, code: LOWQ}
            """)
        let outcome = try ImportRunner().run(
            format: .longCSV, dataset: dataset, inputs: [root + "/long.csv"], profiles: [profile],
            outputFolder: root + "/run", strict: true)
        let result = outcome.results[0]
        // eval: bona fide 0.9, 0.6; print 0.7, 0.2. Gate 0.5 accepts both bona fide and the 0.7
        // attack. Swept: for t in (0.6, 0.7] one of two of each class errs (APCER = BPCER = 1/2);
        // above, BPCER 1/2 and APCER 0; below, BPCER 0 and APCER 1/2: EER 0.5.
        #expect(result.headline?.bpcer == .init(errors: 0, total: 2))
        #expect(result.headline?.apcerMax == .init(errors: 1, total: 2))
        let eer = try #require(result.scoreMetrics?.eer)
        #expect(eer.value == 0.5)
        // The same name with a typo is an error naming the file, line and nearest output.
        let typo = try Self.profile(
            "name: t\nsource: s\ngates:\n  - {output: vendorx.qualty, op: ge, value: 1}\n", file: "t.yaml")
        #expect {
            try ImportRunner().run(
                format: .longCSV, dataset: dataset, inputs: [root + "/long.csv"], profiles: [typo],
                outputFolder: root + "/bad")
        } throws: {
            "\($0)" == "t.yaml:4:14: unknown output `vendorx.qualty`; did you mean `vendorx.quality`?"
        }
        #expect(!FileManager.default.fileExists(atPath: root + "/bad"))
    }

    @Test func importWithStrictRefusesAPresetOnAnotherVendorsOutputs() throws {
        let (dataset, root) = try Self.dataset()
        try "id,status\ns0.jpg,Live\ns1.jpg,Fake\n".write(
            toFile: root + "/idemia.csv", atomically: true, encoding: .utf8)
        let high = try ProfileLoader().builtIn("idemia-high"), status = try ProfileLoader().builtIn("idemia-status")
        #expect {
            try ImportRunner().run(
                format: .idemiaStatus, dataset: dataset, inputs: [root + "/idemia.csv"], profiles: [high],
                outputFolder: root + "/strict", strict: true)
        } throws: { $0 is LeftOutGatesError }
        let outcome = try ImportRunner().run(
            format: .idemiaStatus, dataset: dataset, inputs: [root + "/idemia.csv"], profiles: [high, status],
            outputFolder: root + "/run")
        #expect(!outcome.results[0].isLivenessDecision && outcome.results[1].isLivenessDecision)
        #expect(outcome.results[1].gatesLeftOut.isEmpty)
    }

    @Test func archiveAndMergeAcceptTheOutputsTheyStore() async throws {
        let (dataset, root) = try Self.dataset()
        let profile = try Self.profile(Self.mymodel)
        let job = BenchJob(
            dataset: dataset, profiles: [profile],
            estimatorOptions: EstimatorOptions(externalCommands: ["mymodel": "python3 \(Self.externalScript)"]),
            outputFolder: root + "/run", concurrency: 1)
        let bench = try await BenchRunner().run(job)
        let again = try EvalRunner().evaluateArchive(
            bench.archivePath, profiles: [profile], outputFolder: root + "/eval", commandLine: [], strict: true)
        #expect(again.results[0].scoreMetrics?.eer.value == bench.results[0].scoreMetrics?.eer.value)
        let merged = try MergeRunner().merge([bench.archivePath], outputFolder: root + "/merged")
        #expect(merged.results[0].scoreMetrics?.eer.value == bench.results[0].scoreMetrics?.eer.value)
        #expect {
            try EvalRunner().evaluateArchive(
                bench.archivePath, profiles: [try ProfileLoader().builtIn("idemia-low")],
                outputFolder: root + "/strict", commandLine: [], strict: true)
        } throws: { $0 is LeftOutGatesError }
    }

    @Test func knownOutputsAreDeclaredByTypeWithoutCascadeFiles() throws {
        let known = EstimatorCatalog.knownOutputs()
        for name in [
            "face.count", "face.offset_x", "face.offset_y", "eyes.distance_px", "quality.background_luminance",
            "image.short_side",
            "pad.score", "luna.liveness", "misnap.live", "misnap.spoof", "face.confidence", "idemia.live",
        ] {
            #expect(known[name] != nil, "\(name)")
        }
        #expect(EstimatorCatalog.registry.entries.allSatisfy { $0.declaredOutputs != nil })
        // Every preset validates against what padbench knows by type.
        for name in ProfileLoader.builtInNames {
            #expect(throws: Never.self) {
                _ = try ProfileLoader(catalogue: known).validate(try ProfileLoader().builtIn(name))
            }
        }
        // profiles validate: a typo under a built-in prefix is an error; another prefix comes from the run.
        let standalone = try ProfileCheck.standalone(try Self.profile(Self.mymodel))
        #expect(standalone.fromRun == ["mymodel.score"])
        #expect {
            try ProfileCheck.standalone(
                try Self.profile("name: t\nsource: s\ngates:\n  - {output: face.cuont, op: ge, value: 1}\n"))
        } throws: {
            "\($0)" == "mine.yaml:4:14: unknown output `face.cuont`; did you mean `face.count`?"
        }
    }

    /// Which presets are a liveness decision on which run: the swept score, the only liveness
    /// gate or every gate left out means no; a capture check (basic, dot-default, aware-capture:
    /// no liveness gate at all) is none on any run.
    @Test func livenessDecisionForEveryPreset() throws {
        let builtIn =
            [
                "face.count", "face.width", "face.border_px", "face.size_ratio", "face.offset_x", "face.offset_y",
                "face.confidence",
                "eyes.distance_px",
                "image.short_side", "image.long_side", "landmarks.eye_distance_px", "head.yaw_deg", "head.pitch_deg",
                "head.roll_deg", "eye_state.open", "eye_state.left_open", "eye_state.right_open", "mouth.open",
            ] + QualityEstimator.declaredOutputs.map { "quality.\($0.name)" }
        let runs: [String: [String]] = [
            "bench": builtIn, "bench+pad": builtIn + ["pad.score"],
            "luna-osl": VendorFormat.lunaOSL.outputs, "misnap-mibi": VendorFormat.misnapMibi.outputs,
            "idemia-status": VendorFormat.idemiaStatus.outputs,
        ]
        let decision: [String: Set<String>] = [ // presets whose rates are a liveness decision on each run
            "bench": [],
            "bench+pad": [
                "idemia-low", "idemia-medium", "idemia-high", "luna-id-default", "luna-id-osl", "misnap-default",
                "misnap-high-risk",
            ],
            "luna-osl": ["luna-id-default", "luna-id-osl", "luna-osl"],
            "misnap-mibi": ["misnap-default", "misnap-high-risk", "misnap-mibi"],
            "idemia-status": ["idemia-status"],
        ]
        for (run, columns) in runs {
            var table = MeasurementTable(columns: columns)
            for i in 0..<4 {
                table.append(
                    id: "s\(i)", label: i % 2 == 0 ? .bonaFide : .attack(species: "print"), split: i < 2 ? .dev : .eval,
                    status: .ok,
                    values: columns.map { _ in Double(i) })
            }
            let presets = try ProfileLoader().resolveAll(ProfileLoader.builtInNames)
            let results = try ProfileEvaluator(table: table).evaluate(presets)
            let deciding = Set(results.filter(\.isLivenessDecision).map(\.profile.name))
            #expect(deciding == decision[run]!, "\(run)")
            let capture = Set(results.filter(\.profile.isCaptureOnly).map(\.profile.name))
            #expect(capture == ["basic", "dot-default", "aware-capture"], "\(run)")
        }
    }
}

import Foundation
import Testing
@testable import PadArchive
@testable import PadBench
@testable import PadDataset
@testable import PadImage
@testable import PadProfiles
@testable import PadReport
@testable import PadRuns

@Suite struct BenchRunnerTests {
    /// Each sample's thread share: the CPUs divided among the samples that can be in flight.
    @Test func threadsPerSampleShareTheSpareCores() {
        #expect(OrderedMeasurement.threadsPerSample(cores: 2, concurrency: 1, remaining: 100) == 2)
        #expect(OrderedMeasurement.threadsPerSample(cores: 2, concurrency: 2, remaining: 100) == 1)
        #expect(OrderedMeasurement.threadsPerSample(cores: 2, concurrency: 2, remaining: 1) == 2)
        #expect(OrderedMeasurement.threadsPerSample(cores: 8, concurrency: 3, remaining: 100) == 2)
        #expect(OrderedMeasurement.threadsPerSample(cores: 1, concurrency: 4, remaining: 100) == 1)
        #expect(OrderedMeasurement.threadsPerSample(cores: 16, concurrency: 64, remaining: 100) == 1)
    }

    /// 6 good images and 5 broken ones of every kind; the run finishes, every sample is in
    /// samples.csv with its status, and counts add up.
    @Test func brokenInputsAreRecordedAndCountsAddUp() async throws {
        let root = Fixture.folder()
        var manifest = "path,label,species,split,subject\n"
        for i in 0..<3 {
            Fixture.write(
                try ImageEncoder.jpeg(Fixture.image(contrast: 60, seed: i), quality: 92), root + "/bf\(i).jpg")
            manifest += "bf\(i).jpg,bonafide,,eval,s\(i)\n"
            Fixture.write(try ImageEncoder.png(Fixture.image(contrast: 5, seed: i)), root + "/print\(i).png")
            manifest += "print\(i).png,attack,print,eval,s\(i)\n"
        }
        let good = try ImageEncoder.jpeg(Fixture.image(contrast: 40, seed: 9), quality: 90)
        Fixture.write(Array(good.prefix(good.count / 2)), root + "/truncated.jpg")
        manifest += "truncated.jpg,bonafide,,eval,s9\n"
        var png = try ImageEncoder.png(Fixture.image(contrast: 40, seed: 8))
        png[png.count / 2] ^= 0xFF // damage inside IDAT
        Fixture.write(png, root + "/corrupt.png")
        manifest += "corrupt.png,attack,replay,eval,s8\n"
        Fixture.write(Array("this is not an image".utf8), root + "/text.jpg")
        manifest += "text.jpg,attack,replay,eval,s7\n"
        manifest += "missing.jpg,attack,print,eval,s6\n"
        Fixture.write(try ImageEncoder.jpeg(Image(width: 200, height: 200, format: .gray)), root + "/big.jpg")
        manifest += "big.jpg,bonafide,,eval,s5\n"
        try manifest.write(toFile: root + "/manifest.csv", atomically: true, encoding: .utf8)

        let dataset = try DatasetLoader().load(root)
        #expect(dataset.samples.count == 11 && dataset.problems.isEmpty)
        let profile = try ProfileLoader(catalogue: EstimatorCatalog.knownOutputs()).builtIn("basic")
        let out = root + "/run"
        let job = BenchJob(dataset: dataset, profiles: [profile], outputFolder: out, concurrency: 2, maxPixels: 20_000)
        let outcome = try await BenchRunner().run(job)
        // Failures of every kind are rows of decisions.csv that results.json counts.
        try StoredRun(path: outcome.archivePath).verify()

        let samples = try CSVTable(path: out + "/samples.csv")
        #expect(samples.records.count == 11)
        let status = try samples.requireColumn("status"), id = try samples.requireColumn("id")
        let byID = Dictionary(uniqueKeysWithValues: samples.records.map { ($0.fields[id], $0.fields[status]) })
        #expect(byID["truncated.jpg"] == "decode_error")
        #expect(byID["corrupt.png"] == "decode_error")
        #expect(byID["text.jpg"] == "unsupported_format")
        #expect(byID["missing.jpg"] == "missing_file")
        #expect(byID["big.jpg"] == "too_large")
        #expect(byID.values.filter { $0 == "ok" }.count == 6)
        // Rows keep dataset order.
        #expect(samples.records.map { $0.fields[id] } == dataset.samples.map(\.id))
        let error = try samples.requireColumn("error")
        #expect(samples.records.first { $0.fields[id] == "big.jpg" }!.fields[error].contains("over the limit"))

        let summary = try CSVTable(path: out + "/summary.csv")
        let row = summary.records[0].fields
        func value(_ name: String) throws -> String { row[try summary.requireColumn(name)] }
        #expect(try value("n_bonafide") == "5") // 3 good + truncated + big
        #expect(try value("n_attack") == "6")
        #expect(try value("n_failed") == "5")
        #expect(Int(try value("n_bonafide"))! + Int(try value("n_attack"))! == 11)
        // Non-response: 2 of 5 bona fide and 3 of 6 attacks failed.
        #expect(try value("bpnrr") == CSVFormat.number(2.0 / 5.0))
        #expect(try value("apnrr") == CSVFormat.number(3.0 / 6.0))
        #expect(outcome.table.failedCount == 5)

        // The archive lists with GNU tar and holds every report.
        let listing = try ResultArchiveReader(path: outcome.archivePath).entryNames
        for name in [
            "manifest.json", "samples.csv", "decisions.csv", "summary.csv", "per_species.csv", "reject_reasons.csv",
            "curves.csv", "timing.csv", "report.html", "profiles/basic.yaml",
        ] {
            #expect(listing.contains(name), "archive lacks \(name)")
        }
        let manifestJSON = try RunManifest.decode(
            from: ResultArchiveReader(path: outcome.archivePath).entry(named: "manifest.json"))
        #expect(manifestJSON.counts["samples"] == 11 && manifestJSON.counts["failed"] == 5)
        #expect(manifestJSON.conventions["tie_rule"] == "accepted when score >= threshold")
        #expect(manifestJSON.tool.version == ToolInfo.version)

        // Timing: decode timed for all 11, quality only for the 6 decoded.
        let timing = try CSVTable(path: out + "/timing.csv")
        let counts = Dictionary(uniqueKeysWithValues: timing.records.map { ($0.fields[0], $0.fields[1]) })
        #expect(counts["decode"] == "11" && counts["quality"] == "6")
    }

    /// `eval --archive` re-decides from stored measurements: it works after the images are gone.
    @Test func evalArchiveNeedsNoImages() async throws {
        let root = Fixture.folder()
        try Fixture.writeSharpAndBlurred(root)
        let loader = ProfileLoader(catalogue: EstimatorCatalog.knownOutputs())
        let basic = try loader.builtIn("basic")
        let bench = try await BenchRunner().run(
            BenchJob(
                dataset: DatasetLoader().load(root), profiles: [basic],
                outputFolder: root + "/run", concurrency: 2))
        for i in 0..<4 {
            try FileManager.default.removeItem(atPath: root + "/b\(i).jpg")
            try FileManager.default.removeItem(atPath: root + "/a\(i).jpg")
        }
        let strict = try loader.load(
            yaml: """
                name: strict-sharpness
                source: test
                score: quality.sharpness
                gates:
                  - {output: quality.sharpness, op: ge, value: 100000, code: BLUR, message: too blurred}
                """, file: "strict.yaml")
        let outcome = try EvalRunner().evaluateArchive(
            bench.archivePath, profiles: [basic, strict], outputFolder: root + "/eval",
            commandLine: [])
        #expect(outcome.table.count == 8)
        // basic decides as in the bench run; strict rejects every sample.
        #expect(outcome.results[0].headline!.bpcer.errors == bench.results[0].headline!.bpcer.errors)
        #expect(outcome.results[1].headline!.bpcer == .init(errors: 4, total: 4))
        #expect(outcome.results[1].headline!.apcerMax == .init(errors: 0, total: 4))
        #expect(outcome.results[1].rejectReasons.map(\.count).reduce(0, +) == 8)
        // Sharpness values come from the archive, identical to the bench run's.
        #expect(outcome.table.column(named: "quality.sharpness")! == bench.table.column(named: "quality.sharpness")!)
    }
}

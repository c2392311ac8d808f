import Foundation
import Testing
@testable import PadArchive
@testable import PadBench
@testable import PadDataset
import PadEstimators
@testable import PadEvaluation
@testable import PadImage
@testable import PadProfiles
@testable import PadReport
@testable import PadRuns

@Suite struct MergeTests {
    /// Image `i` of a merge fixture: even numbers are bona fide (sharper, more contrast).
    static func writeImage(_ i: Int, into root: String) throws -> Bool {
        let bona = i % 2 == 0
        Fixture.write(
            try ImageEncoder.jpeg(Fixture.image(contrast: bona ? 40 + i : 2 + i % 5, seed: i), quality: 90),
            root + "/\(i).jpg")
        return bona
    }

    /// Three shards merged give byte-identical reports to one run over everything (including a
    /// calibrated profile and a failed sample), and the single run's dataset fingerprint.
    @Test func shardsMergeToTheSingleRun() async throws {
        let root = Fixture.folder()
        var manifest = "path,label,species,split,subject\n"
        for i in 0..<24 {
            let bona = try Self.writeImage(i, into: root)
            manifest +=
                "\(i).jpg,\(bona ? "bonafide" : "attack"),"
                + "\(bona ? "" : (i % 4 == 1 ? "print" : "replay")),\(i < 12 ? "dev" : "eval"),s\(i)\n"
        }
        manifest += "missing.jpg,attack,print,eval,sx\n"
        try manifest.write(toFile: root + "/manifest.csv", atomically: true, encoding: .utf8)
        let dataset = try DatasetLoader().load(root)
        let loader = ProfileLoader(catalogue: EstimatorCatalog.knownOutputs())
        let calibrated = try loader.load(
            yaml: """
                name: calibrated-sharpness
                source: test
                score: quality.sharpness
                gates:
                  - output: quality.sharpness
                    calibrate: {target_apcer: 0.2}
                """, file: "c.yaml")
        let profiles = [try loader.builtIn("basic"), calibrated]
        let single = try await BenchRunner().run(
            BenchJob(dataset: dataset, profiles: profiles, outputFolder: root + "/single", concurrency: 2))
        var parts: [String] = []
        for k in 1...3 {
            let shard = try await BenchRunner().run(
                BenchJob(
                    dataset: dataset, profiles: profiles, outputFolder: root + "/shard\(k)",
                    concurrency: 2, shard: Shard(index: k, count: 3)))
            parts.append(shard.archivePath)
        }
        let merged = try MergeRunner().merge(parts, outputFolder: root + "/merged")
        for file in ["summary.csv", "per_species.csv", "reject_reasons.csv", "curves.csv"] {
            let a = try String(contentsOfFile: root + "/single/" + file, encoding: .utf8)
            let b = try String(contentsOfFile: root + "/merged/" + file, encoding: .utf8)
            #expect(a == b, "\(file) differs between one run and merged shards")
        }
        let singleManifest = try RunManifest.decode(
            from: ResultArchiveReader(path: single.archivePath).entry(named: "manifest.json"))
        let mergedManifest = try RunManifest.decode(
            from: ResultArchiveReader(path: merged.archivePath).entry(named: "manifest.json"))
        #expect(singleManifest.dataset.fingerprint == mergedManifest.dataset.fingerprint)
        #expect(merged.table.count == 25 && merged.table.failedCount == 1)
        // Every run here agrees with itself (results.json against decisions.csv, one row per sample).
        for path in [single.archivePath, merged.archivePath] + parts { try StoredRun(path: path).verify() }
        let timing = try CSVTable(path: root + "/merged/timing.csv")
        #expect(timing.records.first { $0.fields[0] == "decode" }?.fields[1] == "25")

        #expect(throws: EvaluationError.self) {
            try MergeRunner().merge(Array(parts.prefix(2)), outputFolder: root + "/bad")
        }
        #expect(throws: EvaluationError.self) {
            try MergeRunner().merge([parts[0], parts[0], parts[1]], outputFolder: root + "/bad2")
        }
    }

    /// Shards split by presentation, so with one clip of three frames among still images one
    /// shard holds no presentation of several frames and records neither `counted_unit` nor
    /// `frame_aggregate`. Merge refused such shards ("conventions differ from the first shard's",
    /// found by scripts/same-output.py on the sample); now they merge to the single run, per
    /// presentation as the single run reports.
    @Test func stillShardsMergeWithShardsOfPresentations() async throws {
        let root = Fixture.folder()
        var manifest = "path,label,species,split,subject,presentation\n"
        for i in 0..<12 {
            let bona = try Self.writeImage(i, into: root)
            // Images 0, 2 and 4 are the frames of one bona fide presentation, `clip`.
            let presentation = i < 6 && bona ? "clip" : "\(i).jpg"
            manifest += "\(i).jpg,\(bona ? "bonafide" : "attack"),\(bona ? "" : "print"),eval,s-\(presentation),"
            manifest += "\(presentation)\n"
        }
        try manifest.write(toFile: root + "/manifest.csv", atomically: true, encoding: .utf8)
        let dataset = try DatasetLoader().load(root)
        let profiles = [try ProfileLoader(catalogue: EstimatorCatalog.knownOutputs()).builtIn("basic")]
        _ = try await BenchRunner().run(
            BenchJob(dataset: dataset, profiles: profiles, outputFolder: root + "/single", concurrency: 2))
        var parts: [String] = []
        for k in 1...2 {
            let shard = try await BenchRunner().run(
                BenchJob(
                    dataset: dataset, profiles: profiles, outputFolder: root + "/shard\(k)", concurrency: 2,
                    shard: Shard(index: k, count: 2)))
            parts.append(shard.archivePath)
        }
        let units = try parts.map {
            try RunManifest.decode(from: ResultArchiveReader(path: $0).entry(named: "manifest.json"))
                .conventions["counted_unit"]
        }
        #expect(units.filter { $0 == nil }.count == 1, "one shard has still images only")
        let merged = try MergeRunner().merge(parts, outputFolder: root + "/merged")
        for file in ["summary.csv", "per_species.csv", "frames/summary.csv", "presentation_decisions.csv"] {
            let a = try String(contentsOfFile: root + "/single/" + file, encoding: .utf8)
            let b = try String(contentsOfFile: root + "/merged/" + file, encoding: .utf8)
            // Per-presentation rows come shard by shard in a merged run: the same rows, in another order.
            let rows = { (text: String) in
                file.hasSuffix("decisions.csv") ? text.split(separator: "\n").sorted() : [text[...]]
            }
            #expect(rows(a) == rows(b), "\(file) differs between one run and merged shards")
        }
        let conventions = try RunManifest.decode(
            from: ResultArchiveReader(path: merged.archivePath).entry(named: "manifest.json")
        ).conventions
        #expect(conventions["frame_aggregate"] == "mean" && conventions["counted_unit"] != nil)
        // Every row of the merged samples.csv has the header's fields (the still shard wrote no
        // presentation columns, and its rows were one field short of the header, then three).
        let samples = try CSVTable(path: root + "/merged/samples.csv")
        #expect(samples.records.count == 12 && samples.column("presentation") != nil)
        try StoredRun(path: merged.archivePath).verify()
    }

    /// Two shards that aggregated frames differently (`--aggregate`) are refused, naming both.
    @Test func shardsAggregatingFramesDifferentlyAreRefused() throws {
        var shards = MergeRunner.Shards(paths: ["a.tar.zst", "b.tar.zst", "c.tar.zst"])
        let base = RunManifest(
            kind: "bench", tool: .init(version: "1", commandLine: []), conventions: ["tie_rule": "x"],
            dataset: .init(name: "d", path: "p", layout: "manifest", fingerprint: "0", samples: 1), estimators: [],
            profiles: [],
            machine: .init(hostname: "h", operatingSystem: "o", processors: 1, memoryBytes: 1, concurrency: 1),
            times: .init(started: "s", finished: "f", wallSeconds: 1), counts: [:])
        for aggregate in [nil, "median", "mean"] {
            var m = base
            m.conventions["frame_aggregate"] = aggregate
            shards.manifests.append(m)
        }
        #expect(
            MergeRunner.chosenConventions(shards.manifests[0]) == MergeRunner.chosenConventions(shards.manifests[1]))
        #expect { try MergeRunner.frameAggregate(shards) } throws: {
            "\($0)" == "c.tar.zst: frames aggregated by mean, b.tar.zst by median (--aggregate)"
        }
        shards.manifests[2].conventions["frame_aggregate"] = "median"
        #expect(try MergeRunner.frameAggregate(shards) == "median")
    }

    /// Shards measured with another `--max-pixels` were merged as if alike (nothing recorded it);
    /// now the manifest records it and merge names what differs.
    @Test func shardsMeasuredWithOtherOptionsAreRefused() async throws {
        let root = Fixture.folder()
        try Fixture.writeSharpAndBlurred(root)
        let dataset = try DatasetLoader().load(root)
        let profile = try ProfileLoader(catalogue: EstimatorCatalog.knownOutputs()).builtIn("basic")
        var parts: [String] = []
        for (k, pixels) in [(1, 100_000_000), (2, 5_000)] {
            let shard = try await BenchRunner().run(
                BenchJob(
                    dataset: dataset, profiles: [profile], outputFolder: root + "/shard\(k)", concurrency: 2,
                    maxPixels: pixels, shard: Shard(index: k, count: 2)))
            parts.append(shard.archivePath)
        }
        // The first option named: max_image_bytes (derived from --max-pixels: 6 bytes a pixel + 16 MiB)
        // or max_pixels itself, whichever the manifest lists first.
        #expect { try MergeRunner().merge(parts, outputFolder: root + "/merged") } throws: {
            let message = "\($0)"
            return message.hasPrefix("\(parts[1]): measured with other options than \(parts[0]): ")
                && (message.hasSuffix("max_pixels '5000' vs '100000000'")
                    || message.hasSuffix("max_image_bytes '16807216' vs '616777216'"))
        }
        #expect(!FileManager.default.fileExists(atPath: root + "/merged"))
    }

    /// Two shards measured with `--cascades` folders holding the same files: on 715cc5d merge
    /// compared the cascade paths and refused them ("face cascade '.../b/...' vs '.../a/...'").
    @Test func theSameCascadesInAnotherFolderMerge() async throws {
        let root = Fixture.folder()
        let parts = try await Self.shardsMeasured(root: root) { k in
            let folder = root + (k == 1 ? "/cascades-a" : "/cascades-b")
            try Self.copyCascades(to: folder)
            return folder
        }
        let merged = try MergeRunner().merge(parts, outputFolder: root + "/merged")
        #expect(merged.table.count == 8)
    }

    /// Another cascade (OpenCV's `alt` one) copied over the same path between two shards: on
    /// 715cc5d the paths were equal and merge mixed two detectors' measurements; now it is refused
    /// naming the file.
    @Test func anotherCascadeAtTheSamePathIsRefusedNamingTheFile() async throws {
        // A short folder name: the message quotes the path whole up to its length limit.
        let root = Fixture.folder("m")
        let folder = root + "/cascades"
        try Self.copyCascades(to: folder)
        let face = folder + "/haarcascades/haarcascade_frontalface_default.xml"
        let parts = try await Self.shardsMeasured(root: root) { k in
            if k == 2 {
                try FileManager.default.removeItem(atPath: face)
                try FileManager.default.copyItem(
                    atPath: EstimatorOptions.defaultCascadeDirectory + "/haarcascades/haarcascade_frontalface_alt.xml",
                    toPath: face)
            }
            return folder
        }
        #expect { try MergeRunner().merge(parts, outputFolder: root + "/merged") } throws: {
            let message = "\($0)"
            return message.hasPrefix(
                "\(parts[1]): measured with other options than \(parts[0]): face cascade '\(face)' "
                    + "has other content (FNV-1a 64 '")
        }
        #expect(!FileManager.default.fileExists(atPath: root + "/merged"))
    }

    /// The three cascade files `face` and `eyes` read, copied from the installed ones.
    static func copyCascades(to folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder + "/haarcascades", withIntermediateDirectories: true)
        for file in ["haarcascade_frontalface_default.xml", "haarcascade_frontalface_alt.xml", "haarcascade_eye.xml"] {
            try FileManager.default.copyItem(
                atPath: EstimatorOptions.defaultCascadeDirectory + "/haarcascades/" + file,
                toPath: folder + "/haarcascades/" + file)
        }
    }

    /// Shards 1/2 and 2/2 of four bona fide and four attack images, measured with `face` and
    /// `eyes` from the cascade folder `cascades(k)` gives for shard k.
    static func shardsMeasured(root: String, cascades: (Int) throws -> String) async throws -> [String] {
        try Fixture.writeSharpAndBlurred(root + "/data")
        let dataset = try DatasetLoader().load(root + "/data")
        let profile = try ProfileLoader(catalogue: EstimatorCatalog.knownOutputs()).builtIn("basic")
        var parts: [String] = []
        for k in 1...2 {
            var options = EstimatorOptions(cascadeDirectory: try cascades(k))
            options.faceDetector = .cascade
            let job = BenchJob(
                dataset: dataset, profiles: [profile], extraEstimators: ["face", "eyes"],
                estimatorOptions: options,
                outputFolder: root + "/shard\(k)", concurrency: 2, shard: Shard(index: k, count: 2))
            parts.append(try await BenchRunner().run(job).archivePath)
        }
        return parts
    }
}

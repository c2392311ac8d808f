import Foundation
@testable import PadArchive
@testable import PadBench
@testable import PadDataset
@testable import PadImage
@testable import PadProfiles
@testable import PadReport
@testable import PadRuns
import Testing

/// A bench run on a manifest with `group.sex` and `attr.blurry` columns writes labels.csv,
/// fairness.csv, attributes.csv and edc.csv, and the report's sections; each group's counts are
/// recounted here from decisions.csv and the manifest.
@Suite struct RunAnalysesTests {
    /// 8 bona fide (sharp, contrast 40-54) and 8 print attacks (blurred, contrast 2-9); sex alternates.
    static func writeDataset(_ root: String) throws -> [String: String] {
        var manifest = "path,label,species,split,subject,group.sex,attr.blurry\n"
        var sex: [String: String] = [:]
        for i in 0..<8 {
            let s = i % 2 == 0 ? "female" : "male"
            Fixture.write(
                try ImageEncoder.jpeg(Fixture.image(contrast: 40 + 2 * i, seed: i), quality: 95), root + "/b\(i).jpg")
            manifest += "b\(i).jpg,bonafide,,,s\(i),\(s),0\n"
            Fixture.write(
                try ImageEncoder.jpeg(Fixture.image(contrast: 2 + i, seed: i), quality: 60), root + "/a\(i).jpg")
            manifest += "a\(i).jpg,attack,print,,s\(i),\(s),1\n"
            sex["b\(i).jpg"] = s
            sex["a\(i).jpg"] = s
        }
        try manifest.write(toFile: root + "/manifest.csv", atomically: true, encoding: .utf8)
        return sex
    }

    static func rows(_ path: String) throws -> [[String: String]] {
        let table = try CSVTable(path: path)
        return table.records.map { Dictionary(uniqueKeysWithValues: zip(table.header, $0.fields)) }
    }

    @Test func manifestWithGroupsAndAttributes() async throws {
        let root = Fixture.folder()
        let sex = try Self.writeDataset(root)
        let dataset = try DatasetLoader().load(root)
        #expect(dataset.labels.names == ["group.sex", "attr.blurry"])
        let profile = try ProfileLoader(catalogue: EstimatorCatalog.knownOutputs()).builtIn("basic")
        let out = root + "/run"
        let outcome = try await BenchRunner().run(
            BenchJob(dataset: dataset, profiles: [profile], outputFolder: out, concurrency: 2))
        let archive = try ResultArchiveReader(path: outcome.archivePath)
        for member in ["labels.csv", "fairness.csv", "attributes.csv", "edc.csv", "metrics.csv"] {
            let held = archive.contains(member)
            #expect(held, "\(member)")
        }
        #expect(try Self.rows(out + "/labels.csv").count == 16)

        // Recount each group's BPCER and APCER from decisions.csv.
        var bf: [String: (Int, Int)] = [:], at: [String: (Int, Int)] = [:]
        for d in try Self.rows(out + "/decisions.csv") where d["accepted"] != "" {
            let g = sex[d["id"]!]!, accepted = d["accepted"] == "1"
            if d["label"] == "bonafide" {
                bf[g, default: (0, 0)].0 += accepted ? 0 : 1; bf[g, default: (0, 0)].1 += 1
            } else {
                at[g, default: (0, 0)].0 += accepted ? 1 : 0; at[g, default: (0, 0)].1 += 1
            }
        }
        let fairness = try Self.rows(out + "/fairness.csv")
        for g in ["female", "male"] {
            let b = try #require(fairness.first { $0["group"] == g && $0["metric"] == "bpcer" })
            #expect(b["errors"] == String(bf[g]!.0) && b["n"] == String(bf[g]!.1))
            let a = try #require(fairness.first { $0["group"] == g && $0["metric"] == "apcer" })
            #expect(a["errors"] == String(at[g]!.0) && a["n"] == String(at[g]!.1) && a["species"] == "print")
        }
        #expect(fairness.contains { $0["metric"] == "fdr" && $0["characteristic"] == "group.sex" })

        // Sharpness tells the blurred captures apart completely.
        let attributes = try Self.rows(out + "/attributes.csv")
        let sharp = try #require(
            attributes.first { $0["output"] == "quality.sharpness" && $0["attribute"] == "attr.blurry" })
        #expect(sharp["auc"] == "1" && sharp["direction"] == "higher-without" && sharp["n_with"] == "8")

        let edc = try Self.rows(out + "/edc.csv")
        // Not by quality.sharpness: basic sweeps it (its own score is no capture gate).
        #expect(
            edc.contains { $0["output"] == "quality.underexposure" && $0["kind"] == "area" && $0["rate"] == "bpcer" })
        #expect(!edc.contains { $0["output"] == "quality.sharpness" })
        #expect(edc.filter { $0["kind"] == "curve" && $0["x"] == "0" }.allSatisfy { $0["quality_low"] == "-inf" })
        let html = try String(contentsOfFile: out + "/report.html", encoding: .utf8)
        for title in ["Demographic differentials", "Error versus discard", "Which output detects which attribute"] {
            #expect(html.contains(title), "\(title)")
        }
        try StoredRun(path: outcome.archivePath).verify()
    }

    /// `compare --gate fairness`: the same samples measured again after the female bona fide images
    /// were replaced by black ones (rejected by `basic`'s exposure gate): female BPCER rises to 4/4
    /// while male's stays 0/4, so FDR drops by more than the tolerance; the run against itself
    /// passes.
    @Test func fairnessGateCatchesAWidenedDifferential() async throws {
        let root = Fixture.folder()
        _ = try Self.writeDataset(root)
        let profile = try ProfileLoader(catalogue: EstimatorCatalog.knownOutputs()).builtIn("basic")
        func bench(_ out: String) async throws -> StoredRun {
            let outcome = try await BenchRunner().run(
                BenchJob(
                    dataset: try DatasetLoader().load(root), profiles: [profile], outputFolder: out, concurrency: 2))
            return try StoredRun(path: outcome.archivePath)
        }
        let base = try await bench(root + "/base")
        for i in stride(from: 0, to: 8, by: 2) { // the female bona fide, black: rejected by EXPOSURE
            Fixture.write(try ImageEncoder.jpeg(Image(width: 96, height: 64, format: .rgb)), root + "/b\(i).jpg")
        }
        let new = try await bench(root + "/new")
        var settings = RunComparison.Settings()
        settings.gate = .fairness
        let same = try RunComparison(base: base, new: base, settings: settings)
        #expect(!same.regressed && same.checks.map(\.name) == ["basic group.sex fdr", "basic group.sex garbe"])
        let worse = try RunComparison(base: base, new: new, settings: settings)
        let fdr = try #require(worse.checks.first { $0.name == "basic group.sex fdr" })
        #expect(fdr.regressed && fdr.base - fdr.new > 0.05, "\(fdr.detail)")
        // The rows say why: female BPCER 4/4, male 0/4, so FDR = 1 - 0.5 * 1 = 0.5.
        let rows = try Self.rows(root + "/new/fairness.csv")
        let female = try #require(rows.first { $0["group"] == "female" && $0["metric"] == "bpcer" })
        #expect(female["errors"] == "4" && female["n"] == "4" && fdr.new == 0.5)
        settings.fairnessTolerance = 1
        #expect(!(try RunComparison(base: base, new: new, settings: settings)).regressed)
    }

    /// The fairness gate does not take fairness.csv on trust: an FDR edited away from its groups'
    /// rates, a group rate that is not its errors / n, and a deleted fairness.csv beside group.*
    /// labels each make the runs not comparable, naming the file and row.
    @Test func anEditedOrMissingFairnessFileIsNotGated() async throws {
        let root = Fixture.folder()
        _ = try Self.writeDataset(root)
        let profile = try ProfileLoader(catalogue: EstimatorCatalog.knownOutputs()).builtIn("basic")
        let outcome = try await BenchRunner().run(
            BenchJob(
                dataset: try DatasetLoader().load(root), profiles: [profile], outputFolder: root + "/base",
                concurrency: 2))
        let base = try StoredRun(path: outcome.archivePath)
        var settings = RunComparison.Settings()
        settings.gate = .fairness
        #expect(throws: Never.self) { try RunComparison(base: base, new: base, settings: settings) }
        func refusal(_ copy: String) -> String {
            do {
                _ = try RunComparison(base: base, new: try StoredRun(path: copy), settings: settings)
                return "accepted"
            } catch { return "\(error)" }
        }
        /// fairness.csv with field `index` of the rows whose metric (field 5) is `metric` set to `value`.
        func edited(_ metric: String, field index: Int, to value: String) throws -> String {
            try StoredRunCheckTests.edited(
                outcome.archivePath, "fairness.csv", to: root + "/\(metric)-\(index).tar.zst"
            ) { text in
                text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                    var fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                    if fields.count > index, fields[5] == metric { fields[index] = value }
                    return fields.joined(separator: ",")
                }.joined(separator: "\n")
            }
        }
        let fdr = refusal(try edited("fdr", field: 7, to: "0.99"))
        #expect(fdr.contains("fairness.csv:") && fdr.contains("fdr is 0.99; its groups' rates give"), "\(fdr)")
        let rate = refusal(try edited("bpcer", field: 7, to: "0.123"))
        #expect(rate.contains("is not its errors / n"), "\(rate)")
        // A group's BPCER counts scaled together (e/n to 2e/2n: the same rate and so the same FDR
        // and GARBE, a narrower interval): consistent with itself, not with the decisions.
        let counts = refusal(
            try StoredRunCheckTests.edited(outcome.archivePath, "fairness.csv", to: root + "/counts.tar.zst") { text in
                var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
                    $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                }
                let k = lines.firstIndex { $0.count > 9 && $0[5] == "bpcer" }!
                lines[k][8] = String(2 * Int(lines[k][8])!)
                lines[k][9] = String(2 * Int(lines[k][9])!)
                return lines.map { $0.joined(separator: ",") }.joined(separator: "\n")
            })
        #expect(
            counts.contains("fairness.csv:") && counts.contains("not what labels.csv and decisions.csv give"),
            "\(counts)")
        // One sample's group edited in labels.csv (every file of the archive otherwise as written).
        let relabelled = refusal(
            try StoredRunCheckTests.edited(outcome.archivePath, "labels.csv", to: root + "/labels.tar.zst") { text in
                var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                let k = lines.firstIndex { $0.contains(",female") }!
                lines[k] = lines[k].replacingOccurrences(of: ",female", with: ",male")
                return lines.joined(separator: "\n")
            })
        #expect(relabelled.contains("not what labels.csv and decisions.csv give"), "\(relabelled)")
        // fairness.csv removed, labels.csv with group.sex kept.
        let reader = try ResultArchiveReader(path: outcome.archivePath)
        let writer = try ResultArchiveWriter(finalPath: root + "/deleted.tar.zst")
        for member in reader.entryNames where member != "fairness.csv" {
            try writer.add(name: member, contents: try reader.entry(named: member))
        }
        try writer.commit()
        let deleted = refusal(root + "/deleted.tar.zst")
        #expect(deleted.contains("labels.csv has group.* columns but fairness.csv is missing"), "\(deleted)")
        // The check is the stored run's own, so `show` and `folds` refuse the archive too.
        #expect(throws: StoredRunMismatch.self) { try StoredRun(path: root + "/deleted.tar.zst").verify() }
    }

    /// A dataset without labels writes none of the label files (runs stay as they were).
    @Test func noLabelsNoLabelFiles() async throws {
        let root = Fixture.folder()
        try Fixture.writeSharpAndBlurred(root)
        let profile = try ProfileLoader(catalogue: EstimatorCatalog.knownOutputs()).builtIn("basic")
        let outcome = try await BenchRunner().run(
            BenchJob(
                dataset: try DatasetLoader().load(root), profiles: [profile], outputFolder: root + "/run",
                concurrency: 2))
        let archive = try ResultArchiveReader(path: outcome.archivePath)
        let held = ["labels.csv", "fairness.csv", "attributes.csv", "edc.csv", "metrics.csv"].map(archive.contains)
        #expect(held == [false, false, false, true, true])
    }
}

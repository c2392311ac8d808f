import Foundation
import Testing

/// `--aggregate`, `--attack-potential` and presentation errors through the built `padbench`.
@Suite struct PresentationCLITests {
    typealias CLI = CommandLineTests

    static func write(_ text: String, _ path: String) {
        try! text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test func aggregateAndAttackPotentialOptions() throws {
        let folder = CLI.folder()
        Self.write(
            "a a v1 0.9\na a v1 0.1\nb attack attack/print/v2 0.2\nb attack attack/print/v2 0.6\n", folder + "/s.txt")
        Self.write("species,attack_potential\nprint,1\n", folder + "/ap.csv")
        let ok = try CLI.run([
            "eval", "--scores", folder + "/s.txt", "--threshold", "0.45", "--aggregate", "max",
            "--attack-potential", folder + "/ap.csv", "--out", folder + "/run",
        ])
        #expect(ok.status == 0, "\(ok.err)")
        // max: v1 0.9 accepted, v2 0.6 accepted: APCER_AP[1] = 1 (print 1/1).
        let summary = try String(contentsOfFile: folder + "/run/summary.csv", encoding: .utf8)
        #expect(summary.split(separator: "\n")[0].hasSuffix(",apcer_ap[1],apcer_ap[1]_species"))
        #expect(summary.split(separator: "\n")[1].hasSuffix(",1,print"))
        #expect(FileManager.default.fileExists(atPath: folder + "/run/frames/summary.csv"))

        let usage = try CLI.run(["eval", "--scores", folder + "/s.txt", "--aggregate", "mode", "--out", folder + "/x"])
        #expect(usage.status == 64)
        let missing = try CLI.run([
            "eval", "--scores", folder + "/s.txt", "--attack-potential", folder + "/none.csv", "--out", folder + "/y",
        ])
        #expect(missing.status == 1 && missing.err.contains(folder + "/none.csv"))
    }

    @Test func presentationSpanningTwoLabelsIsOneErrorLine() throws {
        let folder = CLI.folder()
        Self.write("a a v1 0.9\nb attack v1 0.2\n", folder + "/s.txt")
        let result = try CLI.run(["eval", "--scores", folder + "/s.txt", "--out", folder + "/run"])
        #expect(result.status == 1)
        #expect(
            result.err.contains(
                "\(folder)/s.txt:2: presentation 'v1' spans two labels: 'attack' here, 'bonafide' at \(folder)/s.txt:1")
        )
        #expect(!FileManager.default.fileExists(atPath: folder + "/run"))
    }

    /// `import --attack-potential`: APCER_AP per level in summary.csv and the level per species in
    /// per_species.csv, as bench writes them. IDEMIA statuses on the committed sample: every
    /// image `Live` (accepted), so every attack is accepted and APCER_AP[high] is 1 on print.
    @Test func importReportsAttackPotentialLevels() throws {
        let folder = CLI.folder()
        let ids = try String(
            contentsOfFile: ProfileOutputsCLITests.root + "/datasets/sample/manifest.csv", encoding: .utf8
        )
        .split(separator: "\n").dropFirst().map { $0.split(separator: ",")[0] }.filter { $0.hasSuffix(".jpg") }
        Self.write(
            "id,status\n" + ids.map { "\(($0 as NSString).lastPathComponent),Live\n" }.joined(), folder + "/idemia.csv")
        Self.write("species,attack_potential\nprint,high\nreplay,low\n", folder + "/ap.csv")
        let r = try ProfileOutputsCLITests.padbench([
            "import", "idemia-status", "--dataset", "datasets/sample", "--input", folder + "/idemia.csv", "--profiles",
            "idemia-status", "--attack-potential", folder + "/ap.csv", "--out", folder + "/run",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let summary = try MergeCLITests.csvLines(folder + "/run/summary.csv")
        #expect(summary[0].hasSuffix(",apcer_ap[high],apcer_ap[high]_species,apcer_ap[low],apcer_ap[low]_species"))
        #expect(summary.dropFirst().allSatisfy { $0.hasSuffix(",1,print,1,replay") }, "\(summary)")
        let species = try MergeCLITests.csvLines(folder + "/run/per_species.csv")
        #expect(species[0].hasSuffix(",attack_potential"))
        #expect(species.contains { $0.contains(",print,") && $0.hasSuffix(",high") })
        #expect(species.contains { $0.contains(",replay,") && $0.hasSuffix(",low") })
        let report = try String(contentsOfFile: folder + "/run/report.html", encoding: .utf8)
        #expect(report.contains("APCER_AP"))
    }

    /// `merge` refuses shards measured with other attack potential levels, naming the species;
    /// shards alike merge with their levels, and `merge --attack-potential` goes over them.
    @Test func mergeChecksAndTakesAttackPotentialLevels() throws {
        let dir = CLI.folder()
        let data = try MergeCLITests.sampleSubset(dir + "/data", count: 4)
        Self.write("species,attack_potential\nprint,high\n", dir + "/high.csv")
        Self.write("species,attack_potential\nprint,low\n", dir + "/low.csv")
        let common = ["--dataset", data, "--profiles", "basic", "--quiet"]
        for (name, shard, levels) in [("s1", "1/2", "high"), ("s2", "2/2", "high"), ("t2", "2/2", "low")] {
            let r = try ProfileOutputsCLITests.padbench(
                ["bench"] + common + [
                    "--shard", shard, "--attack-potential", dir + "/\(levels).csv", "--out", dir + "/" + name,
                ])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let refused = try ProfileOutputsCLITests.padbench([
            "merge", dir + "/s1/results.tar.zst", dir + "/t2/results.tar.zst", "--out", dir + "/bad",
        ])
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains(
                "\(dir)/t2/results.tar.zst: attack potential levels differ from \(dir)/s1/results.tar.zst's: "
                    + "species 'print' is 'low' here, 'high' there"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/bad/summary.csv"))

        let merged = try ProfileOutputsCLITests.padbench([
            "merge", dir + "/s1/results.tar.zst", dir + "/s2/results.tar.zst", "--out", dir + "/merged",
        ])
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(
            try MergeCLITests.csvLines(dir + "/merged/summary.csv")[0].hasSuffix(
                ",apcer_ap[high],apcer_ap[high]_species"))
        #expect(
            try MergeCLITests.csvLines(dir + "/merged/per_species.csv").dropFirst().allSatisfy { $0.hasSuffix(",high") }
        )

        let over = try ProfileOutputsCLITests.padbench([
            "merge", dir + "/s1/results.tar.zst", dir + "/s2/results.tar.zst", "--attack-potential", dir + "/low.csv",
            "--out", dir + "/over",
        ])
        #expect(over.status == 0, "\(over.stderr)")
        #expect(
            try MergeCLITests.csvLines(dir + "/over/summary.csv")[0].hasSuffix(",apcer_ap[low],apcer_ap[low]_species"))
    }

    /// Rows of a padbench CSV with no quoted fields, each as column name -> field.
    static func rows(_ path: String) throws -> [[String: String]] {
        let lines = try MergeCLITests.csvLines(path)
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        return lines.dropFirst().map { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return Dictionary(uniqueKeysWithValues: zip(header, fields))
        }
    }

    /// `bench` on the committed sample's 8 video clips (4 frames each) with a best-shot and a
    /// k-of-n profile: every presentation's decision is worked out again here from the run's own
    /// frame rows (samples.csv values and decisions.csv decisions), by the rules docs/video-and-presentations.md gives.
    /// Best shot: the first frame (frame order) passing the capture gate (luminance >= 62) is the
    /// presentation's frame and its frame decision is the presentation's; with none, the
    /// presentation is rejected by that gate. 2 of 3: accepted when at least 2 of the first 3
    /// frames are accepted.
    @Test func bestShotAndKOfNOnTheSampleClips() throws {
        let dir = CLI.folder()
        let source = ProfileOutputsCLITests.root + "/datasets/sample"
        try FileManager.default.copyItem(atPath: source + "/video", toPath: dir + "/data/video")
        let clips = try MergeCLITests.csvLines(source + "/manifest.csv").filter { $0.hasPrefix("video/") }
        Self.write(
            "path,label,species,split,subject\n"
                + clips.map {
                    $0.split(separator: ",", omittingEmptySubsequences: false).prefix(5).joined(separator: ",")
                }
                .joined(separator: "\n") + "\n", dir + "/data/manifest.csv")
        let gates = """
            score: quality.sharpness
            gates:
              - {output: quality.luminance_mean, op: ge, value: 62, code: DARK, message: too dark}
              - {output: quality.sharpness, op: ge, value: 400, code: BLURRED, message: blurred}

            """
        Self.write("name: best\nsource: test\nframes: {decide: best_shot}\n" + gates, dir + "/best.yaml")
        Self.write("name: two\nsource: test\nframes: {decide: k_of_n, k: 2, n: 3}\n" + gates, dir + "/two.yaml")
        let r = try ProfileOutputsCLITests.padbench([
            "bench", "--dataset", dir + "/data", "--frames", "4", "--profiles", dir + "/best.yaml," + dir + "/two.yaml",
            "--quiet", "--out", dir + "/run",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let samples = try Self.rows(dir + "/run/samples.csv")
        let frames = try Self.rows(dir + "/run/decisions.csv")
        let decided = try Self.rows(dir + "/run/presentation_decisions.csv")
        #expect(samples.count == 32 && frames.count == 64 && decided.count == 16)
        let frameDecision = Dictionary(uniqueKeysWithValues: frames.map { ($0["profile"]! + " " + $0["id"]!, $0) })
        var outcomes: [String: Set<String>] = [:], bestNotFirst = 0
        for presentation in Set(samples.map { $0["presentation"]! }).sorted() {
            let ordered = samples.filter { $0["presentation"] == presentation }.sorted {
                Int($0["frame"]!)! < Int($1["frame"]!)!
            }
            #expect(ordered.count == 4)
            let row = { (profile: String) in decided.first { $0["id"] == presentation && $0["profile"] == profile }! }
            // Best shot.
            let best = row("best")
            if let shot = ordered.firstIndex(where: {
                $0["status"] == "ok" && Double($0["quality.luminance_mean"]!)! >= 62
            }) {
                let frame = frameDecision["best " + ordered[shot]["id"]!]!
                let sharp = Double(ordered[shot]["quality.sharpness"]!)! >= 400
                #expect(frame["accepted"] == (sharp ? "1" : "0"))
                #expect(best["accepted"] == frame["accepted"] && best["code"] == frame["code"], "\(presentation)")
                if shot > 0 { bestNotFirst += 1 }
            } else {
                #expect(best["accepted"] == "0" && best["code"] == "DARK", "\(presentation)")
            }
            outcomes["best", default: []].insert(best["accepted"]!)
            // 2 of the first 3 frames.
            let accepted = ordered.prefix(3).filter { frameDecision["two " + $0["id"]!]!["accepted"] == "1" }.count
            #expect(row("two")["accepted"] == (accepted >= 2 ? "1" : "0"), "\(presentation): \(accepted) of 3")
            outcomes["two", default: []].insert(row("two")["accepted"]!)
        }
        // The clips give both outcomes under both rules, and a best shot that is not the first frame.
        #expect(outcomes["best"] == ["0", "1"] && outcomes["two"] == ["0", "1"])
        #expect(bestNotFirst > 0)
    }
}

import Foundation
import Testing

/// issue 27: thresholds chosen on dev travel to eval as bob's do, options that do not apply are
/// refused (exit 64, naming the option), and `--score OUTPUT` decides in the output's direction.
@Suite struct ThresholdCLITests {
    typealias CLI = CommandLineTests

    /// issue 27's example: dev's EER gap is (0.41, 0.58) (bob.measure's `eer_threshold` 0.495);
    /// eval holds a bona fide at 0.496 and print attacks at 0.497 and 0.499. Values from
    /// Tests/PadMetricsTests/Fixtures/golden/make_golden_dev_eval.py (bob.measure 6.1.1).
    static func issueExample(_ path: String) {
        var text = "id,label,species,score,split\n"
        for (i, v) in [0.58, 0.62, 0.7, 0.75, 0.8, 0.9].enumerated() { text += "db\(i),bonafide,,\(v),dev\n" }
        for (i, v) in [0.1, 0.25, 0.33, 0.41].enumerated() { text += "da\(i),attack,print,\(v),dev\n" }
        for (i, v) in [0.3, 0.496, 0.62, 0.66, 0.71, 0.77, 0.85, 0.93].enumerated() {
            text += "eb\(i),bonafide,,\(v),eval\n"
        }
        for (i, v) in [0.05, 0.12, 0.2, 0.28, 0.36, 0.497, 0.499, 0.7].enumerated() {
            text += "ea\(i),attack,print,\(v),eval\n"
        }
        try! text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    static func profiles(_ folder: String) throws -> [[String: Any]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/results.json"))
        return (try JSONSerialization.jsonObject(with: data) as! [String: Any])["profiles"] as! [[String: Any]]
    }

    static func rate(_ set: [String: Any], _ key: String) -> Double? {
        (set[key] as? [String: Any])?["value"] as? Double
    }

    /// Fails on main at ea3c17e: the threshold was applied as 0.5 (eval APCER 1/8, BPCER 2/8).
    @Test func devEERThresholdGivesBobsEvalRates() throws {
        let dir = CLI.folder()
        Self.issueExample(dir + "/scores.csv")
        let run = try CLI.run(["eval", "--scores", dir + "/scores.csv", "--out", dir + "/run"])
        #expect(run.status == 0, "\(run.err)")
        let profile = try Self.profiles(dir + "/run")[0]
        #expect(profile["calibratedThresholds"] as? [Double] == [0.495])
        let eval = profile["reported"] as! [String: Any]
        #expect(eval["split"] as? String == "eval")
        #expect(Self.rate(eval, "apcerMax") == 0.375 && Self.rate(eval, "bpcer") == 0.125)
        let dev = profile["calibrationSet"] as! [String: Any]
        #expect(Self.rate(dev, "apcerMax") == 0 && Self.rate(dev, "bpcer") == 0)
        // Printed as the double's shortest round-trip form.
        let summary = try String(contentsOfFile: dir + "/run/summary.csv", encoding: .utf8)
        #expect(summary.contains(",0.495,"))
    }

    /// `--threshold T` on a file with dev rows reports the dev row too (main at ea3c17e: eval only).
    @Test func fixedThresholdReportsTheDevRowToo() throws {
        let dir = CLI.folder()
        Self.issueExample(dir + "/scores.csv")
        let run = try CLI.run(["eval", "--scores", dir + "/scores.csv", "--threshold", "0.5", "--out", dir + "/run"])
        #expect(run.status == 0, "\(run.err)")
        let profile = try Self.profiles(dir + "/run")[0]
        let eval = profile["reported"] as! [String: Any]
        #expect(Self.rate(eval, "apcerMax") == 0.125 && Self.rate(eval, "bpcer") == 0.25)
        let dev = try #require(profile["calibrationSet"] as? [String: Any])
        #expect(dev["split"] as? String == "dev" && dev["bonaFide"] as? Int == 6)
        #expect(Self.rate(dev, "apcerMax") == 0 && Self.rate(dev, "bpcer") == 0)
        let summary = try String(contentsOfFile: dir + "/run/summary.csv", encoding: .utf8)
        #expect(summary.split(separator: "\n").filter { $0.hasPrefix("scores,") }.count == 2)
    }

    /// issue 25: adjacent scores whose difference overflows (1e308 and -1e308, +-DBL_MAX) with every
    /// criterion (main at ea3c17e trapped while formatting the threshold).
    @Test func scoresWhoseDifferenceOverflowsDoNotCrash() throws {
        let dir = CLI.folder()
        for (name, low, high) in [
            ("e308", "-1e308", "1e308"), ("max", "-1.7976931348623157e308", "1.7976931348623157e308"),
            ("up", "1e308", "1.5e308"),
        ] {
            var text = "id,label,species,score\n"
            text += "b1,bonafide,,\(high)\nb2,bonafide,,\(high)\na1,attack,print,\(low)\na2,attack,print,\(low)\n"
            try text.write(toFile: dir + "/\(name).csv", atomically: true, encoding: .utf8)
            for (k, criterion) in ["eer", "min-hter", "bpcer@apcer=0.01", "apcer@bpcer=0.05", "bpcer@apcer=1"]
                .enumerated()
            {
                let out = dir + "/\(name)-\(k)"
                let run = try CLI.run([
                    "eval", "--scores", dir + "/\(name).csv", "--criterion", criterion, "--out", out,
                ])
                #expect(run.status == 0, "\(name) \(criterion): \(run.err)")
                #expect(FileManager.default.fileExists(atPath: out + "/report.html"))
            }
        }
    }

    /// Every option that the chosen mode would not use exits 64 naming it (docs/commands.md promise; main at
    /// ea3c17e accepted each with exit 0 and no effect).
    @Test func inapplicableOptionsAreRefusedByName() throws {
        let dir = CLI.folder()
        CLI.scores(dir + "/s.csv")
        let archive = dir + "/none.tar.zst"
        let cases: [([String], String)] = [
            (["eval", "--archive", archive, "--score", "x", "--polarity", "attack-high"], "--polarity"),
            (["eval", "--archive", archive, "--profiles", "basic", "--threshold", "0.5"], "--threshold"),
            (["eval", "--archive", archive, "--profiles", "basic", "--criterion", "eer"], "--criterion"),
            (["eval", "--archive", archive, "--profiles", "basic", "--score", "x"], "--profiles"),
            (["eval", "--archive", archive, "--timing"], "--timing"),
            (["eval", "--archive", archive, "--dev", dir + "/s.csv"], "--dev"),
            (["eval", "--archive", archive, "--format", "generic"], "--format"),
            (["eval", "--archive", archive, "--direction", "lower-bonafide"], "--direction"),
            (["eval", "--scores", dir + "/s.csv", "--profiles", "basic"], "--profiles"),
            (["eval", "--scores", dir + "/s.csv", "--strict"], "--strict"),
            (["eval", "--scores", dir + "/s.csv", "--direction", "lower-bonafide"], "--direction"),
            (["bench", "--resume", dir + "/run", "--profiles", "basic"], "--profiles"),
            (["bench", "--resume", dir + "/run", "--estimators", "quality"], "--estimators"),
            (["bench", "--resume", dir + "/run", "--strict"], "--strict"),
        ]
        for (arguments, option) in cases {
            let run = try CLI.run(arguments + (arguments[0] == "eval" ? ["--out", dir + "/out"] : []))
            #expect(run.status == 64, "\(arguments): \(run.status) \(run.err)")
            #expect(run.err.contains(option), "\(arguments): \(run.err)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir + "/out"))
    }

    /// `--eer-rule pooled` reports bob.pad.base's EER (all attacks pooled) as `eer`; every run
    /// carries `eer_pooled`, BPCER100/20/10 with thresholds, APCER@BPCER and bob's HTER, and
    /// per_species.csv an EER per species (none of these existed on main at ea3c17e).
    @Test func operatingPointsAndPooledEER() throws {
        let dir = CLI.folder()
        CLI.scores(dir + "/s.csv", raise: 0.3)
        let worst = try CLI.run(["eval", "--scores", dir + "/s.csv", "--out", dir + "/worst"])
        let pooled = try CLI.run(["eval", "--scores", dir + "/s.csv", "--eer-rule", "pooled", "--out", dir + "/pooled"])
        #expect(worst.status == 0 && pooled.status == 0, "\(worst.err)\(pooled.err)")
        let a = try Self.profiles(dir + "/worst")[0]["reported"] as! [String: Any]
        let b = try Self.profiles(dir + "/pooled")[0]["reported"] as! [String: Any]
        #expect(a["eerPooled"] as? Double == b["eer"] as? Double)
        #expect((a["eer"] as! Double) > (b["eer"] as! Double))
        #expect((a["bestBPCERAtAPCER"] as? [Any])?.count == 3 && (a["apcerAtBPCER"] as? [Any])?.count == 3)
        #expect(a["hterPooled"] is Double)
        let summary = try String(contentsOfFile: dir + "/worst/summary.csv", encoding: .utf8)
        let header = summary.split(separator: "\n")[0].split(separator: ",").map(String.init)
        for column in [
            "bpcer100", "bpcer100_threshold", "bpcer20", "bpcer10", "apcer@bpcer=0.01", "apcer@bpcer=0.1",
            "eer_pooled", "hter_pooled",
        ] {
            #expect(header.contains(column), "\(column)")
        }
        let perSpecies = try String(contentsOfFile: dir + "/worst/per_species.csv", encoding: .utf8)
        #expect(perSpecies.hasPrefix("profile,split,species,n,accepted,apcer,apcer_ci_low,apcer_ci_high,is_max,eer\n"))
        let html = try String(contentsOfFile: dir + "/worst/report.html", encoding: .utf8)
        #expect(html.contains("Operating points") && html.contains("BPCER10: best BPCER"))
    }

    /// bob `--dev` files may reuse the eval file's `test_label`s (ids are per split; main at
    /// ea3c17e refused them as duplicates), and bob's `real_id` names the bona fide subjects, so the
    /// score run gets subject-clustered intervals.
    @Test func bobDevFileReusesLabelsAndNamesSubjects() throws {
        let dir = CLI.folder()
        var text = ""
        for i in 0..<6 { text += "p\(i % 3) p\(i % 3) live/p\(i % 3)/\(i) \(0.6 + Double(i) * 0.05)\n" }
        for i in 0..<6 { text += "p\(i % 3) attack attack/print/p\(i % 3)/\(i) \(0.1 + Double(i) * 0.05)\n" }
        try text.write(toFile: dir + "/eval.txt", atomically: true, encoding: .utf8)
        try text.write(toFile: dir + "/dev.txt", atomically: true, encoding: .utf8)
        let run = try CLI.run([
            "eval", "--scores", dir + "/eval.txt", "--dev", dir + "/dev.txt", "--format", "bob4", "--out", dir + "/run",
        ])
        #expect(run.status == 0, "\(run.err)")
        let eval = try Self.profiles(dir + "/run")[0]["reported"] as! [String: Any]
        let subjects = try #require(eval["subjectBootstrap"] as? [String: Any])
        #expect(subjects["bonaFideSubjects"] as? Int == 3)
        // A generic file's `subject` column does the same.
        var generic = "id,label,species,score,subject\n"
        for i in 0..<6 { generic += "b\(i),bonafide,,\(0.6 + Double(i) * 0.05),s\(i % 3)\n" }
        for i in 0..<6 { generic += "a\(i),attack,print,\(0.1 + Double(i) * 0.05),s\(i % 2 + 3)\n" }
        try generic.write(toFile: dir + "/g.csv", atomically: true, encoding: .utf8)
        #expect(try CLI.run(["eval", "--scores", dir + "/g.csv", "--out", dir + "/g"]).status == 0)
        let g = try Self.profiles(dir + "/g")[0]["reported"] as! [String: Any]
        #expect((g["subjectBootstrap"] as? [String: Any])?["bonaFideSubjects"] as? Int == 3)
    }

    /// Terminal and tools tell the truth (each fails on main at ea3c17e): the terminal's counts are
    /// a partition and an inverted score is flagged on the row; `bench --resume` of a missing run is
    /// one line; `profiles validate` refuses the typo bench refuses; `compare --json` has a verdict.
    @Test func terminalAndToolsTellTheTruth() throws {
        let dir = CLI.folder()
        Self.issueExample(dir + "/scores.csv")
        let run = try CLI.run(["eval", "--scores", dir + "/scores.csv", "--out", dir + "/run"])
        #expect(run.out.contains("bf+att+failed") && run.out.contains(" 8+8+0 ") && run.out.contains(" 6+4+0 "))
        let inverted = try CLI.run([
            "eval", "--scores", dir + "/scores.csv", "--polarity", "attack-high", "--out", dir + "/inverted",
        ])
        #expect(inverted.out.contains("see warnings"))
        #expect(inverted.err.contains("scores look attack-high"), "\(inverted.err)")
        let resume = try CLI.run(["bench", "--resume", dir + "/nothing"])
        #expect(resume.status == 1 && resume.err.split(separator: "\n").count == 1, "\(resume.err)")
        #expect(resume.err.contains("no interrupted bench run to resume"))
        let finished = try CLI.run(["bench", "--resume", dir + "/run"])
        #expect(finished.status == 1 && finished.err.contains("the run is complete"), "\(finished.err)")
        let yaml =
            "name: t\nsource: test\ngates:\n  - {output: qualty.luminance_mean, op: ge, value: 40, code: D, message: dark}\n"
        try yaml.write(toFile: dir + "/typo.yaml", atomically: true, encoding: .utf8)
        let validate = try CLI.run(["profiles", "validate", dir + "/typo.yaml"])
        #expect(
            validate.status == 1 && validate.out.contains("did you mean `quality.luminance_mean`"), "\(validate.out)")
        let compare = try CLI.run(["compare", dir + "/run", dir + "/run", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(compare.out.utf8)) as! [String: Any]
        #expect(object["verdict"] as? String == "no regression")
    }
}

import Foundation
import Testing
import TestSupport

/// Issue 30, "a gate that does not hinge on one threshold": `compare` tests EER and BPCER at each
/// APCER target by a paired bootstrap over subjects. The committed pair
/// `examples/scores/curve-regression` keeps every decision at the threshold 0.55 while its EER
/// rises by 2 points; identical reruns never alarm.
@Suite struct CurveGateCLITests {
    typealias CLI = CommandLineTests
    static let root = ProfileOutputsCLITests.root
    static let pair = root + "/examples/scores/curve-regression"

    static func eval(_ name: String, _ dir: String) throws -> String {
        let out = dir + "/" + name
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let result = try CLI.run([
            "eval", "--scores", pair + "/\(name).csv", "--threshold", "0.55", "--out", out,
        ])
        #expect(result.status == 0, "\(result.err)")
        return out
    }

    /// The rates at 0.55 do not move (McNemar: no discordant pair), the EER does: exit 1 naming
    /// EER with its interval; JUnit records the bootstrap's settings and the failure.
    @Test func curveRegressionAtAnUnchangedThresholdFailsOnEER() throws {
        let dir = CLI.folder()
        let base = try Self.eval("base", dir), new = try Self.eval("new", dir)
        let result = try CLI.run(["compare", base, new, "--junit", dir + "/junit.xml", "--html", dir + "/c.html"])
        #expect(result.status == 1, "\(result.out)\(result.err)")
        let lines = result.out.split(separator: "\n").map(String.init)
        let eer = try #require(lines.first { $0.contains("scores eer ") })
        #expect(eer.hasPrefix("REGRESSED") && eer.contains("paired-bootstrap"), "\(eer)")
        #expect(eer.contains("one-sided 95% interval [+") && eer.contains("+inf)"), "\(eer)")
        #expect(eer.contains("1000 replicates, seed 30107"), "\(eer)")
        // The decisions at the threshold are the same: APCER and BPCER are not regressions.
        let bpcer = try #require(lines.first { $0.contains("scores bpcer ") })
        #expect(bpcer.hasPrefix("ok") && bpcer.contains("discordant: 0 now wrong, 0 now right"), "\(bpcer)")
        #expect(lines.last?.hasPrefix("REGRESSION: scores eer") == true, "\(lines.last ?? "")")
        let junit = try String(contentsOfFile: dir + "/junit.xml", encoding: .utf8)
        #expect(junit.contains("<property name=\"bootstrap.replicates\" value=\"1000\"/>"))
        #expect(junit.contains("<property name=\"bootstrap.seed\" value=\"30107\"/>"))
        #expect(junit.contains("<testcase classname=\"padbench\" name=\"scores eer\"><failure"))
        let html = try String(contentsOfFile: dir + "/c.html", encoding: .utf8)
        #expect(html.contains("1000 replicates") && html.contains("<svg"))
        // The JSON carries the settings too.
        let json = try CLI.run([
            "compare", base, new, "--json", "--bootstrap-seed", "7", "--bootstrap-replicates", "200",
        ])
        #expect(
            json.status == 1 && json.out.contains("\"seed\" : 7") && json.out.contains("\"replicates\" : 200"),
            "\(json.out)")
        // Gating another profile only: the scores profile's metrics are skipped, nothing gated: exit 2.
        let other = try CLI.run(["compare", base, new, "--profiles", "nosuch"])
        #expect(other.status == 2 && other.err.contains("--profiles names nosuch"), "\(other.err)")
    }

    /// `--profiles` limits the gate: on a bench run of the sample with two profiles, the other
    /// profile's metrics are `<skipped/>` in JUnit, never passed.
    @Test func profilesOptionSkipsTheOthersInJUnit() throws {
        let dir = CLI.folder()
        let run = dir + "/run"
        let bench = try CLI.run(
            ["bench", "--dataset", "datasets/sample", "--profiles", "basic,luna-id-default", "--quiet", "--out", run],
            in: Self.root)
        #expect(bench.status == 0, "\(bench.err)")
        let result = try CLI.run(["compare", run, run, "--profiles", "basic", "--junit", dir + "/j.xml"])
        #expect(result.status == 0, "\(result.out)\(result.err)")
        let junit = try String(contentsOfFile: dir + "/j.xml", encoding: .utf8)
        let cases = junit.split(separator: "\n").filter { $0.contains("<testcase") }
        #expect(!cases.isEmpty)
        // Latency steps (`timing ...`) are gated for every profile alike: not limited by --profiles.
        for line in cases where !line.contains("name=\"basic ") && !line.contains("name=\"timing ") {
            #expect(line.contains("<skipped message=\"") && !line.contains("<system-out>"), "\(line)")
        }
        // basic is a capture check: its bona fide reject rate is gated, what it lets through is shown.
        #expect(
            cases.contains { $0.contains("name=\"basic capture_reject[bonafide]\"") && $0.contains("<system-out>") })
        #expect(cases.contains { $0.contains("name=\"basic capture_pass[print]\"><skipped message=") })
        #expect(!cases.contains { $0.contains("name=\"basic eer\"") || $0.contains("name=\"basic apcer_max\"") })
    }

    /// One subject per class (the committed sample's eval split has that): a score update that is
    /// noise only must not fail. The paired bootstrap over 1 unit gives the point difference as
    /// its "interval", so EER and BPCER@APCER are "not gated (1 subject)" in the terminal, JSON
    /// and JUnit; the rates stay gated by McNemar. With the subjects removed the units are the
    /// presentations and the bootstrap gates again.
    @Test func oneSubjectPerClassIsNotGatedByTheBootstrap() throws {
        let dir = CLI.folder()
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        // 24 bona fide and 24 print presentations, one subject each; "new" adds noise of +-0.04.
        var base = "id,label,species,score,split,subject\n", new = base
        var noSubjectBase = "id,label,species,score,split\n", noSubjectNew = noSubjectBase
        for k in 0..<48 {
            let bonaFide = k < 24
            let score = bonaFide ? 0.45 + Double(k) * 0.02 : 0.05 + Double(k - 24) * 0.02
            let noisy = score + (k % 2 == 0 ? 0.04 : -0.04)
            let label = bonaFide ? "bonafide," : "attack,print"
            let subject = bonaFide ? "alice" : "bob"
            base += "s\(k),\(label),\(score),eval,\(subject)\n"
            new += "s\(k),\(label),\(noisy),eval,\(subject)\n"
            noSubjectBase += "s\(k),\(label),\(score),eval\n"
            noSubjectNew += "s\(k),\(label),\(noisy),eval\n"
        }
        for (name, text) in [("b", base), ("n", new), ("bn", noSubjectBase), ("nn", noSubjectNew)] {
            try text.write(toFile: dir + "/\(name).csv", atomically: true, encoding: .utf8)
            let result = try CLI.run([
                "eval", "--scores", dir + "/\(name).csv", "--threshold", "0.5", "--out", dir + "/\(name)",
            ])
            #expect(result.status == 0, "\(result.err)")
        }
        let result = try CLI.run(["compare", dir + "/b", dir + "/n", "--junit", dir + "/j.xml"])
        #expect(result.status == 0, "\(result.out)\(result.err)")
        let lines = result.out.split(separator: "\n").map(String.init)
        let eer = try #require(lines.first { $0.contains("scores eer ") })
        #expect(eer.hasPrefix("info") && eer.contains("not gated (1 subject)"), "\(eer)")
        #expect(eer.contains("bonafide has 1 of the 10 units"), "\(eer)")
        let bpcer = try #require(lines.first { $0.contains("scores bpcer ") })
        #expect(bpcer.hasPrefix("ok") && bpcer.contains("mcnemar"), "\(bpcer)")
        let junit = try String(contentsOfFile: dir + "/j.xml", encoding: .utf8)
        #expect(junit.contains("name=\"scores eer\"><skipped message=") && junit.contains("not gated (1 subject)"))
        #expect(junit.contains("<property name=\"bootstrap.minimum_units\" value=\"10\"/>"))
        let json = try CLI.run(["compare", dir + "/b", dir + "/n", "--json"])
        #expect(
            json.status == 0 && json.out.contains("not gated (1 subject)") && json.out.contains("\"minimumUnits\" : 10")
        )
        // Without subjects: 24 presentations per class, gated.
        let presentations = try CLI.run(["compare", dir + "/bn", dir + "/nn"])
        let gated = try #require(presentations.out.split(separator: "\n").first { $0.contains("scores eer ") })
        #expect(!gated.hasPrefix("info") && gated.contains("paired bootstrap over 24 bona fide"), "\(gated)")
        // The minimum is an option; below 2 it is refused.
        let refused = try CLI.run(["compare", dir + "/b", dir + "/n", "--bootstrap-min-units", "1"])
        #expect(
            refused.status == 64 && refused.err.contains("--bootstrap-min-units must be at least 2"), "\(refused.err)")
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// 20 reruns of the committed base model's evaluation (2,000 presentations of 400 subjects),
    /// each compared with the first: no alarm, 0 failures in JUnit, EER gated every time.
    @Test(.thorough) func twentyIdenticalRerunsNeverAlarm() throws {
        let dir = CLI.folder()
        let first = try Self.eval("base", dir + "/0")
        for k in 1...20 {
            let rerun = try Self.eval("base", dir + "/\(k)")
            let result = try CLI.run([
                "compare", first, rerun, "--bootstrap-replicates", "200", "--junit", dir + "/j\(k).xml",
            ])
            #expect(result.status == 0, "rerun \(k): \(result.out)\(result.err)")
            let junit = try String(contentsOfFile: dir + "/j\(k).xml", encoding: .utf8)
            #expect(junit.contains("failures=\"0\"") && junit.contains("name=\"scores eer\"><system-out>"), "\(junit)")
            try FileManager.default.removeItem(atPath: dir + "/\(k)")
        }
    }
}

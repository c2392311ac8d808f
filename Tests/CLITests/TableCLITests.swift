import Foundation
import Testing

/// `padbench table RUN... --out DIR` as a user runs it: three score runs ranked on one page, and
/// the refusals: an edited archive (exit 2), one row, an unknown profile, `--out` onto an input
/// (exit 64, one line, the input untouched).
@Suite struct TableCLITests {
    typealias CLI = CommandLineTests

    /// Three eval runs of CommandLineTests' 40 scores at 0.45, the replay attacks raised by `raise`.
    static func runs(_ dir: String) throws -> [String] {
        try [("best", 0.0), ("middle", 0.2), ("worst", 0.3)].map { name, raise in
            CLI.scores(dir + "/\(name).csv", raise: raise)
            let result = try CLI.run([
                "eval", "--scores", dir + "/\(name).csv", "--threshold", "0.45", "--out", dir + "/" + name,
            ])
            #expect(result.status == 0, "\(result.err)")
            return dir + "/" + name
        }
    }

    @Test func threeRunsAreRankedOnOnePage() throws {
        let dir = CLI.folder()
        let runs = try Self.runs(dir)
        // Given worst first: the table ranks them by EER.
        let result = try CLI.run(["table", runs[2], runs[0] + "/results.tar.zst", runs[1], "--out", dir + "/table"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("wrote \(dir)/table/table.html"), "\(result.out)")
        let html = try String(contentsOfFile: dir + "/table/table.html", encoding: .utf8)
        #expect(html.contains("aria-label=\"DET\"") && html.contains("aria-label=\"ROC\""))
        #expect(html.components(separatedBy: "<svg").count - 1 == 2)
        #expect(html.contains("McNemar") && html.contains("paired bootstrap"))
        let lines = try String(contentsOfFile: dir + "/table/table.csv", encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 4, "\(lines)")
        #expect(lines[0].hasPrefix("rank,label,profile,split,bona_fide,attacks,eer,"))
        let rows = lines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        #expect(rows.map { $0[0] } == ["1", "2", "3"] && rows.map { $0[1] } == ["best", "middle", "worst"])
        let eer = rows.map { Double($0[6])! }
        #expect(eer[0] <= eer[1] && eer[1] <= eer[2] && eer[0] < eer[2], "\(eer)")
        // Three pairs, each with BPCER, APCER of both species and the EER.
        let pairs = try String(contentsOfFile: dir + "/table/pairs.csv", encoding: .utf8).split(separator: "\n")
        #expect(pairs.count == 1 + 3 * 4, "\(pairs)")
        #expect(result.out.contains("p = 0.0313 two-sided (discordant 0 / 6)"), "\(result.out)")
    }

    /// Runs whose bona fide all show one subject: their subject bootstrap resamples the same set
    /// every time, an interval of zero width. The table shows the EER without an interval (empty
    /// bounds in table.csv) and says why, instead of printing [x, x] as a 95% interval.
    @Test func aSingleSubjectClassGivesNoInterval() throws {
        let dir = CLI.folder()
        let runs = try [("one", 0.0), ("two", 0.2)].map { name, raise in
            CLI.scores(dir + "/\(name).csv", raise: raise)
            var lines = try String(contentsOfFile: dir + "/\(name).csv", encoding: .utf8).split(separator: "\n")
                .map(String.init)
            lines[0] += ",subject"
            for k in 1..<lines.count { lines[k] += lines[k].contains("bonafide") ? ",alice" : ",m\(k % 7)" }
            try (lines.joined(separator: "\n") + "\n").write(
                toFile: dir + "/\(name).csv", atomically: true, encoding: .utf8)
            let result = try CLI.run([
                "eval", "--scores", dir + "/\(name).csv", "--format", "generic", "--threshold", "0.45", "--out",
                dir + "/" + name,
            ])
            #expect(result.status == 0, "\(result.err)")
            return dir + "/" + name
        }
        let result = try CLI.run(["table", runs[0], runs[1], "--out", dir + "/table"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("no EER or BPCER@APCER interval: a class has a single subject"), "\(result.out)")
        let rows = try String(contentsOfFile: dir + "/table/table.csv", encoding: .utf8).split(separator: "\n")
            .dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        #expect(rows.count == 2 && rows.allSatisfy { !$0[6].isEmpty && $0[7].isEmpty && $0[8].isEmpty }, "\(rows)")
    }

    /// Runs with a face comparator (`--comparisons`): each row shows its run's pooled IAPMR and
    /// its profile's IAPAR and system FNMR, with counts and intervals, at the comparator threshold
    /// it names, as the run's vulnerability.csv holds them. On the vulnerability fixture these are
    /// bob.measure's and bob.bio.base's values (`vulnerability.json`, as VulnerabilityCLITests
    /// checks them): threshold 0.56, IAPMR 20/43, IAPAR 9/43, system FNMR 8/32. A run without
    /// comparisons shows "-" (empty in table.csv), never 0; comparators of other rules and other
    /// comparison sets are noted as compare notes them.
    @Test func wholeSystemRatesOfRunsWithComparisons() throws {
        let dir = CLI.folder()
        let (pad, comparisons) = try VulnerabilityCLITests.files(dir)
        let json = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: VulnerabilityCLITests.fixtures + "/vulnerability.json")))
                as? [String: Any])
        let reference = try #require(
            (json["at_fmr"] as? [[String: Any]])?.first {
                $0["fmr_target"] as? String == "0.05" && $0["split"] as? String == "dev"
            }?["rates_on_eval"] as? [String: Any])
        func expected(_ key: String) -> (value: Double, errors: String, n: String) {
            let rate = reference[key] as! [String: Any]
            return (Double(rate["value"] as! String)!, "\(rate["errors"]!)", "\(rate["total"]!)")
        }
        func eval(_ name: String, _ options: [String]) throws -> String {
            let result = try CLI.run(
                ["eval", "--scores", pad, "--format", "generic", "--threshold", "0.5", "--out", dir + "/" + name]
                    + options)
            #expect(result.status == 0, "\(result.err)")
            return dir + "/" + name
        }
        let fmr = try eval("fmr", ["--comparisons", comparisons, "--comparator-fmr", "0.05"])
        let plain = try eval("plain", [])
        let result = try CLI.run(["table", fmr, plain, "--out", dir + "/t1"])
        #expect(result.status == 0, "\(result.err)")
        let table = try VulnerabilityCLITests.rows(dir + "/t1/table.csv")
        let row = try #require(table.first { $0["label"] == "fmr" }),
            bare = try #require(table.first { $0["label"] == "plain" })
        let stored = try VulnerabilityCLITests.rows(fmr + "/vulnerability.csv")
        for (column, key, profile) in [
            ("iapmr", "iapmr_pooled", ""), ("iapar", "iapar_pooled", "scores"),
            ("system_fnmr", "system_fnmr", "scores"),
        ] {
            let (value, errors, n) = expected(key)
            #expect(
                row[column].flatMap(Double.init) == value && row[column + "_errors"] == errors
                    && row[column + "_n"] == n, "\(column): \(row)")
            // The interval vulnerability.csv holds.
            let source = try #require(
                stored.first { $0["profile"] == profile && $0["metric"] == column && $0["species"] == "" })
            #expect(row[column + "_ci_low"] == source["ci_low"] && row[column + "_ci_high"] == source["ci_high"])
            #expect(bare[column] == "" && bare[column + "_n"] == "", "\(bare)")
        }
        #expect(row["comparator_threshold"].flatMap(Double.init) == Double(reference["threshold"] as! String))
        #expect(
            row["comparator_threshold_rule"]
                == "FMR <= 0.05 on the dev zero-effort impostors (bob.measure far_threshold)")
        #expect(bare["comparator_threshold"] == "" && bare["comparator_threshold_rule"] == "")
        let line = try #require(result.out.split(separator: "\n").first { $0.contains("46.5% (20/43) [") })
        #expect(
            line.contains("  20.9% (9/43) [") && line.contains("  25.0% (8/32) [")
                && line.hasSuffix("  0.56 (FMR <= 0.05 on the dev zero-effort impostors (bob.measure far_threshold))"),
            "\(result.out)")
        let lines = result.out.split(separator: "\n")
        #expect(
            lines.contains {
                $0.contains("plain") && $0.split(separator: " ").filter { $0 == "-" }.count == 4
                    && !$0.hasPrefix("note")
            }, "\(result.out)")
        #expect(
            result.out.contains(
                "note: plain: no vulnerability.csv (run without --comparisons): IAPMR, IAPAR and system FNMR shown as -"
            ))
        let html = try String(contentsOfFile: dir + "/t1/table.html", encoding: .utf8)
        #expect(
            html.contains("<th>IAPMR</th>") && html.contains("comparator threshold") && html.contains("46.5% (20/43)"))

        // Another rule at the same threshold (the same values), and a run with one eval comparison fewer.
        let fixed = try eval("fixed", ["--comparisons", comparisons, "--comparator-threshold", "0.56"])
        var fewerLines = try String(contentsOfFile: comparisons, encoding: .utf8).split(separator: "\n")
        let dropped = try #require(fewerLines.lastIndex { $0.contains(",attack,") && $0.contains(",eval,") })
        fewerLines.remove(at: dropped)
        try (fewerLines.joined(separator: "\n") + "\n").write(
            toFile: dir + "/fewer.csv", atomically: true, encoding: .utf8)
        let fewer = try eval("fewer", ["--comparisons", dir + "/fewer.csv", "--comparator-fmr", "0.05"])
        let notes = try CLI.run(["table", fmr, fixed, fewer, "--out", dir + "/t2"])
        #expect(notes.status == 0, "\(notes.err)")
        let fixedRow = try #require(
            try VulnerabilityCLITests.rows(dir + "/t2/table.csv").first { $0["label"] == "fixed" })
        #expect(
            fixedRow["iapmr_errors"] == "20" && fixedRow["iapar_errors"] == "9"
                && fixedRow["system_fnmr_errors"] == "8"
                && fixedRow["comparator_threshold_rule"] == "given (--comparator-threshold)")
        #expect(
            notes.out.contains(
                "note: the comparators differ: fmr threshold 0.56 (FMR <= 0.05 on the dev zero-effort impostors "
                    + "(bob.measure far_threshold)), fixed threshold 0.56 (given (--comparator-threshold)), "
                    + "fewer threshold 0.56 "),
            "\(notes.out)")
        let evalComparisons = try String(contentsOfFile: comparisons, encoding: .utf8).split(separator: "\n").filter {
            $0.contains(",eval,")
        }.count
        #expect(
            notes.out.contains(
                "note: comparisons.csv holds different comparisons in the runs (\(evalComparisons) on eval in fmr, "
                    + "\(evalComparisons) on eval in fixed, \(evalComparisons - 1) on eval in fewer, "
                    + "\(evalComparisons - 1) in all)"),
            "\(notes.out)")
    }

    @Test func anEditedArchiveExits2() throws {
        let dir = CLI.folder()
        let runs = try Self.runs(dir)
        let copy = dir + "/edited.tar.zst"
        try StoredRunCLITests.edited(runs[0] + "/results.tar.zst", "decisions.csv", copy) {
            $0.replacingOccurrences(of: ",bonafide,,ok,1,,", with: ",bonafide,,ok,0,score,below the threshold")
        }
        let result = try CLI.run(["table", runs[1], copy, "--out", dir + "/table"])
        #expect(result.status == 2 && result.out.isEmpty, "\(result.out)")
        #expect(result.err.hasPrefix("padbench table: \(copy):results.json: profile scores"), "\(result.err)")
        #expect(result.err.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: dir + "/table"))
    }

    @Test func fewerThanTwoRowsOrAnUnknownProfileIsAUsageError() throws {
        let dir = CLI.folder()
        let runs = try Self.runs(dir)
        let one = try CLI.run(["table", runs[0], "--out", dir + "/table"])
        #expect(one.status == 64 && one.err.split(separator: "\n").count == 1, "\(one.err)")
        #expect(one.err.hasPrefix("padbench table: 1 row to rank") && !one.err.contains("Usage:"))
        let unknown = try CLI.run(["table", runs[0], runs[1], "--profiles", "scorez", "--out", dir + "/table"])
        #expect(unknown.status == 64 && unknown.err.split(separator: "\n").count == 1, "\(unknown.err)")
        #expect(unknown.err.contains("--profiles names scorez, which none of the runs has (profiles: scores)"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/table"))
        let missing = try CLI.run(["table", runs[0], dir + "/nope", "--out", dir + "/table"])
        #expect(missing.status == 1 && missing.err.contains("nope") && !missing.err.contains("Usage:"))
    }

    @Test func outOntoAnInputIsRefusedAndLeavesItUntouched() throws {
        let dir = CLI.folder()
        let runs = try Self.runs(dir)
        let archive = runs[0] + "/results.tar.zst"
        let before = try Data(contentsOf: URL(fileURLWithPath: archive))
        for out in [archive, runs[0]] {
            let result = try CLI.run(["table", archive, runs[1], "--out", out])
            #expect(result.status == 64 && result.err.split(separator: "\n").count == 1, "\(result.err)")
            #expect(result.err.contains("would write onto the input"), "\(result.err)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: archive)) == before)
        #expect(!FileManager.default.fileExists(atPath: runs[0] + "/table.html"))
    }
}

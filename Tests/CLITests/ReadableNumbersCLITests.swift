import Foundation
import Testing

/// The rest of issue 27 ("numbers a user cannot misread"), run as a user runs padbench: `profiles
/// validate` lists every error of a file and refuses a profile that decides nothing, `folds`
/// prints each rate with its counts, and `bench --resume` finds a dataset given as a relative path
/// from any directory. Each test fails on main at 715cc5d.
@Suite struct ReadableNumbersCLITests {
    typealias CLI = CommandLineTests

    /// Six errors in one file: an unknown top-level key, an output typo (as bench refuses it), an
    /// unknown op, an inverted range and an unknown key on one gate, a threshold out of range; the
    /// gate on `mymodel.score` is fine (only a run can declare it). Before: the first line only.
    @Test func profilesValidateListsEveryErrorOfAFile() throws {
        let dir = CLI.folder()
        let file = dir + "/multi.yaml"
        try """
        name: multi
        source: test
        scroe: quality.sharpness
        gates:
          - output: qualty.luminance_mean
            op: ge
            value: 40
          - output: quality.sharpness
            op: gte
            value: 3
          - {output: face.count, op: between, min: 3, max: 1, treshold: 2}
          - output: pad.score
            op: ge
            value: 500
          - output: mymodel.score
            op: ge
            value: 0.5

        """.write(toFile: file, atomically: true, encoding: .utf8)
        let ok = dir + "/ok.yaml"
        try "name: ok\nsource: test\ngates:\n  - {output: mymodel.score, op: ge, value: 0.5}\n".write(
            toFile: ok, atomically: true, encoding: .utf8)
        let r = try CLI.run(["profiles", "validate", file, ok])
        #expect(r.status == 1)
        #expect(
            r.out.split(separator: "\n").map(String.init) == [
                "\(file):3:1: unknown profile key `scroe`; did you mean `score`?",
                "\(file):5:13: unknown output `qualty.luminance_mean`; did you mean `quality.luminance_mean`?",
                "\(file):9:9: unknown op 'gte' (ge, gt, le, lt, eq, between)",
                "\(file):11:44: inverted range: min 3.0 is above max 1.0",
                "\(file):11:55: unknown gate key `treshold`",
                "\(file):14:12: threshold 500.0 is outside the range of pad.score [0.0, 1.0]",
                "\(ok): ok (ok, 1 gates); outputs from the run (--external NAME=..., import, or an archive): "
                    + "mymodel.score",
            ], "\(r.out)")
        // bench stops at the first error in one line and points to the full list.
        let bench = try CLI.run([
            "bench", "--dataset", ProfileOutputsCLITests.root + "/datasets/sample", "--profiles", file, "--out",
            dir + "/run",
        ])
        #expect(bench.status == 1 && !FileManager.default.fileExists(atPath: dir + "/run"))
        #expect(
            bench.err
                == "Error: \(file):3:1: unknown profile key `scroe`; did you mean `score`? (and more errors: "
                + "padbench profiles validate \(file) lists every one)\n")
    }

    /// `gates: []`, no `gates`, only skipped gates: a profile that accepts every sample is refused
    /// by validate and by bench, one line each naming the file and line (before: `ok (empty, 0
    /// gates)` and a run whose every attack is accepted); two files of one profile name, as bench
    /// refuses them.
    @Test func aProfileThatDecidesNothingIsRefused() throws {
        let dir = CLI.folder()
        let files: [(String, String, String)] = [
            (
                "empty", "name: empty\nsource: t\ngates: []\n",
                "3:8: `gates` is empty: a profile decides with at least one gate (with none every sample is "
                    + "accepted); gate the swept score, e.g. calibrate: {criterion: eer}"
            ),
            (
                "none", "name: none\nsource: t\n",
                "1:1: missing `gates` (a list of at least one gate: output, op, value or calibrate)"
            ),
            (
                "skipped", "name: skipped\nsource: t\ngates:\n  - {output: glasses.present, skipped: no model}\n",
                "4:3: every gate is skipped: the profile decides nothing (every sample is accepted); add a gate "
                    + "padbench can decide"
            ),
        ]
        for (name, yaml, message) in files {
            let path = dir + "/\(name).yaml"
            try yaml.write(toFile: path, atomically: true, encoding: .utf8)
            let validate = try CLI.run(["profiles", "validate", path])
            #expect(validate.status == 1 && validate.out == "\(path):\(message)\n", "\(validate.out)")
            let bench = try CLI.run([
                "bench", "--dataset", ProfileOutputsCLITests.root + "/datasets/sample", "--profiles", path, "--out",
                dir + "/r",
            ])
            #expect(bench.status == 1 && bench.err == "Error: \(path):\(message)\n", "\(bench.err)")
        }
        let a = dir + "/a.yaml", b = dir + "/b.yaml"
        for path in [a, b] {
            try "name: same\nsource: t\ngates:\n  - {output: face.count, op: eq, value: 1}\n".write(
                toFile: path, atomically: true, encoding: .utf8)
        }
        let twice = try CLI.run(["profiles", "validate", a, b])
        #expect(twice.status == 1)
        #expect(
            twice.out == "\(a): ok (same, 1 gates)\n\(b):1:1: duplicate profile name 'same' (also in \(a))\n",
            "\(twice.out)")
    }

    /// Two eval runs at one threshold: replay attacks raised by 0.3 accept 6 of 10 in the second.
    /// `folds` prints mean and std as percent and min / max with the counts of their fold;
    /// `--json` gives each fold's value with its counts (before: percent alone).
    @Test func foldsPrintsRatesAsPercentWithCounts() throws {
        let dir = CLI.folder()
        CLI.scores(dir + "/base.csv")
        CLI.scores(dir + "/new.csv", raise: 0.3)
        for name in ["base", "new"] {
            let r = try CLI.run([
                "eval", "--scores", dir + "/\(name).csv", "--threshold", "0.46", "--out", dir + "/\(name)",
            ])
            #expect(r.status == 0, "\(r.err)")
        }
        let folds = try CLI.run(["folds", dir + "/base", dir + "/new"])
        #expect(folds.status == 0, "\(folds.err)")
        let row = try #require(folds.out.split(separator: "\n").first { $0.contains(" apcer_max ") })
        // Columns are separated by two spaces or more.
        let cells = row.components(separatedBy: "  ").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            !$0.isEmpty
        }
        #expect(cells == ["scores", "apcer_max", "2", "30.0%", "42.4%", "0.0% (0/10)", "60.0% (6/10)"], "\(row)")
        let bpcer = try #require(folds.out.split(separator: "\n").first { $0.contains(" bpcer ") })
        #expect(bpcer.contains("0.0% (0/20)"), "\(bpcer)")
        #expect(!folds.out.contains("0.30000") && !folds.out.contains("0.42426"))
        let json = try CLI.run(["folds", dir + "/base", dir + "/new", "--json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [[String: Any]])
        let apcer = try #require(rows.first { $0["metric"] as? String == "apcer_max" })
        let values = try #require(apcer["values"] as? [[String: Any]])
        #expect(values.map { $0["errors"] as? Int } == [0, 6] && values.map { $0["total"] as? Int } == [10, 10])
        #expect(apcer["mean"] as? Double == 0.3)
    }

    /// A bench started with `--dataset data` (relative) and interrupted, resumed from another
    /// directory: the job stores the dataset's absolute path, so the run completes (before: the
    /// dataset was looked up from the new directory and the resume failed).
    @Test func aResumeFindsARelativeDatasetFromAnotherDirectory() throws {
        let dir = CLI.folder()
        _ = try ResumeJobCLITests.interrupted(dir)
        let job = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: dir + "/run.partial/job.json")))
                as? [String: Any])
        let dataset = try #require(job["dataset"] as? [String: Any])
        #expect(dataset["path"] as? String == dir + "/data", "\(job)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/run.partial/command.json"))
        let elsewhere = dir + "/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        let resumed = try CLI.run(["bench", "--resume", dir + "/run"], in: elsewhere)
        #expect(resumed.status == 0, "\(resumed.err)")
        #expect(resumed.out.contains("resumed: "), "\(resumed.out)")
        let rows = try String(contentsOfFile: dir + "/run/samples.csv", encoding: .utf8).split(separator: "\n")
        #expect(rows.count == 7)
    }

    /// A journal written before the paths were stored absolute (`--dataset data`), resumed from a
    /// directory where `data` does not exist: one line saying so, exit 1, the journal kept. A
    /// missing and a finished run are one line each too.
    @Test func anOldJournalWithARelativeDatasetIsOneLineFromElsewhere() throws {
        let dir = CLI.folder()
        let out = dir + "/run"
        try FileManager.default.createDirectory(atPath: out + ".partial", withIntermediateDirectories: true)
        let command = try JSONEncoder().encode(["padbench", "bench", "--dataset", "data", "--quiet", "--out", "run"])
        try command.write(to: URL(fileURLWithPath: out + ".partial/command.json"))
        let r = try CLI.run(["bench", "--resume", out], in: dir)
        #expect(r.status == 1)
        #expect(
            r.err
                == "Error: \(out).partial/command.json: the run was started with --dataset data, a relative path "
                + "not found from \(dir); resume it from the directory it was started in\n", "\(r.err)")
        #expect(FileManager.default.fileExists(atPath: out + ".partial/command.json"))
        let missing = try CLI.run(["bench", "--resume", dir + "/nothing"])
        #expect(missing.status == 1 && missing.err.split(separator: "\n").count == 1, "\(missing.err)")
    }
}

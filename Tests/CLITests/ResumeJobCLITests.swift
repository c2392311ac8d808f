import Foundation
import Testing

/// `bench --resume` continues from the run's `job.json` (a typed job, not the replayed command
/// line): from any directory, refusing in one line a job of another schema or a profile file
/// edited since, and keeping the journal whenever it refuses.
@Suite struct ResumeJobCLITests {
    typealias CLI = CommandLineTests

    static let profile = """
        name: mine
        source: test
        score: quality.sharpness
        gates:
          - {output: quality.sharpness, op: ge, value: 10}
        """

    /// A bench of six samples with the profile file `mine.yaml` and an external estimator that
    /// takes 0.3 s a sample, started in `dir` with relative paths and interrupted (Ctrl-C) after
    /// two rows reached the journal. Returns the run folder.
    static func interrupted(_ dir: String) throws -> String {
        _ = try MergeCLITests.sampleSubset(dir + "/data", count: 6)
        try profile.write(toFile: dir + "/mine.yaml", atomically: true, encoding: .utf8)
        let slow = dir + "/slow.sh"
        try #"""
        while IFS= read -r line; do
          case "$line" in
            *describe*) echo '{"outputs": ["score"], "version": "1", "ranges": {"score": [0, 1]}}' ;;
            *) id=$(printf '%s' "$line" | sed 's/.*"id": *"\([^"]*\)".*/\1/'); sleep 0.3
               printf '{"id": "%s", "outputs": {"score": 0.5}}\n' "$id" ;;
          esac
        done
        """#.write(toFile: slow, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.executable)
        process.arguments = [
            "bench", "--dataset", "data", "--profiles", "mine.yaml", "--external", "slow=/bin/sh \(slow)",
            "--concurrency", "1", "--quiet", "--out", "run",
        ]
        process.currentDirectoryURL = URL(fileURLWithPath: dir)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let journal = dir + "/run.partial/samples.csv"
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline
            && ((try? String(contentsOfFile: journal, encoding: .utf8))?.split(separator: "\n").count ?? 0) < 3
        {
            Thread.sleep(forTimeInterval: 0.05)
        }
        process.interrupt()
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        return dir + "/run"
    }

    static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    /// The profile's threshold edited after the kill: the resume refuses in one line naming the job
    /// file, the profile and both definition hashes (exit 1); the journal and the job stay as they
    /// were. An edit that does not change how the profile decides (its description) resumes.
    @Test func aProfileEditedSinceTheStartStopsTheResume() throws {
        let dir = CLI.folder()
        let run = try Self.interrupted(dir)
        let journal = Self.bytes(run + ".partial/samples.csv"), job = Self.bytes(run + ".partial/job.json")
        #expect(journal != nil && job != nil)
        let stored = try #require(
            try JSONSerialization.jsonObject(with: job ?? Data()) as? [String: Any])
        let profiles = try #require(stored["profiles"] as? [[String: Any]])
        #expect(profiles.first?["reference"] as? String == dir + "/mine.yaml", "\(profiles)")
        let before = try #require(profiles.first?["definitionHash"] as? String)
        try Self.profile.replacingOccurrences(of: "value: 10", with: "value: 20").write(
            toFile: dir + "/mine.yaml", atomically: true, encoding: .utf8)
        let elsewhere = dir + "/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        let refused = try CLI.run(["bench", "--resume", run], in: elsewhere)
        #expect(refused.status == 1)
        #expect(refused.err.split(separator: "\n").count == 1, "\(refused.err)")
        #expect(
            refused.err.hasPrefix(
                "Error: \(run).partial/job.json: profile mine (\(dir)/mine.yaml) changed since the run started "
                    + "(definition hash \(before), now "),
            "\(refused.err)")
        #expect(refused.err.hasSuffix("); restore it to resume, or start over with --force\n"), "\(refused.err)")
        #expect(Self.bytes(run + ".partial/samples.csv") == journal && Self.bytes(run + ".partial/job.json") == job)
        #expect(!FileManager.default.fileExists(atPath: run))

        try (Self.profile.replacingOccurrences(of: "source: test", with: "source: test\ndescription: reworded"))
            .write(toFile: dir + "/mine.yaml", atomically: true, encoding: .utf8)
        let resumed = try CLI.run(["bench", "--resume", run], in: elsewhere)
        #expect(resumed.status == 0, "\(resumed.err)")
        #expect(resumed.out.contains("resumed: "), "\(resumed.out)")
        let rows = try String(contentsOfFile: run + "/samples.csv", encoding: .utf8).split(separator: "\n")
        #expect(rows.count == 7)
        #expect(!FileManager.default.fileExists(atPath: run + "/job.json"))
    }

    /// A job file of another schema (another padbench) is refused in one line, the journal kept;
    /// so is a file that is no job at all.
    @Test func aJobOfAnotherSchemaIsRefused() throws {
        let dir = CLI.folder()
        let run = try Self.interrupted(dir)
        let path = run + ".partial/job.json"
        let journal = Self.bytes(run + ".partial/samples.csv")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("\"schema\" : 1,"))
        try text.replacingOccurrences(of: "\"schema\" : 1,", with: "\"schema\" : 99,").write(
            toFile: path, atomically: true, encoding: .utf8)
        let refused = try CLI.run(["bench", "--resume", run])
        #expect(refused.status == 1 && refused.err.split(separator: "\n").count == 1, "\(refused.err)")
        #expect(
            refused.err.hasPrefix("Error: \(path): a resume job of schema 99, written by padbench "), "\(refused.err)")
        #expect(refused.err.hasSuffix("resume with that padbench, or start over with --force\n"), "\(refused.err)")
        try "[\"padbench\", \"bench\"]".write(toFile: path, atomically: true, encoding: .utf8)
        let garbled = try CLI.run(["bench", "--resume", run])
        #expect(
            garbled.status == 1
                && garbled.err == "Error: \(path): not a padbench resume job (no schema); start over with --force\n",
            "\(garbled.err)")
        #expect(Self.bytes(run + ".partial/samples.csv") == journal)
    }

    /// A job file edited by hand is held to the command line's rules: every value `bench` would
    /// refuse is refused in one line naming the job file (exit 1, before anything runs), a huge
    /// field is named by its size, not quoted, and the journal stays as it was.
    @Test func aJobFileIsCheckedLikeTheCommandLine() throws {
        let dir = CLI.folder()
        let run = try Self.interrupted(dir)
        let path = run + ".partial/job.json"
        let journal = Self.bytes(run + ".partial/samples.csv")
        let original = try #require(Self.bytes(path))
        let cases: [(String, (inout [String: Any]) -> Void, String)] = [
            ("frames -1", { Self.set(&$0, "dataset", "frames", -1) }, "--frames must be at least 1, got -1"),
            ("maxPixels 0", { $0["maxPixels"] = 0 }, "--max-pixels must be at least 1, got 0"),
            ("maxImageBytes -5", { $0["maxImageBytes"] = -5 }, "--max-image-bytes must be at least 1, got -5"),
            (
                "externalTimeout 0", { Self.set(&$0, "estimators", "externalTimeout", 0) },
                "--external-timeout must be a positive number of seconds"
            ),
            (
                "external named decode", { Self.set(&$0, "estimators", "externalCommands", ["decode": "/bin/true"]) },
                "external estimator name 'decode' is taken by padbench's own timing step"
            ),
            (
                "external named a b@c", { Self.set(&$0, "estimators", "externalCommands", ["a b@c": "/bin/true"]) },
                "external estimator name: output name 'a b@c' must be ASCII letters"
            ),
            ("layout bogus", { Self.set(&$0, "dataset", "layout", "bogus") }, "layout 'bogus' is not one of tree"),
            ("concurrency 0", { $0["concurrency"] = 0 }, "--concurrency must be 1 to 1024 samples at once, got 0"),
            (
                "a 200 kB path", { Self.set(&$0, "dataset", "path", String(repeating: "x", count: 200_000)) },
                "dataset.path holds 200000 bytes (at most 65536)"
            ),
        ]
        for (name, change, message) in cases {
            var job = try #require(try JSONSerialization.jsonObject(with: original) as? [String: Any])
            change(&job)
            try JSONSerialization.data(withJSONObject: job).write(to: URL(fileURLWithPath: path))
            let refused = try CLI.run(["bench", "--resume", run])
            #expect(refused.status == 1 && refused.err.split(separator: "\n").count == 1, "\(name): \(refused.err)")
            #expect(
                refused.err.hasPrefix(
                    "Error: \(path): the resume job holds what the command line refuses: \(message)"),
                "\(name): \(refused.err.prefix(300))")
            #expect(refused.err.utf8.count < 1000, "\(name)")
            #expect(Self.bytes(run + ".partial/samples.csv") == journal, "\(name)")
        }
        // A value of the wrong type is named by its field, not by Swift's DecodingError.
        var typed = try #require(try JSONSerialization.jsonObject(with: original) as? [String: Any])
        Self.set(&typed, "dataset", "frames", "ten")
        try JSONSerialization.data(withJSONObject: typed).write(to: URL(fileURLWithPath: path))
        let wrongType = try CLI.run(["bench", "--resume", run])
        #expect(
            wrongType.status == 1
                && wrongType.err
                    == "Error: \(path): cannot read the resume job: field 'dataset.frames' is not a whole number\n",
            "\(wrongType.err)")
        // A value the command line accepts but the journal was not measured with (a larger pixel
        // limit, a longer timeout) would tear the run: refused by the options fingerprint.
        for (name, change) in [
            ("maxPixels 50", { (job: inout [String: Any]) in job["maxPixels"] = 50 }),
            (
                "externalTimeout 99",
                { (job: inout [String: Any]) in Self.set(&job, "estimators", "externalTimeout", 99) }
            ),
        ] {
            var job = try #require(try JSONSerialization.jsonObject(with: original) as? [String: Any])
            change(&job)
            try JSONSerialization.data(withJSONObject: job).write(to: URL(fileURLWithPath: path))
            let edited = try CLI.run(["bench", "--resume", run])
            #expect(
                edited.status == 1
                    && edited.err
                        == "Error: \(path): the resume job was edited after the run started (its options fingerprint "
                        + "does not match): the journal's rows were measured with the options it was written with, "
                        + "and only 'concurrency' may change; start over with --force\n",
                "\(name): \(edited.err)")
            #expect(Self.bytes(run + ".partial/samples.csv") == journal, "\(name)")
        }
        // Restored with another concurrency (and rewritten without pretty printing), it resumes.
        var restored = try #require(try JSONSerialization.jsonObject(with: original) as? [String: Any])
        restored["concurrency"] = 2
        try JSONSerialization.data(withJSONObject: restored).write(to: URL(fileURLWithPath: path))
        let resumed = try CLI.run(["bench", "--resume", run, "--quiet"])
        #expect(resumed.status == 0, "\(resumed.err)")
    }

    /// A journal row whose time was edited (`decode_ns` of `12x`) is refused on takeover, naming
    /// the journal's line and column, instead of entering the timing summaries as 0.
    @Test func aJournalTimeThatIsNoNumberStopsTheResume() throws {
        let dir = CLI.folder()
        let run = try Self.interrupted(dir)
        let path = run + ".partial/samples.csv"
        var lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
        let header = lines[0].components(separatedBy: ",")
        let column = try #require(header.firstIndex(of: "decode_ns"))
        var row = lines[2].components(separatedBy: ",")
        row[column] = "12x"
        lines[2] = row.joined(separator: ",")
        let edited = Data(lines.joined(separator: "\n").utf8)
        try edited.write(to: URL(fileURLWithPath: path))
        let refused = try CLI.run(["bench", "--resume", run])
        #expect(
            refused.status == 1
                && refused.err
                    == "Error: \(path):3: decode_ns '12x' is not a whole number of nanoseconds; start over with "
                    + "--force; the measured samples are kept in \(path)\n",
            "\(refused.err)")
        #expect(Self.bytes(path) == edited)
    }

    static func set(_ job: inout [String: Any], _ group: String, _ key: String, _ value: Any) {
        var inner = job[group] as? [String: Any] ?? [:]
        inner[key] = value
        job[group] = inner
    }
}

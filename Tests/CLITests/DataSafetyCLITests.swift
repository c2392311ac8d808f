import Foundation
import Testing

/// Data is never destroyed (issue 25): a failed `bench --resume` keeps its journal, `--force`
/// never deletes an input or a folder that is not a padbench run, a commit killed halfway is put
/// right by the next writer, the lock is never written through a planted link, and every runtime
/// error is one line naming the file. Each test failed on ea3c17e.
@Suite struct DataSafetyCLITests {
    typealias CLI = ProfileOutputsCLITests

    static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    static func lines(_ path: String) -> [String] {
        (try? String(contentsOfFile: path, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
    }

    /// An interrupted bench of a six-image subset of the sample: a complete run's journal cut to
    /// its header and first `rows` rows, in `<out>.partial` with the command line it started with.
    static func interruptedBench(_ dir: String, rows: Int) throws -> (data: String, out: String) {
        let data = try MergeCLITests.sampleSubset(dir + "/data", count: 6)
        let whole = dir + "/whole"
        let arguments = ["bench", "--dataset", data, "--estimators", "quality", "--quiet", "--concurrency", "1"]
        let first = try CLI.padbench(arguments + ["--out", whole])
        #expect(first.status == 0, "\(first.stderr)")
        let out = dir + "/run"
        try FileManager.default.createDirectory(atPath: out + ".partial", withIntermediateDirectories: true)
        let journal = lines(whole + "/samples.csv").prefix(rows + 1).joined(separator: "\n") + "\n"
        try journal.write(toFile: out + ".partial/samples.csv", atomically: true, encoding: .utf8)
        let command = try JSONEncoder().encode(["padbench"] + arguments + ["--out", out])
        try command.write(to: URL(fileURLWithPath: out + ".partial/command.json"))
        return (data, out)
    }

    /// The repro: the dataset was edited after the kill, so the resume fails; the journal's
    /// rows stay (before: `<out>.partial` was removed and a second resume printed a raw Foundation
    /// error). A second resume fails the same way, in one line.
    @Test func aFailedResumeKeepsTheJournal() throws {
        let dir = CommandLineTests.folder()
        let (data, out) = try Self.interruptedBench(dir, rows: 4)
        var manifest = try String(contentsOfFile: data + "/manifest.csv", encoding: .utf8)
        let second = manifest.split(separator: "\n")[1].split(separator: ",", omittingEmptySubsequences: false)
        manifest = manifest.replacingOccurrences(of: ",\(second[4]),", with: ",someone-else,")
        try manifest.write(toFile: data + "/manifest.csv", atomically: true, encoding: .utf8)
        for _ in 0..<2 {
            let resumed = try CLI.padbench(["bench", "--resume", out])
            #expect(resumed.status == 1)
            #expect(resumed.stderr.split(separator: "\n").count == 1, "\(resumed.stderr)")
            #expect(resumed.stderr.contains("not this dataset's first samples in order"), "\(resumed.stderr)")
            #expect(resumed.stderr.contains("the measured samples are kept in \(out).partial/samples.csv"))
            #expect(Self.lines(out + ".partial/samples.csv").count == 5)
        }
    }

    /// A kill in the first half second leaves an empty journal (or its header alone): the resume
    /// measures from sample 0 (before: the empty journal was an error and the folder was removed).
    @Test func anEmptyOrHeaderOnlyJournalResumesFromTheStart() throws {
        for rows in [-1, 0] {
            let dir = CommandLineTests.folder()
            let (_, out) = try Self.interruptedBench(dir, rows: max(0, rows))
            if rows < 0 { try Data().write(to: URL(fileURLWithPath: out + ".partial/samples.csv")) }
            let resumed = try CLI.padbench(["bench", "--resume", out])
            #expect(resumed.status == 0, "\(resumed.stderr)")
            #expect(Self.lines(out + "/samples.csv").count == 7 && !Self.exists(out + ".partial"))
        }
    }

    /// A journal replaced by a FIFO: the resume refuses in one line naming it instead of blocking
    /// forever in the read (before: `Data(contentsOf:)` opened it and waited for a writer).
    @Test func aJournalThatIsAFIFOIsRefusedNotWaitedFor() throws {
        let dir = CommandLineTests.folder()
        let (_, out) = try Self.interruptedBench(dir, rows: 2)
        let journal = out + ".partial/samples.csv"
        try FileManager.default.removeItem(atPath: journal)
        #expect(mkfifo(journal, 0o600) == 0)
        let resumed = try CLI.padbench(["bench", "--resume", out])
        #expect(resumed.status == 1, "\(resumed.stderr)")
        #expect(resumed.stderr.split(separator: "\n").count == 1, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("cannot read the journal: is a FIFO (named pipe), not a regular file"))
    }

    /// `--force` onto an input: the dataset itself, its parent, the score file; and onto a folder
    /// that is not a padbench run. Refused in one line, nothing touched (before: the dataset's
    /// images and manifest were deleted).
    @Test func forceNeverDeletesAnInputOrAForeignFolder() throws {
        let dir = CommandLineTests.folder()
        let data = try MergeCLITests.sampleSubset(dir + "/data", count: 2)
        let before = try FileManager.default.subpathsOfDirectory(atPath: data).sorted()
        let bench = ["bench", "--dataset", data, "--estimators", "quality", "--quiet", "--force", "--out"]
        for (out, relation) in [(data, "is"), (dir, "contains")] {
            let r = try CLI.padbench(bench + [out])
            #expect(r.status == 1)
            #expect(
                r.stderr == "Error: \(out): --out \(relation) the input \(data); padbench never writes over its "
                    + "inputs: choose another --out\n")
        }
        CommandLineTests.scores(dir + "/s.csv")
        let scores = try CLI.padbench([
            "eval", "--scores", dir + "/s.csv", "--threshold", "0.5", "--out", dir + "/s.csv", "--force",
        ])
        #expect(scores.status == 1 && scores.stderr.contains("--out is the input \(dir)/s.csv"), "\(scores.stderr)")
        // A folder of the user's that is no padbench run, with or without a manifest.json of its own.
        let mine = dir + "/mine"
        try FileManager.default.createDirectory(atPath: mine, withIntermediateDirectories: true)
        try "{\"tool\": {\"name\": \"other\"}}".write(
            toFile: mine + "/manifest.json", atomically: true, encoding: .utf8)
        let foreign = try CLI.padbench(bench + [mine])
        #expect(foreign.status == 1)
        #expect(
            foreign.stderr == "Error: \(mine) exists and is not a padbench run (no padbench manifest.json); "
                + "padbench replaces only its own runs: choose another --out\n")
        #expect(Self.exists(mine + "/manifest.json") && !Self.exists(mine + ".partial"))
        #expect(try FileManager.default.subpathsOfDirectory(atPath: data).sorted() == before)
        #expect(Self.exists(dir + "/s.csv"))
    }

    /// A writer killed between renaming the old run aside and the new one in (the commit before
    /// RENAME_EXCHANGE) left `<out>.replaced-<pid>` and the finished new run in `<out>.partial`,
    /// nothing under `<out>`. The next writer puts the new run in place and refuses to replace it
    /// without --force (before: it removed the new run and wrote its own, exit 0).
    @Test func anInterruptedCommitIsPutRightByTheNextWriter() throws {
        let dir = CommandLineTests.folder()
        CommandLineTests.scores(dir + "/s.csv")
        let out = dir + "/run"
        for (threshold, folder) in [("0.4", dir + "/old"), ("0.6", dir + "/new")] {
            let r = try CLI.padbench(["eval", "--scores", dir + "/s.csv", "--threshold", threshold, "--out", folder])
            #expect(r.status == 0, "\(r.stderr)")
        }
        try FileManager.default.moveItem(atPath: dir + "/old", toPath: out + ".replaced-4242")
        try FileManager.default.moveItem(atPath: dir + "/new", toPath: out + ".partial")
        let newSummary = try Data(contentsOf: URL(fileURLWithPath: out + ".partial/summary.csv"))
        let next = try CLI.padbench(["eval", "--scores", dir + "/s.csv", "--threshold", "0.5", "--out", out])
        #expect(next.status == 1)
        #expect(
            next.stderr == "Error: \(out) holds a complete run; pass --force to replace it, or choose another --out\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/summary.csv")) == newSummary)
        #expect(!Self.exists(out + ".partial") && !Self.exists(out + ".replaced-4242"))
        // The replaced run's leftover alone (the new one never got in): it goes back under <out>.
        try FileManager.default.moveItem(atPath: out, toPath: out + ".replaced-4243")
        let again = try CLI.padbench(["eval", "--scores", dir + "/s.csv", "--threshold", "0.5", "--out", out])
        #expect(again.status == 1 && Self.exists(out + "/results.tar.zst") && !Self.exists(out + ".replaced-4243"))
    }

    /// A symbolic link planted as `<out>.lock` is refused, its target untouched (before: the target
    /// was truncated and overwritten with padbench's pid).
    @Test func aPlantedLockLinkIsNeverWrittenThrough() throws {
        let dir = CommandLineTests.folder()
        CommandLineTests.scores(dir + "/s.csv")
        try "precious\n".write(toFile: dir + "/victim", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: dir + "/run.lock", withDestinationPath: dir + "/victim")
        let r = try CLI.padbench(["eval", "--scores", dir + "/s.csv", "--threshold", "0.5", "--out", dir + "/run"])
        #expect(r.status == 1)
        #expect(r.stderr == "Error: \(dir)/run.lock: cannot use the run's lock: it is a symbolic link\n")
        #expect(try String(contentsOfFile: dir + "/victim", encoding: .utf8) == "precious\n")
        try FileManager.default.removeItem(atPath: dir + "/run.lock")
        try FileManager.default.createDirectory(atPath: dir + "/run.lock", withIntermediateDirectories: true)
        let folder = try CLI.padbench(["eval", "--scores", dir + "/s.csv", "--threshold", "0.5", "--out", dir + "/run"])
        #expect(folder.stderr == "Error: \(dir)/run.lock: cannot use the run's lock: it is not a regular file\n")
    }

    /// Runtime errors are one line naming the file: an empty `--out`, `--out .`, the resume of a
    /// run that has no journal, too few descriptors (before: raw NSCocoaErrorDomain dumps).
    @Test func runtimeErrorsAreOneLineNamingTheFile() throws {
        let dir = CommandLineTests.folder()
        CommandLineTests.scores(dir + "/s.csv")
        let eval = ["eval", "--scores", dir + "/s.csv", "--threshold", "0.5", "--out"]
        let empty = try CLI.padbench(eval + [""])
        #expect(empty.status == 1 && empty.stderr == "Error: --out is empty: name the run folder\n")
        let here = try CommandLineTests.run(eval + [".", "--force"], in: dir)
        #expect(here.status == 1 && here.err == "Error: .: --out must name a run folder of its own, not . , .. or /\n")
        let resume = try CLI.padbench(["bench", "--resume", dir + "/nothing"])
        #expect(resume.status == 1)
        #expect(
            resume.stderr == "Error: \(dir)/nothing: no interrupted bench run to resume "
                + "(\(dir)/nothing.partial/job.json not found)\n")
        // 32 descriptors (padbench's least) and twelve external estimators, three pipes each: one
        // of them cannot make its pipes; one line naming it, exit 1. Which one depends on how many
        // descriptors libdispatch holds by then (the fourth on this machine).
        let data = try MergeCLITests.sampleSubset(dir + "/data", count: 2)
        try ChildProcessesCLITests.estimator(dir + "/est.sh")
        let externals = (1...12).flatMap { ["--external", "e\($0)=sh \(dir)/est.sh"] }
        let bench =
            ["bench", "--dataset", data, "--estimators", "image"] + externals
            + ["--concurrency", "1", "--quiet", "--out", dir + "/limited"]
        let limited = try CLI.padbench(["-c", "ulimit -n 32; exec \"$0\" \"$@\"", CLI.binary] + bench, shell: true)
        #expect(limited.status == 1, "\(limited.stderr)")
        #expect(limited.stderr.hasPrefix("Error: estimator 'e"), "\(limited.stderr)")
        #expect(
            limited.stderr.hasSuffix(
                "': cannot start 'sh \(dir)/est.sh': cannot create pipes: Too many open files\n"),
            "\(limited.stderr)")
        #expect(limited.stderr.split(separator: "\n").count == 1, "\(limited.stderr)")
    }
}

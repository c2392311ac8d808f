import Foundation
import Testing

/// Every command that writes a run (`bench`, `eval`, `import`, `merge`) writes it into
/// `<out>.partial` and renames it into place when complete: a complete run under `--out` is never
/// replaced without `--force`, a second writer is locked out, and an error leaves nothing behind.
/// Before, `eval`, `import` and `merge` wrote straight into `--out` and a rerun overwrote a complete
/// run in place with exit 0.
@Suite struct RunFolderCLITests {
    typealias CLI = ProfileOutputsCLITests

    static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    /// The refusal: exit 1, one line naming the folder and the way out; the old run untouched and
    /// no work folder or lock left.
    static func expectRefused(_ r: ProfileOutputsCLITests.Result, _ out: String, keeps old: Data?) {
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        #expect(
            r.stderr == "Error: \(out) holds a complete run; pass --force to replace it, or choose another --out\n")
        #expect(old != nil && bytes(out + "/summary.csv") == old)
        #expect(!exists(out + ".partial") && !exists(out + ".lock"))
    }

    @Test func evalRefusesACompleteRunAndForceReplacesIt() throws {
        let dir = CommandLineTests.folder()
        CommandLineTests.scores(dir + "/s.csv")
        let out = dir + "/run"
        let first = try CLI.padbench(["eval", "--scores", dir + "/s.csv", "--threshold", "0.45", "--out", out])
        #expect(first.status == 0, "\(first.stderr)")
        let old = Self.bytes(out + "/summary.csv")
        Self.expectRefused(
            try CLI.padbench(["eval", "--scores", dir + "/s.csv", "--threshold", "0.6", "--out", out]), out, keeps: old)
        // --archive into the folder that holds it is refused, --force or not: the archive is an input.
        for force in [[], ["--force"]] {
            let inPlace = try CLI.padbench(["eval", "--archive", out + "/results.tar.zst", "--out", out] + force)
            #expect(inPlace.status == 1)
            #expect(
                inPlace.stderr
                    == "Error: \(out): --out contains the input \(out)/results.tar.zst; "
                    + "padbench never writes over its inputs: choose another --out\n")
            #expect(Self.bytes(out + "/summary.csv") == old && !Self.exists(out + ".partial"))
        }

        let forced = try CLI.padbench([
            "eval", "--scores", dir + "/s.csv", "--threshold", "0.6", "--out", out + "/", "--force",
        ])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(forced.stdout.contains("run folder: \(out)\narchive:    \(out)/results.tar.zst"))
        #expect(Self.bytes(out + "/summary.csv") != old)
        #expect(!Self.exists(out + ".partial") && !Self.exists(out + ".lock"))
        let shown = try CLI.padbench(["show", out])
        #expect(shown.status == 0 && shown.stdout.contains("scores"), "\(shown.stdout)\(shown.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["run", "s.csv"])
    }

    @Test func aSecondWriterIsLockedOut() throws {
        let dir = CommandLineTests.folder()
        CommandLineTests.scores(dir + "/s.csv")
        let out = dir + "/run"
        // Another writer holds the run's lock (flock(1) takes the same flock(2) lock padbench takes;
        // --no-fork so that ending it ends the sleep and nothing outlives the test).
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = ["--no-fork", out + ".lock", "sleep", "60"]
        try holder.run()
        defer {
            // SIGKILL: the test process may hand its children a blocked SIGTERM.
            kill(holder.processIdentifier, SIGKILL)
            holder.waitUntilExit()
        }
        var waited = 0
        while waited < 100, !Self.exists(out + ".lock") {
            Thread.sleep(forTimeInterval: 0.05)
            waited += 1
        }
        Thread.sleep(forTimeInterval: 0.2)
        let second = try CLI.padbench(["eval", "--scores", dir + "/s.csv", "--threshold", "0.45", "--out", out])
        #expect(second.status == 1)
        #expect(second.stderr.contains("\(out): another padbench (pid"), "\(second.stderr)")
        #expect(!Self.exists(out) && !Self.exists(out + ".partial"))
    }

    @Test func aStaleWorkFolderOfAKilledEvalIsReplacedButAnInterruptedBenchIsKept() throws {
        let dir = CommandLineTests.folder()
        CommandLineTests.scores(dir + "/s.csv")
        let out = dir + "/run"
        // A folder under the work folder's name that padbench did not make is never removed.
        try FileManager.default.createDirectory(atPath: out + ".partial", withIntermediateDirectories: true)
        try "id,path".write(toFile: out + ".partial/samples.csv", atomically: true, encoding: .utf8)
        let foreign = try CLI.padbench([
            "eval", "--scores", dir + "/s.csv", "--threshold", "0.45", "--out", out, "--force",
        ])
        #expect(foreign.status == 1)
        #expect(
            foreign.stderr
                == "Error: \(out).partial exists and is not a padbench work folder; move it away or choose another --out\n"
        )
        #expect(Self.exists(out + ".partial/samples.csv"))
        // What a killed eval leaves: its marked work folder with half a samples.csv.
        try "".write(toFile: out + ".partial/.padbench-work", atomically: true, encoding: .utf8)
        let r = try CLI.padbench(["eval", "--scores", dir + "/s.csv", "--threshold", "0.45", "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(Self.exists(out + "/results.tar.zst") && !Self.exists(out + ".partial"))
        // An interrupted bench (its command.json marks it resumable) is not the eval's to discard.
        let bench = dir + "/bench"
        try FileManager.default.createDirectory(atPath: bench + ".partial", withIntermediateDirectories: true)
        try "[]".write(toFile: bench + ".partial/command.json", atomically: true, encoding: .utf8)
        let refused = try CLI.padbench(["eval", "--scores", dir + "/s.csv", "--threshold", "0.45", "--out", bench])
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains("holds an interrupted run: continue it with `padbench bench --resume \(bench)`"))
        #expect(Self.exists(bench + ".partial/command.json") && !Self.exists(bench))
    }

    @Test func importAndMergeRefuseACompleteRunAndForceReplacesIt() throws {
        let dir = CommandLineTests.folder()
        // import: IDEMIA statuses for two samples of the committed sample dataset.
        try "id,status\n000000.jpg,Live\n000001.jpg,Fake\n".write(
            toFile: dir + "/idemia.csv", atomically: true, encoding: .utf8)
        let importArguments = [
            "import", "idemia-status", "--dataset", "datasets/sample", "--input", dir + "/idemia.csv", "--profiles",
            "idemia-status", "--out", dir + "/imported",
        ]
        #expect(try CLI.padbench(importArguments).status == 0)
        let imported = Self.bytes(dir + "/imported/summary.csv")
        Self.expectRefused(try CLI.padbench(importArguments), dir + "/imported", keeps: imported)
        #expect(try CLI.padbench(importArguments + ["--force"]).status == 0)

        // merge: two shards of a four-image bench (quality only, fast in a debug build).
        for (from, to) in [
            ("eval/bonafide/000000.jpg", "bonafide/a.jpg"), ("eval/attack/print/000001.jpg", "attack/print/b.jpg"),
            ("eval/bonafide/000008.jpg", "bonafide/c.jpg"), ("eval/attack/print/000009.jpg", "attack/print/d.jpg"),
        ] {
            try FileManager.default.createDirectory(
                atPath: dir + "/data/" + (to as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: CLI.root + "/datasets/sample/" + from, toPath: dir + "/data/" + to)
        }
        for k in 1...2 {
            let shard = try CLI.padbench([
                "bench", "--dataset", dir + "/data", "--estimators", "quality", "--profiles", "basic", "--shard",
                "\(k)/2", "--quiet", "--out", dir + "/shard\(k)",
            ])
            #expect(shard.status == 0, "\(shard.stderr)")
        }
        let mergeArguments = [
            "merge", dir + "/shard1/results.tar.zst", dir + "/shard2/results.tar.zst", "--out", dir + "/merged",
        ]
        let merged = try CLI.padbench(mergeArguments)
        #expect(merged.status == 0, "\(merged.stderr)")
        let mergedSummary = Self.bytes(dir + "/merged/summary.csv")
        Self.expectRefused(try CLI.padbench(mergeArguments), dir + "/merged", keeps: mergedSummary)
        #expect(try CLI.padbench(mergeArguments + ["--force"]).status == 0)
        #expect(Self.bytes(dir + "/merged/summary.csv") == mergedSummary)
    }
}

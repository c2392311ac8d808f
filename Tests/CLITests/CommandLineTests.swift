import Foundation
import Testing
import TestSupport

/// The built `padbench` executable run as a user runs it: exit codes, messages and files.
/// Policy: 0 success; a runtime error (missing file, bad data) exits 1 with one line and no usage
/// text; 64 only for a wrong command line; `compare` exits 1 on a regression and 2 when the runs
/// cannot be compared.
@Suite struct CommandLineTests {
    /// `padbench` beside the test bundle (`swift build --build-tests` builds both).
    static let executable: String = {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("padbench").path)
            && folder.path != "/"
        {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("padbench").path
    }()

    struct Result { var status: Int32; var out: String; var err: String }

    static func run(_ arguments: [String], in directory: String? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile(),
            errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, out: String(decoding: outData, as: UTF8.self),
            err: String(decoding: errData, as: UTF8.self))
    }

    static func folder(_ name: String = #function) -> String {
        let path = TestFolder.root + "/padbench-cli-\(name.filter(\.isLetter))-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// 20 bona fide and 20 attacks of two species; `raise` is added to the replay attacks.
    static func scores(_ path: String, raise: Double = 0) {
        var text = "id,label,species,score\n"
        for i in 0..<20 { text += "bf\(i),bonafide,,\(0.5 + Double(i) * 0.025)\n" }
        for i in 0..<10 { text += "p\(i),attack,print,\(0.05 + Double(i) * 0.03)\n" }
        for i in 0..<10 { text += "r\(i),attack,replay,\(0.06 + Double(i) * 0.03 + raise)\n" }
        try! text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test func compareOfScoreRunsFailsOnARealRegressionAndPassesOnItself() throws {
        let dir = Self.folder()
        Self.scores(dir + "/base.csv")
        Self.scores(dir + "/new.csv", raise: 0.3)
        #expect(
            try Self.run(["eval", "--scores", dir + "/base.csv", "--threshold", "0.45", "--out", dir + "/base"]).status
                == 0)
        #expect(
            try Self.run(["eval", "--scores", dir + "/new.csv", "--threshold", "0.45", "--out", dir + "/new"]).status
                == 0)
        // No error-versus-discard of a score file by its own score (it read ten million decisions
        // back for a table that says nothing).
        #expect(!FileManager.default.fileExists(atPath: dir + "/base/edc.csv"))
        #expect(FileManager.default.fileExists(atPath: dir + "/base/metrics.csv"))
        let same = try Self.run(["compare", dir + "/base", dir + "/base"])
        #expect(same.status == 0 && same.out.contains("no regression"))
        let worse = try Self.run(["compare", dir + "/base", dir + "/new"])
        #expect(worse.status == 1, "\(worse.out)\(worse.err)")
        // The decisions (McNemar on APCER of replay) and the whole curve (paired bootstrap on EER
        // and BPCER at each APCER target) both regress.
        #expect(
            worse.out.contains(
                "REGRESSION: scores eer, scores bpcer@apcer=0.01, scores bpcer@apcer=0.05, scores bpcer@apcer=0.1, "
                    + "scores apcer[replay]"))
        let json = try Self.run(["compare", dir + "/base", dir + "/new", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as! [String: Any]
        #expect(object["regressed"] as? Bool == true && object["paired"] as? Bool == true)
        // A profile decided differently under the same name: not comparable.
        #expect(
            try Self.run(["eval", "--scores", dir + "/base.csv", "--threshold", "0.6", "--out", dir + "/other"]).status
                == 0)
        let other = try Self.run(["compare", dir + "/base", dir + "/other"])
        #expect(other.status == 2 && other.err.contains("decides differently"))
        // Nothing gated: latency only, on score runs without timing.
        #expect(try Self.run(["compare", dir + "/base", dir + "/base", "--gate", "latency"]).status == 2)
    }

    /// A run folder named by one character, relative to the working directory: Foundation's
    /// `deletingLastPathComponent` trapped on it (`--out g` crashed with SIGILL).
    @Test func oneCharacterOutFolderIsWritten() throws {
        let dir = Self.folder()
        try "id,label,species,score\na,bonafide,,0.9\nb,attack,print,0.1\n".write(
            toFile: dir + "/s.csv", atomically: true, encoding: .utf8)
        let run = try Self.run(["eval", "--scores", "s.csv", "--out", "g"], in: dir)
        #expect(run.status == 0, "\(run.err)")
        #expect(FileManager.default.fileExists(atPath: dir + "/g/results.tar.zst"))
        #expect(try Self.run(["compare", "g", "g"], in: dir).status == 0)
    }

    @Test func runtimeErrorsAreOneLineWithoutUsage() throws {
        let dir = Self.folder()
        let missing = try Self.run(["eval", "--scores", dir + "/nope.csv", "--out", dir + "/r"])
        #expect(missing.status == 1 && missing.err.contains("nope.csv") && !missing.err.contains("Usage:"))
        #expect(missing.err.split(separator: "\n").count == 1)
        try "id,label,species,score\na,bonafide,,0.5\nb,maybe,,0.2\n".write(
            toFile: dir + "/bad.csv", atomically: true, encoding: .utf8)
        let bad = try Self.run(["eval", "--scores", dir + "/bad.csv", "--out", dir + "/r"])
        #expect(bad.status == 1 && bad.err.contains("bad.csv:3") && !bad.err.contains("Usage:"))
        let compare = try Self.run(["compare", dir + "/nope", dir + "/nope"])
        #expect(compare.status == 2 && !compare.err.contains("Usage:"))
        let dataset = try Self.run(["bench", "--dataset", dir + "/no-such-dataset", "--out", dir + "/b"])
        #expect(dataset.status == 1 && !dataset.err.contains("Usage:"))
    }

    @Test func wrongCommandLinesAreUsageErrors() throws {
        let dir = Self.folder()
        Self.scores(dir + "/s.csv")
        for arguments in [
            ["eval", "--scores", dir + "/s.csv", "--threshold", "nan", "--out", dir + "/r"],
            ["eval", "--scores", dir + "/s.csv", "--threshold", "0.5", "--criterion", "eer", "--out", dir + "/r"],
            ["eval", "--scores", dir + "/s.csv", "--criterion", "bpcer@apcer=nan", "--out", dir + "/r"],
            ["compare", dir, dir, "--rate-tolerance", "nan"],
            ["compare", dir, dir, "--latency-ratio", "0.5"],
            ["compare", dir, dir, "--min-samples", "0"],
            ["bench", "--dataset", dir, "--concurrency", "0"],
            ["bench", "--dataset", dir, "--concurrency", "-2"],
            ["bench", "--dataset", dir, "--max-pixels", "0"],
            ["bench", "--dataset", dir, "--shard", "3/2"],
            // OULU-NPU has protocols 1-4 and folds 1-6 in protocols 3 and 4 (exit 1 before).
            ["bench", "--dataset", dir, "--oulu-protocol", "99"],
            ["dataset", "check", dir, "--oulu-protocol", "3", "--oulu-fold", "7"],
            ["dataset", "check", dir, "--oulu-protocol", "1", "--oulu-fold", "2"],
            // A bounded replicate count: an unbounded one was a hang.
            ["compare", dir, dir, "--bootstrap-replicates", "100000000"],
        ] {
            let result = try Self.run(arguments)
            #expect(result.status == 64, "\(arguments): exit \(result.status) \(result.err)")
        }
    }

    /// `eval --scores` takes a fixed threshold or a criterion, not both, and a criterion is not a
    /// number: each rule (checked by the option group `ThresholdChoiceOptions`) names itself.
    @Test func thresholdChoiceRulesNameThemselves() throws {
        let dir = Self.folder()
        Self.scores(dir + "/s.csv")
        let base = ["eval", "--scores", dir + "/s.csv", "--out", dir + "/r"]
        let both = try Self.run(base + ["--threshold", "0.5", "--criterion", "eer"])
        #expect(both.status == 64 && both.err.contains("give either --threshold or --criterion, not both"))
        let number = try Self.run(base + ["--criterion", "0.5"])
        #expect(number.status == 64 && number.err.contains("use --threshold for a number"), "\(number.err)")
    }

    /// `bench` and `dataset check` read a dataset with the same typed layout options: a wrong
    /// layout is a usage error that lists the accepted ones, in both commands.
    @Test func datasetLayoutOptionsAreSharedAndTyped() throws {
        let dir = Self.folder()
        for command in [["bench", "--dataset", dir], ["dataset", "check", dir]] {
            let result = try Self.run(command + ["--layout", "sideways"])
            #expect(result.status == 64, "\(command): exit \(result.status)")
            #expect(
                result.err.contains("'tree', 'manifest', 'celeba-spoof', 'oulu-npu' or 'replay-attack'"),
                "\(command): \(result.err)")
            let help = try Self.run(command.prefix(command[0] == "bench" ? 1 : 2) + ["--help"])
            #expect(help.out.contains("--oulu-protocol") && help.out.contains("--oulu-fold"))
        }
    }

    /// `show --json` has numbers as numbers, from the typed results.
    @Test func showJSONIsTyped() throws {
        let dir = Self.folder()
        Self.scores(dir + "/s.csv")
        #expect(try Self.run(["eval", "--scores", dir + "/s.csv", "--out", dir + "/r"]).status == 0)
        let shown = try Self.run(["show", dir + "/r", "--json"])
        #expect(shown.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(shown.out.utf8)) as! [String: Any]
        let profiles = (object["results"] as! [String: Any])["profiles"] as! [[String: Any]]
        let bpcer = (profiles[0]["reported"] as! [String: Any])["bpcer"] as! [String: Any]
        #expect(bpcer["errors"] is NSNumber && bpcer["value"] is NSNumber && !(bpcer["value"] is String))
    }

    /// A calibration target no threshold meets (an attack scored +inf) leaves an infinite
    /// threshold: the run still lands, results.json writes it as "inf" (JSONCoding), and `show`,
    /// `show --json` and `compare` read the archive back. The old code exited 1 at the very end with
    /// Foundation's "Unable to encode Double.inf" and wrote no run.
    @Test func anInfiniteCalibratedThresholdIsWrittenAndReadBack() throws {
        let dir = Self.folder()
        let text =
            "id,label,species,score\na1,attack,print,inf\na2,attack,print,0.2\na3,attack,print,0.1\n"
            + "b1,bonafide,,0.9\nb2,bonafide,,0.8\n"
        try text.write(toFile: dir + "/s.csv", atomically: true, encoding: .utf8)
        let eval = try Self.run([
            "eval", "--scores", dir + "/s.csv", "--criterion", "bpcer@apcer=0.01", "--out", dir + "/r",
        ])
        #expect(eval.status == 0, "\(eval.err)")
        let results = try String(contentsOfFile: dir + "/r/results.json", encoding: .utf8)
        #expect(results.contains("\"calibratedThresholds\" : [\n        \"inf\"\n      ]"), "\(results)")
        #expect(results.contains("\"calibrationTargetsMet\" : false"))
        #expect(try Self.run(["show", dir + "/r"]).status == 0)
        let shown = try Self.run(["show", dir + "/r", "--json"])
        #expect(shown.status == 0 && shown.out.contains("\"inf\""), "\(shown.err)")
        let compared = try Self.run(["compare", dir + "/r", dir + "/r"])
        #expect(compared.status == 0 && compared.out.contains("no regression"), "\(compared.out)\(compared.err)")
    }
}

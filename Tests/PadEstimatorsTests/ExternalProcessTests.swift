import Foundation
import Testing
@testable import PadSamples
@testable import PadEstimators
@testable import PadExternal
@testable import PadImage
#if canImport(Glibc)
import Glibc
import TestSupport
#endif

/// External programs are padbench's to end: process groups, timeouts, reaping, stderr in the
/// message, typed answers and the describe handshake after a restart.
@Suite struct ExternalProcessTests {
    static func folder(_ name: String = #function) -> String {
        let path = TestFolder.root + "/padbench-ext-\(name.filter(\.isLetter))-\(UUID().uuidString)"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A python3 program: answers describe with `score`, then runs `body` for each sample line.
    static func program(_ folder: String, _ body: String) -> String {
        let script = """
            import json, os, subprocess, sys, time
            folder = \(String(reflecting: folder))
            with open(os.path.join(folder, "log"), "a") as log: log.write("start %d\\n" % os.getpid())
            for line in sys.stdin:
                request = json.loads(line)
                with open(os.path.join(folder, "log"), "a") as log: log.write(line)
                if request.get("describe"):
                    print(json.dumps({"outputs": ["score"], "version": "t"}), flush=True)
                    continue
            \(body.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
            """
        try! script.write(toFile: folder + "/program.py", atomically: true, encoding: .utf8)
        return "python3 " + folder + "/program.py"
    }

    static func input(_ id: String) -> EstimatorInput {
        EstimatorInput(
            sample: Sample(id: id, path: "/nonexistent/\(id)", label: .bonaFide),
            image: Image(width: 4, height: 4, format: .gray))
    }

    static func alive(_ pid: pid_t) -> Bool { kill(pid, 0) == 0 }

    /// Polls up to 3 s: an orphan reparented to init is reaped by init, not by us.
    static func gone(_ pid: pid_t) -> Bool {
        for _ in 0..<300 {
            if !alive(pid) && !FileManager.default.fileExists(atPath: "/proc/\(pid)") { return true }
            usleep(10_000)
        }
        return false
    }

    @Test func programThatNeverAnswersTimesOutAndLeavesNoProcess() throws {
        let folder = Self.folder()
        // The program starts a grandchild (a sleeping shell) and never answers a sample.
        let command = Self.program(
            folder,
            """
            child = subprocess.Popen(["sleep", "1000"])
            open(os.path.join(folder, "pids"), "w").write("%d %d" % (os.getpid(), child.pid))
            time.sleep(1000)
            """)
        let estimator = try ExternalEstimator(name: "pad", command: command, timeout: 1)
        var input = Self.input("a.jpg")
        #expect { try estimator.measure(&input) } throws: { error in
            (error as? EstimatorFailure)?.kind == .timeout
        }
        let pids = try String(contentsOfFile: folder + "/pids", encoding: .utf8).split(separator: " ").compactMap {
            pid_t($0)
        }
        #expect(pids.count == 2)
        // The program itself is reaped at once: not alive, no zombie entry in /proc.
        #expect(!Self.alive(pids[0]) && !FileManager.default.fileExists(atPath: "/proc/\(pids[0])"))
        #expect(Self.gone(pids[1]), "the program's own child must end with its process group")
    }

    @Test func crashMessageCarriesTheStderrTail() throws {
        let folder = Self.folder()
        let command = Self.program(
            folder,
            """
            for i in range(30): print("noise line %d" % i, file=sys.stderr)
            print("fatal: model weights missing at /models/pad.onnx", file=sys.stderr, flush=True)
            sys.exit(3)
            """)
        let estimator = try ExternalEstimator(name: "pad", command: command, timeout: 5)
        var input = Self.input("a.jpg")
        #expect { try estimator.measure(&input) } throws: { error in
            let failure = error as? EstimatorFailure
            return failure?.kind == .estimatorError
                && failure!.message.contains("fatal: model weights missing at /models/pad.onnx")
                && failure!.message.contains("exit status 3") && !failure!.message.contains("noise line 0 ")
        }
    }

    @Test func stringOrBooleanOutputIsAnErrorNotNaN() throws {
        let folder = Self.folder()
        let command = Self.program(
            folder,
            """
            value = {"s.jpg": "0.7", "b.jpg": True, "n.jpg": None, "ok.jpg": 0.25}[request["id"]]
            print(json.dumps({"id": request["id"], "outputs": {"score": value}}), flush=True)
            """)
        let estimator = try ExternalEstimator(name: "pad", command: command, timeout: 5)
        for id in ["s.jpg", "b.jpg"] {
            var input = Self.input(id)
            #expect(throws: EstimatorFailure.self, "\(id)") { try estimator.measure(&input) }
        }
        var null = Self.input("n.jpg")
        #expect(try estimator.measure(&null)[0].isNaN)
        var ok = Self.input("ok.jpg")
        #expect(try estimator.measure(&ok) == [0.25])
    }

    /// Answer lines read by type: what fails the sample, what restarts the program, and the
    /// words each message quotes.
    @Test func answerLinesAreReadByType() throws {
        func read(_ line: String) -> Result<[Double], AnswerError> {
            Result { () throws(AnswerError) in
                try ExternalEstimator.parseAnswer(Array(line.utf8), id: "a", outputs: ["s", "t"])
            }
        }
        #expect(try read(#"{"id": "a", "outputs": {"s": 0.5, "t": -2e3}}"#).get() == [0.5, -2000])
        let missing = (try? read(#"{"id": "a", "outputs": {"s": null}}"#).get()) ?? []
        #expect(missing.count == 2 && missing.allSatisfy(\.isNaN))
        let cases: [(String, Bool, String)] = [
            (#"{"id": "a", "outputs": {"s": true}}"#, false, "output 's' is not a number: true"),
            (#"{"id": "a", "outputs": {"s": [1, "x"]}}"#, false, "output 's' is not a number: [1, x]"),
            (#"{"id": "a", "outputs": {"s": "0.7"}}"#, false, "output 's' is not a number: 0.7"),
            (#"{"id": "a", "error": "no face"}"#, false, "no face"),
            (#"{"id": "a"}"#, false, "answer has neither 'outputs' nor 'error'"),
            (#"{"id": 5, "outputs": {}}"#, true, "answered for id '5' instead of 'a'"),
            (#"{"outputs": {}}"#, true, "answered for id 'none' instead of 'a'"),
            (#"[1, 2]"#, true, "answer is not a JSON object: '[1, 2]'"),
            (#"{"id": "a", "outputs": {"s": 1"#, true, "answer is not a JSON object"),
            // Nesting deeper than the decoder's limit is refused, not a stack overflow.
            (#"{"id": "a", "outputs": {"s": "# + String(repeating: "[", count: 100_000), true, "answer is not a JSON"),
        ]
        for (line, outOfStep, message) in cases {
            guard case .failure(let error) = read(line) else {
                Issue.record("\(line) was accepted")
                continue
            }
            #expect(error.outOfStep == outOfStep, "\(line)")
            #expect(error.message.hasPrefix(message), "\(line): \(error.message)")
        }
    }

    @Test func restartedProgramRepeatsTheDescribeHandshake() throws {
        let folder = Self.folder()
        let command = Self.program(
            folder,
            """
            if request["id"] == "crash.jpg": os._exit(1)
            print(json.dumps({"id": request["id"], "outputs": {"score": 0.5}}), flush=True)
            """)
        let estimator = try ExternalEstimator(name: "pad", command: command, timeout: 5)
        var crash = Self.input("crash.jpg")
        #expect(throws: EstimatorFailure.self) { try estimator.measure(&crash) }
        var next = Self.input("next.jpg")
        #expect(try estimator.measure(&next) == [0.5])
        let log = try String(contentsOfFile: folder + "/log", encoding: .utf8).split(separator: "\n")
        #expect(log.filter { $0.hasPrefix("start") }.count == 2)
        #expect(log.filter { $0.contains("describe") }.count == 2)
    }
}

/// Ending a program never frees its descriptor numbers while the channel's writer or reader may
/// still use them: they point at /dev/null until the process object goes. Before, `terminate()`
/// closed them, and the next file opened (here, a scratch file) took the number the writer was
/// still writing the request to.
@Suite struct RetiredDescriptorTests {
    @Test func terminatedProgramsDescriptorsPointAtDevNullAndAreNotReused() throws {
        let process = try ExternalProcess(command: "cat")
        let numbers = process.descriptors
        process.terminate()
        var null = stat()
        #expect(stat("/dev/null", &null) == 0)
        for fd in numbers {
            var info = stat()
            #expect(fstat(fd, &info) == 0, "descriptor \(fd) was closed")
            #expect(info.st_rdev == null.st_rdev && (info.st_mode & S_IFMT) == S_IFCHR, "descriptor \(fd)")
        }
        let path = ExternalProcessTests.folder() + "/scratch"
        let opened = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
        defer { close(opened) }
        #expect(opened >= 0 && !numbers.contains(opened))
        withExtendedLifetime(process) {}
    }
}

import Foundation
import Testing

/// Children end with the run (issue 25): padbench is the subreaper of what its estimators start
/// and ends it before exiting, and every estimator dies with padbench (PR_SET_PDEATHSIG) even when
/// padbench is killed with SIGKILL. Both tests failed on ea3c17e (the daemon and the estimator
/// lived on). The journal test shows rows reach the disk while a later sample is slow.
@Suite struct ChildProcessesCLITests {
    typealias CLI = ProfileOutputsCLITests

    /// A shell estimator answering `score` 0.5 for every sample; `onDescribe` runs at the handshake,
    /// `beforeAnswer` before each sample's answer (with `$id` set).
    static func estimator(_ path: String, onDescribe: String = "", beforeAnswer: String = "", prologue: String = "")
        throws
    {
        let script = """
            #!/bin/sh
            \(prologue)
            while :; do
              if IFS= read -r line; then
                case "$line" in
                  *describe*) \(onDescribe)
                    echo '{"outputs": ["score"], "version": "1"}' ;;
                  *) id=$(printf '%s\\n' "$line" | sed 's/.*"id" *: *"\\([^"]*\\)".*/\\1/')
                    \(beforeAnswer)
                    printf '{"id": "%s", "outputs": {"score": 0.5}}\\n' "$id" ;;
                esac
              else
                \(prologue.isEmpty ? "exit 0" : "sleep 1")
              fi
            done
            """
        try script.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// True once `pid` has ended (no such process, or a zombie no one reaped yet).
    static func ended(_ pid: pid_t, within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return true }
            if stat[stat.index(after: close)...].split(separator: " ").first == "Z" { return true }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        return false
    }

    static func pid(in file: String, within seconds: Double) -> pid_t? {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            if let text = try? String(contentsOfFile: file, encoding: .utf8), let pid = pid_t(text.trimmed) {
                return pid
            }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        return nil
    }

    static let profile = """
        name: mine
        source: test
        score: mine.score
        gates:
          - {output: mine.score, op: ge, value: 0.4, code: LOW, message: low score}
        """

    static func bench(_ dir: String, data: String, out: String) throws -> [String] {
        try profile.write(toFile: dir + "/mine.yaml", atomically: true, encoding: .utf8)
        return [
            "bench", "--dataset", data, "--profiles", dir + "/mine.yaml", "--external", "mine=sh \(dir)/est.sh",
            "--concurrency", "1", "--quiet", "--out", out,
        ]
    }

    @Test func aDaemonStartedByAnEstimatorIsGoneAfterACleanRun() throws {
        let dir = CommandLineTests.folder()
        let data = try MergeCLITests.sampleSubset(dir + "/data", count: 2)
        let pidFile = dir + "/daemon.pid"
        try Self.estimator(
            dir + "/est.sh",
            onDescribe: """
                [ -e \(pidFile) ] || ( setsid sh -c 'echo $$ > "$0"; exec sleep 3600' \(pidFile) \
                </dev/null >/dev/null 2>&1 & )
                """)
        // Waited for by its exit, not by the end of its output: a daemon that inherited a descriptor
        // would keep a pipe open for as long as it lives.
        let process = try Self.startBench(dir, data: data)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let daemon = try #require(Self.pid(in: pidFile, within: 5))
        defer { kill(daemon, SIGKILL) }
        #expect(Self.ended(daemon, within: 3), "the estimator's daemon \(daemon) outlived the run")
    }

    /// `padbench bench` into `dir/run`, started and not waited for, its output discarded.
    static func startBench(_ dir: String, data: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = try bench(dir, data: data, out: dir + "/run")
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    @Test func anEstimatorThatIgnoresEndOfInputDiesWithAKilledPadbench() throws {
        let dir = CommandLineTests.folder()
        let data = try MergeCLITests.sampleSubset(dir + "/data", count: 4)
        let pidFile = dir + "/estimator.pid"
        try Self.estimator(
            dir + "/est.sh", beforeAnswer: "sleep 2", prologue: "trap '' TERM HUP INT PIPE; echo $$ >> \(pidFile)")
        let process = try Self.startBench(dir, data: data)
        // Every estimator process padbench started writes its pid; kill padbench while one measures.
        var estimators: [pid_t] = []
        let deadline = Date().addingTimeInterval(60)
        while estimators.isEmpty && Date() < deadline {
            estimators = Self.lines(pidFile).compactMap { pid_t($0) }
            Thread.sleep(forTimeInterval: 0.05)
        }
        Thread.sleep(forTimeInterval: 1)
        estimators = Self.lines(pidFile).compactMap { pid_t($0) }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        defer { for pid in estimators { kill(pid, SIGKILL) } }
        #expect(!estimators.isEmpty, "no estimator started")
        for pid in estimators {
            #expect(Self.ended(pid, within: 3), "estimator \(pid) outlived the killed padbench")
        }
    }

    /// Rows reach the journal at least twice a second even while a later sample is slow (before:
    /// a row was flushed only when a later one came more than half a second after the last flush,
    /// so the second row waited for the slow third sample, 5 s, and the journal went from two lines
    /// to four).
    @Test func theJournalIsFlushedWhileALaterSampleIsSlow() throws {
        let dir = CommandLineTests.folder()
        let data = try MergeCLITests.sampleSubset(dir + "/data", count: 4)
        // The third sample (the request's JSON may escape the id's slashes: matched by its file name).
        let slow = String(Self.lines(data + "/manifest.csv")[3].split(separator: ",")[0].split(separator: "/").last!)
        try Self.estimator(dir + "/est.sh", beforeAnswer: "case \"$line\" in *\(slow)*) sleep 5 ;; esac")
        let process = try Self.startBench(dir, data: data)
        defer {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let journal = dir + "/run.partial/samples.csv"
        let deadline = Date().addingTimeInterval(60)
        while Self.lines(journal).count < 3 && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        // The header and two rows are on disk; the slow third sample is still being measured.
        #expect(Self.lines(journal).count == 3 && process.isRunning, "\(Self.lines(journal))")
    }

    /// An estimator sees descriptors 0, 1 and 2 only, plus the one its shell reads the script
    /// through. padbench is started by a shell holding a file open on descriptor 7 without
    /// close-on-exec (as a CI runner or `make` may leave one): on 715cc5d every estimator inherited
    /// it, and any other descriptor padbench had not marked close-on-exec.
    @Test func anEstimatorSeesOnlyItsStandardDescriptors() throws {
        let dir = CommandLineTests.folder()
        let data = try MergeCLITests.sampleSubset(dir + "/data", count: 4)
        // Each process started (one per worker) lists its descriptors and where they lead; `find`
        // opens the list itself (a shell redirection would add the shell's saved copy of stdout).
        try Self.estimator(
            dir + "/est.sh", onDescribe: "find /proc/$$/fd -mindepth 1 -fprintf \(dir)/fds-$$.txt '%f -> %l\\n'")
        var arguments = try Self.bench(dir, data: data, out: dir + "/run")
        arguments[arguments.firstIndex(of: "--concurrency")! + 1] = "2"
        let command = ([CLI.binary] + arguments).map { "'" + $0 + "'" }.joined(separator: " ")
        let r = try CLI.padbench(["-c", "exec 7<\(data)/manifest.csv && exec \(command)"], shell: true)
        #expect(r.status == 0, "\(r.stderr)")
        let listings = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasPrefix("fds-") }
        #expect(!listings.isEmpty, "no estimator listed its descriptors")
        for listing in listings {
            // `7 -> /path`: the descriptor and its target.
            let open = Self.lines(dir + "/" + listing).compactMap { line -> (Int, String)? in
                let parts = line.components(separatedBy: " -> ")
                guard parts.count == 2, let fd = Int(parts[0]) else { return nil }
                return (fd, parts[1])
            }
            #expect(open.contains { $0.0 == 0 } && open.contains { $0.0 == 2 }, "\(open)")
            let extra = open.filter { $0.0 > 2 && $0.1 != dir + "/est.sh" }
            #expect(extra.isEmpty, "\(listing): descriptors beyond 0-2 and the script: \(extra)")
        }
    }

    static func lines(_ path: String) -> [String] {
        (try? String(contentsOfFile: path, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
    }
}

extension String {
    fileprivate var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}

import Foundation
import Testing

/// Profiles over the run's outputs and left-out gates, through the built `padbench` run as a user
/// would (exit codes, messages on standard error, files written), from the repository root so the
/// manual's relative paths work.
@Suite struct ProfileOutputsCLITests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let binary = CommandLineTests.executable

    struct Result { var status: Int32; var stdout: String; var stderr: String }

    /// `shell`: run `/bin/sh` with `arguments` instead (a `ulimit` before padbench).
    static func padbench(_ arguments: [String], environment: [String: String] = [:], shell: Bool = false) throws
        -> Result
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: shell ? "/bin/sh" : binary)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: root)
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes to the end before waiting, so a full pipe never blocks the child.
        nonisolated(unsafe) var errData = Data()
        let reader = Thread { errData = err.fileHandleForReading.readDataToEndOfFile() }
        reader.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !reader.isFinished { Thread.sleep(forTimeInterval: 0.01) }
        return Result(
            status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    @Test func strictRefusesALeftOutGateBeforeMeasuringInOneLine() throws {
        let out = CommandLineTests.folder() + "/run"
        let r = try Self.padbench([
            "bench", "--dataset", "datasets/sample", "--profiles", "idemia-high", "--strict", "--quiet", "--out", out,
        ])
        #expect(r.status == 1)
        #expect(
            r.stderr
                == "Error: --strict: profile idemia-high (builtin:idemia-high): "
                + "gates left out, outputs not measured in this run: pad.score (line 10)\n"
        )
        #expect(
            !FileManager.default.fileExists(atPath: out) && !FileManager.default.fileExists(atPath: out + ".partial"))
    }

    @Test func leftOutScoreIsAWarningOnStandardError() throws {
        let out = CommandLineTests.folder() + "/run"
        let r = try Self.padbench([
            "bench", "--dataset", "datasets/sample", "--profiles", "idemia-high", "--quiet", "--out", out,
        ])
        #expect(r.status == 0)
        #expect(
            r.stderr.contains(
                "padbench: warning: profile idemia-high: gates left out, "
                    + "outputs not measured in this run: pad.score; its rates are not a liveness decision\n"
            ))
        let summary = try String(contentsOfFile: out + "/summary.csv", encoding: .utf8)
        #expect(summary.contains("pad.score,0,")) // gates_left_out, liveness_decision 0
        let html = try String(contentsOfFile: out + "/report.html", encoding: .utf8)
        #expect(html.contains("<h2>idemia-high</h2>\n<div class=\"leftout\">"))
    }

    @Test func externalModelOutputIsSweptWithAnEER() throws {
        let folder = CommandLineTests.folder()
        try """
        name: mymodel
        source: user
        score: mymodel.score
        gates:
          - output: mymodel.score
            calibrate: {criterion: eer, on: dev}
            code: SPOOF
        """.write(toFile: folder + "/mymodel.yaml", atomically: true, encoding: .utf8)
        let r = try Self.padbench([
            "bench", "--dataset", "datasets/sample", "--profiles", folder + "/mymodel.yaml", "--quiet", "--out",
            folder + "/run",
            "--external", "mymodel=python3 examples/external/pad_estimator.py",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let summary = try String(contentsOfFile: folder + "/run/summary.csv", encoding: .utf8).split(separator: "\n")
            .map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let header = summary[0], row = summary[1]
        let eer = try #require(header.firstIndex(of: "eer"))
        #expect(row[0] == "mymodel" && Double(row[eer]) != nil)
        // docs/external.md's demo: every sample (the clips too) is scored and the curve is not inverted
        // (before: the clips' 64 frames failed and the AUC was 0.42 on eval, 0.345 on dev).
        let failed = try #require(header.firstIndex(of: "n_failed")), auc = try #require(header.firstIndex(of: "auc"))
        for line in summary.dropFirst() where !line.isEmpty {
            #expect(line[failed] == "0" && (Double(line[auc]) ?? 0) > 0.6, "\(line)")
        }
    }

    @Test func typoInAProfileIsOneLocatedLineAndExit1() throws {
        let folder = CommandLineTests.folder()
        try "id,output,value\n000000.jpg,vendorx.quality,0.5\n".write(
            toFile: folder + "/long.csv", atomically: true, encoding: .utf8)
        try "name: t\nsource: s\ngates:\n  - {output: vendorx.qualty, op: ge, value: 1}\n".write(
            toFile: folder + "/t.yaml", atomically: true, encoding: .utf8)
        let r = try Self.padbench([
            "import", "long-csv", "--dataset", "datasets/sample", "--input", folder + "/long.csv", "--profiles",
            folder + "/t.yaml",
            "--out", folder + "/run",
        ])
        #expect(r.status == 1)
        #expect(
            r.stderr
                == "Error: \(folder)/t.yaml:4:14: unknown output `vendorx.qualty`; did you mean `vendorx.quality`?\n")
    }

    /// A bad export is bad data, not a wrong command line: exit 1, one line, no usage text (it was 64).
    @Test func badExportIsARuntimeError() throws {
        let folder = CommandLineTests.folder()
        try "id,status\n000000.jpg,Maybe\n".write(toFile: folder + "/idemia.csv", atomically: true, encoding: .utf8)
        let r = try Self.padbench([
            "import", "idemia-status", "--dataset", "datasets/sample", "--input", folder + "/idemia.csv", "--out",
            folder + "/run",
        ])
        #expect(r.status == 1)
        #expect(r.stderr == "Error: \(folder)/idemia.csv:2: status 'Maybe' is not Live, Fake, NoDecision or Unknown\n")
    }

    @Test func profilesNeedNoCascadeFilesAndCascadesOptionIsHonoured() throws {
        let bogus = ["PADBENCH_CASCADES": "/nonexistent-cascades"]
        let list = try Self.padbench(["profiles", "list"], environment: bogus)
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.split(separator: "\n").count == 14)
        let show = try Self.padbench(["profiles", "show", "aware-capture"], environment: bogus)
        #expect(show.status == 0 && show.stdout.contains("face.offset_x >= -0.25  [FACE_ON_LEFT]"))
        // A small dataset: --cascades wins over a wrong $PADBENCH_CASCADES, and a wrong --cascades is
        // a one-line error naming the file.
        let folder = CommandLineTests.folder()
        for (from, to) in [
            ("eval/bonafide/000000.jpg", "bonafide/a.jpg"), ("eval/attack/print/000001.jpg", "attack/print/b.jpg"),
        ] {
            try FileManager.default.createDirectory(
                atPath: folder + "/data/" + (to as NSString).deletingLastPathComponent,
                withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                atPath: Self.root + "/datasets/sample/" + from, toPath: folder + "/data/" + to)
        }
        let ok = try Self.padbench(
            [
                "bench", "--dataset", folder + "/data", "--profiles", "dot-default", "--cascades", "/usr/share/opencv4",
                "--quiet", "--out", folder + "/run",
            ], environment: bogus)
        #expect(ok.status == 0, "\(ok.stderr)")
        let bad = try Self.padbench(
            [
                "bench", "--dataset", folder + "/data", "--profiles", "dot-default", "--face-detector", "cascade",
                "--quiet", "--out", folder + "/bad",
            ], environment: bogus)
        #expect(
            bad.status == 1
                && bad.stderr.contains("/nonexistent-cascades/haarcascades/haarcascade_frontalface_default.xml"))
        #expect(!bad.stderr.contains("Usage") && bad.stderr.split(separator: "\n").count == 1)
    }
}

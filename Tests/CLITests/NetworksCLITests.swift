import Foundation
import Testing

/// The networks as a user runs them: the CNN detector and MiniFASNet by default from the checkout's
/// `.venv` and `models/`, a user's `--onnx` model, and the one-line refusals (exit 64 for a missing
/// ONNX Runtime, exit 1 for a wrong spec) that leave no run folder behind.
@Suite struct NetworksCLITests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    @Test func missingRuntimeExits64BeforeAnyWork() throws {
        let dir = try LandmarksCLITests.smallDataset()
        for arguments in [
            ["--onnxruntime", "/nonexistent/libonnxruntime.so"], ["--onnxruntime", "/usr/lib/x86_64-linux-gnu"],
        ] {
            let bench = try CommandLineTests.run(
                ["bench", "--dataset", dir, "--profiles", "minifasnet", "--out", dir + "/run", "--quiet"] + arguments)
            #expect(bench.status == 64, "\(bench.err)")
            #expect(bench.err.hasPrefix("Error: estimator '") && bench.err.contains("make setup"))
            #expect(bench.err.split(separator: "\n").count == 1 && !bench.err.contains("Usage"))
            #expect(!FileManager.default.fileExists(atPath: dir + "/run"))
            #expect(!FileManager.default.fileExists(atPath: dir + "/run.partial"))
        }
        // The cascade needs no ONNX Runtime.
        let cascade = try CommandLineTests.run([
            "bench", "--dataset", dir, "--profiles", "basic", "--face-detector", "cascade", "--onnxruntime",
            "/nonexistent", "--out", dir + "/cascade", "--quiet",
        ])
        #expect(cascade.status == 0, "\(cascade.err)")
    }

    /// ONNX Runtime 1.32's Linux library reports usage to Microsoft and keeps `$TMPDIR/.ses` unless
    /// ORT_DISABLE_TELEMETRY=1 is set before it initialises: a bench with both networks, started
    /// without the variable and with a TMPDIR of its own, leaves that folder empty.
    @Test func theNetworksRunWithoutTelemetry() throws {
        let dir = try LandmarksCLITests.smallDataset()
        let tmp = dir + "/tmp"
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLineTests.executable)
        process.arguments = [
            "bench", "--dataset", dir, "--profiles", "basic", "--estimators", "minifasnet", "--out", dir + "/run",
            "--quiet",
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["ORT_DISABLE_TELEMETRY"] = nil
        environment["TMPDIR"] = tmp
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp) == [])
    }

    @Test func networksAndAUserModelRunAndAreRecorded() throws {
        let dir = try LandmarksCLITests.smallDataset()
        let spec = Self.root + "/examples/onnx/minifasnet-v2.yaml"
        let bench = try CommandLineTests.run([
            "bench", "--dataset", dir, "--profiles", "basic", "--estimators", "minifasnet", "--onnx", "mine=" + spec,
            "--out", dir + "/run", "--quiet",
        ])
        #expect(bench.status == 0, "\(bench.err)")
        let rows = try String(contentsOfFile: dir + "/run/samples.csv", encoding: .utf8).split(separator: "\n")
        let header = rows[0].split(separator: ",").map(String.init)
        for row in rows.dropFirst() {
            let values = row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let value = { (name: String) in Double(values[header.firstIndex(of: name)!]) }
            let v2 = try #require(value("minifasnet.v2")), mine = try #require(value("mine.score"))
            #expect(abs(v2 - mine) <= 1e-6, "\(row)")
            #expect(value("face.count") == 1)
        }
        let manifest = try String(contentsOfFile: dir + "/run/manifest.json", encoding: .utf8)
        for text in [
            "34cd7e60aeff28744c657de7a3dc64e872d506741de66987f3426f2b79f88017", // RFB-320
            "85d926c424634db783b93d984e986b841aec7cf8f5f9ee014c31f31cdc3bacce", // MiniFASNetV2 (batch copy)
            "\"onnxruntime\" : \"1.32.0\"", "\"detector\" : \"ultraface\"",
        ] {
            #expect(manifest.contains(text), "\(text)")
        }
        let timing = try String(contentsOfFile: dir + "/run/timing.csv", encoding: .utf8)
        #expect(timing.contains("\nminifasnet,") && timing.contains("\nmine,") && timing.contains("\nface,"))
    }

    @Test func wrongSpecIsOneLineNamingItsLine() throws {
        let dir = try LandmarksCLITests.smallDataset()
        try "model: x.onnx\ninput: {width: 80, height: 80}\nbatch: 0\n".write(
            toFile: dir + "/bad.yaml", atomically: true, encoding: .utf8)
        let bench = try CommandLineTests.run([
            "bench", "--dataset", dir, "--profiles", "basic", "--onnx", "mine=" + dir + "/bad.yaml", "--out",
            dir + "/run", "--quiet",
        ])
        #expect(bench.status == 1)
        #expect(
            bench.err == "Error: estimator 'mine': \(dir)/bad.yaml:3: `batch` must be a whole number from 1 to 1024\n")
        #expect(!FileManager.default.fileExists(atPath: dir + "/run"))
        let twice = try CommandLineTests.run([
            "bench", "--dataset", dir, "--onnx", "pad=" + dir + "/bad.yaml", "--external", "pad=true", "--out",
            dir + "/run",
        ])
        #expect(twice.status == 64 && twice.err.contains("names both an --external program and an --onnx model"))
    }
}

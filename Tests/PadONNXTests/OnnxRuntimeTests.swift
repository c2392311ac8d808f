import Foundation
import Testing

@testable import PadONNX

/// The repository's root (tests find `models/` and the `.venv` that `make setup` made there).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

/// ``OnnxRuntime``: found without configuration in the checkout's `.venv`, refused in one line when
/// a path names something that is not ONNX Runtime.
@Suite struct OnnxRuntimeTests {
    /// `make setup` installs onnxruntime 1.32.0 into `.venv`; the test process (an executable under
    /// `.build/`) finds it by walking up from its own folder, as `padbench` does.
    @Test func loadsThePinnedLibrary() throws {
        let runtime = try OnnxRuntime.load()
        #expect(runtime.version == OnnxRuntime.pinnedVersion)
        #expect(runtime.path.hasPrefix(repositoryRoot + "/.venv/lib/python3"))
        #expect(runtime.path.hasSuffix("/onnxruntime/capi/libonnxruntime.so.1.32.0"))
        // Loaded once per process: the same environment for every caller.
        #expect(try OnnxRuntime.load() === runtime)
        // A folder given explicitly resolves to the library inside it.
        let folder = (runtime.path as NSString).deletingLastPathComponent
        #expect(try OnnxRuntime.load(explicit: folder) === runtime)
    }

    @Test func searchOrder() {
        let explicitFirst = OnnxRuntime.candidates(explicit: "/x/lib.so", environment: "/y", executable: nil)
        #expect(explicitFirst == [.init(path: "/x/lib.so", required: true, origin: "--onnxruntime")])
        let environment = OnnxRuntime.candidates(explicit: nil, environment: "/y/lib.so", executable: nil)
        #expect(environment == [.init(path: "/y/lib.so", required: true, origin: "PADBENCH_ONNXRUNTIME")])
        let fromExecutable = OnnxRuntime.candidates(
            explicit: nil, environment: nil, executable: repositoryRoot + "/.build/release/padbench")
        #expect(fromExecutable.count == 2)
        #expect(fromExecutable.first?.origin == repositoryRoot + "/.venv")
        #expect(fromExecutable.last?.path == "libonnxruntime.so.1")
        let elsewhere = OnnxRuntime.candidates(explicit: nil, environment: nil, executable: "/usr/bin/padbench")
        #expect(elsewhere == [.init(path: "libonnxruntime.so.1", required: false, origin: "the dynamic linker's path")])
    }

    /// A wrong explicit path is an error of its own (never passed over for the next candidate),
    /// naming the path and what to install.
    @Test func refusesWhatIsNotONNXRuntime() throws {
        let missing = #expect(throws: OnnxError.self) {
            try OnnxRuntime.load(explicit: "/nonexistent/libonnxruntime.so")
        }
        #expect(missing?.message.contains("--onnxruntime /nonexistent/libonnxruntime.so: No such file") == true)
        #expect(missing?.message.contains("make setup") == true)
        // A real shared library that is not ONNX Runtime.
        let zlib = ["/lib/x86_64-linux-gnu/libz.so.1", "/usr/lib/x86_64-linux-gnu/libz.so.1"].first {
            FileManager.default.fileExists(atPath: $0)
        }
        if let zlib {
            let other = #expect(throws: OnnxError.self) { try OnnxRuntime.load(explicit: zlib) }
            #expect(other?.message.contains("is not ONNX Runtime (it exports no OrtGetApiBase)") == true)
        }
        // A file that is no shared library at all.
        let text = FileManager.default.temporaryDirectory.appendingPathComponent(
            "padbench-not-a-library-\(getpid()).so")
        try Data("not ELF".utf8).write(to: text)
        defer { try? FileManager.default.removeItem(at: text) }
        let notELF = #expect(throws: OnnxError.self) { try OnnxRuntime.load(explicit: text.path) }
        #expect(notELF?.message.hasPrefix("cannot load ONNX Runtime \(text.path): ") == true)
    }
}

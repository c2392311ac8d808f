import COnnxRuntime
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Why ONNX Runtime or a model could not be used. `setup` errors happen before any sample is
/// measured (the command exits 64 naming what to install or which file is wrong); `run` errors
/// fail one sample.
package struct OnnxError: Error, Sendable, CustomStringConvertible {
    package enum Kind: Sendable { case library, model, run }
    package var kind: Kind
    package var message: String
    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
    package var description: String { message }
}

/// ONNX Runtime's C library, loaded at run time with `dlopen` (padbench builds and runs without it;
/// only the estimators that run networks need it), with the one `OrtEnv` of the process.
///
/// Example: `OnnxRuntimeTests.loadsThePinnedLibrary` in `Tests/PadONNXTests/OnnxRuntimeTests.swift`.
///
/// Where the library is looked for, first found wins (``candidates(explicit:environment:executable:)``):
/// 1. `--onnxruntime PATH` (a file, or a folder holding `libonnxruntime.so*`);
/// 2. `$PADBENCH_ONNXRUNTIME` (the same);
/// 3. the project-local virtual environment `make setup` creates: `.venv/lib/python3.*/site-packages/
///    onnxruntime/capi/libonnxruntime.so.*` in the folder of the executable or any folder above it
///    (so `.build/release/padbench` finds the checkout's `.venv`);
/// 4. `libonnxruntime.so.1` on the dynamic linker's path (a system-wide install, `LD_LIBRARY_PATH`).
///
/// The API table is requested at version ``apiVersion`` (ONNX Runtime 1.13): an older library
/// answers NULL and is refused with the version it reports.
package final class OnnxRuntime: Sendable {
    /// `ORT_API_VERSION` padbench is written against: every slot of `PadOrtApi` exists from here on.
    package static let apiVersion: UInt32 = 13
    /// The onnxruntime wheel `make setup` installs.
    package static let pinnedVersion = "1.32.0"
    /// The one-line advice every "library not found / too old" error ends with.
    package static let installAdvice =
        "run `make setup` (installs onnxruntime \(pinnedVersion) into .venv), or give --onnxruntime PATH "
        + "or PADBENCH_ONNXRUNTIME=PATH naming libonnxruntime.so from PyPI's onnxruntime wheel"

    /// The library file that was loaded.
    package let path: String
    /// The library's own version string (`GetVersionString`, e.g. `1.32.0`).
    package let version: String
    // Safety: set once in init; the API table is constant and the C API lets threads share `OrtEnv`.
    nonisolated(unsafe) let api: UnsafePointer<PadOrtApi>
    // Safety: set once in init; one `OrtEnv` per process, which ONNX Runtime lets threads share.
    nonisolated(unsafe) let environment: OpaquePointer
    // Safety: set once in init; the CPU memory info is only read (passed to CreateTensor).
    nonisolated(unsafe) let cpuMemory: OpaquePointer

    private init(path: String, version: String, api: UnsafePointer<PadOrtApi>) throws(OnnxError) {
        self.path = path
        self.version = version
        self.api = api
        var env: OpaquePointer?
        // Logging level 3 = ORT_LOGGING_LEVEL_ERROR: warnings (e.g. unused initialisers) stay off the terminal.
        try Self.check(
            api, api.pointee.CreateEnv(3, "padbench", &env), .library, "cannot create the ONNX Runtime environment")
        guard let env else { throw OnnxError(.library, "ONNX Runtime returned no environment") }
        environment = env
        // And the API's own switch, for libraries built with telemetry that read no variable.
        if let status = api.pointee.DisableTelemetryEvents(env) { api.pointee.ReleaseStatus(status) }
        var memory: OpaquePointer?
        // OrtArenaAllocator (1), OrtMemTypeDefault (0): tensors padbench passes live in its own memory.
        if let status = api.pointee.CreateCpuMemoryInfo(1, 0, &memory) {
            let message = Self.errorMessage(api, status)
            api.pointee.ReleaseStatus(status)
            api.pointee.ReleaseEnv(env)
            throw OnnxError(.library, "ONNX Runtime: cannot describe CPU memory: \(message)")
        }
        cpuMemory = memory!
    }

    deinit {
        api.pointee.ReleaseMemoryInfo(cpuMemory)
        api.pointee.ReleaseEnv(environment)
    }

    /// Loaded runtimes by library path: one environment per process and library, shared by every
    /// session (ONNX Runtime allows a single `OrtEnv` per process).
    private static let loaded = Mutex<[String: OnnxRuntime]>([:])

    /// The runtime found by the search order above (loaded once, then shared).
    package static func load(explicit: String? = nil) throws(OnnxError) -> OnnxRuntime {
        let environment = getenv("PADBENCH_ONNXRUNTIME").map { String(cString: $0) }
        let searched = candidates(explicit: explicit, environment: environment, executable: executablePath())
        var tried: [String] = []
        for candidate in searched {
            if let runtime = try loaded.withLock({ cache throws(OnnxError) -> OnnxRuntime? in
                if let known = cache[candidate.path] { return known }
                guard let runtime = try open(candidate, tried: &tried) else { return nil }
                cache[candidate.path] = runtime
                return runtime
            }) {
                return runtime
            }
        }
        let looked = tried.isEmpty ? "" : " (tried \(tried.joined(separator: ", ")))"
        throw OnnxError(.library, "ONNX Runtime library not found\(looked); \(installAdvice)")
    }

    /// A place the library may be, and whether it must be there (an explicit path that is wrong is
    /// an error of its own, never passed over for the next candidate).
    package struct Candidate: Sendable, Equatable {
        package var path: String
        package var required: Bool
        package var origin: String
    }

    /// The search order, as paths (folders resolved to the library file inside them).
    package static func candidates(explicit: String?, environment: String?, executable: String?) -> [Candidate] {
        var list: [Candidate] = []
        if let explicit, !explicit.isEmpty {
            list.append(Candidate(path: libraryFile(in: explicit), required: true, origin: "--onnxruntime"))
            return list
        }
        if let environment, !environment.isEmpty {
            list.append(Candidate(path: libraryFile(in: environment), required: true, origin: "PADBENCH_ONNXRUNTIME"))
            return list
        }
        if let executable {
            var folder = parent(of: executable)
            while !folder.isEmpty {
                if let found = venvLibrary(under: folder + "/.venv") {
                    list.append(Candidate(path: found, required: false, origin: "\(folder)/.venv"))
                    break
                }
                if folder == "/" { break }
                folder = parent(of: folder)
            }
        }
        list.append(Candidate(path: "libonnxruntime.so.1", required: false, origin: "the dynamic linker's path"))
        return list
    }

    /// `path` itself, or for a folder the newest `libonnxruntime.so*` in it.
    static func libraryFile(in path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return path }
        let names = directoryEntries(path).filter { $0.hasPrefix("libonnxruntime.so") }
        guard let best = names.max(by: { $0.count < $1.count || ($0.count == $1.count && $0 < $1) }) else {
            return path + "/libonnxruntime.so"
        }
        return path + "/" + best
    }

    /// `VENV/lib/python3.*/site-packages/onnxruntime/capi/libonnxruntime.so.*`, if there is one.
    static func venvLibrary(under venv: String) -> String? {
        for python in directoryEntries(venv + "/lib").filter({ $0.hasPrefix("python3") }).sorted() {
            let capi = "\(venv)/lib/\(python)/site-packages/onnxruntime/capi"
            let names = directoryEntries(capi).filter { $0.hasPrefix("libonnxruntime.so.") }
            if let name = names.max(by: { $0.count < $1.count || ($0.count == $1.count && $0 < $1) }) {
                return capi + "/" + name
            }
        }
        return nil
    }

    private static func directoryEntries(_ path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The first folder holding `relative` among the executable's folder and the folders above it
    /// (a checkout's `.venv` or `models` for a binary under its `.build`), or nil.
    package static func besideExecutable(_ relative: String) -> String? {
        guard let executable = executablePath() else { return nil }
        var folder = parent(of: executable)
        while !folder.isEmpty {
            let candidate = (folder == "/" ? "" : folder) + "/" + relative
            if access(candidate, F_OK) == 0 { return candidate }
            if folder == "/" { return nil }
            folder = parent(of: folder)
        }
        return nil
    }

    /// This process's executable, links resolved (`/proc/self/exe`).
    package static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: 4097)
        let count = readlink("/proc/self/exe", &buffer, 4096)
        guard count > 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Opens one candidate: nil when an optional one is absent, an error when a required one is
    /// absent or when any found library is not a usable ONNX Runtime.
    private static func open(_ candidate: Candidate, tried: inout [String]) throws(OnnxError) -> OnnxRuntime? {
        tried.append(candidate.path)
        if candidate.path.contains("/") {
            if let problem = regularFileProblem(candidate.path) {
                if candidate.required {
                    throw OnnxError(.library, "\(candidate.origin) \(candidate.path): \(problem); \(installAdvice)")
                }
                return nil
            }
        }
        // Before the library initialises: ONNX Runtime 1.32's Linux wheel reports usage to Microsoft
        // (1DS telemetry, on by default since its POSIX telemetry landed, microsoft/onnxruntime#27379)
        // and keeps a session file `$TMPDIR/.ses`. ORT_DISABLE_TELEMETRY=1 turns all of it off for the
        // process (no uploader, no identifier, no file). An evaluation of biometric data reports to no
        // one; a user who sets the variable to something else has chosen otherwise.
        setenv("ORT_DISABLE_TELEMETRY", "1", 0)
        guard let handle = dlopen(candidate.path, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "dlopen failed"
            if !candidate.required && !candidate.path.contains("/") { return nil }
            throw OnnxError(.library, "cannot load ONNX Runtime \(candidate.path): \(reason); \(installAdvice)")
        }
        guard let symbol = dlsym(handle, "OrtGetApiBase") else {
            dlclose(handle)
            throw OnnxError(
                .library, "\(candidate.path) is not ONNX Runtime (it exports no OrtGetApiBase); \(installAdvice)")
        }
        let getBase = unsafeBitCast(symbol, to: PadOrtGetApiBase.self)
        guard let base = getBase(), let versionText = base.pointee.GetVersionString() else {
            throw OnnxError(.library, "\(candidate.path): OrtGetApiBase returned nothing; \(installAdvice)")
        }
        let version = String(cString: versionText)
        guard let api = base.pointee.GetApi(apiVersion) else {
            throw OnnxError(
                .library,
                "ONNX Runtime \(version) at \(candidate.path) is too old (padbench needs API \(apiVersion), "
                    + "ONNX Runtime 1.13 or newer); \(installAdvice)")
        }
        // The library stays loaded for the life of the process (its threads and the environment).
        return try OnnxRuntime(path: candidate.path, version: version, api: api)
    }

    private static func regularFileProblem(_ path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return String(cString: strerror(errno)) }
        return info.st_mode & S_IFMT == S_IFREG ? nil : "is not a regular file"
    }

    /// Throws the status's message (and releases it) when `status` is an error.
    static func check(
        _ api: UnsafePointer<PadOrtApi>, _ status: OpaquePointer?, _ kind: OnnxError.Kind, _ what: String
    ) throws(OnnxError) {
        guard let status else { return }
        let message = errorMessage(api, status)
        api.pointee.ReleaseStatus(status)
        throw OnnxError(kind, "\(what): \(message)")
    }

    /// The text of an error status (the caller releases it).
    static func errorMessage(_ api: UnsafePointer<PadOrtApi>, _ status: OpaquePointer) -> String {
        api.pointee.GetErrorMessage(status).map { String(cString: $0) } ?? "unknown error"
    }

    func check(_ status: OpaquePointer?, _ kind: OnnxError.Kind, _ what: String) throws(OnnxError) {
        try Self.check(api, status, kind, what)
    }
}

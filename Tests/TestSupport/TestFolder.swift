import Foundation

/// Where tests put their files: one folder per test process in `$TMPDIR`
/// (`padbench-tests-<pid>`), removed with everything in it when the process exits, so a test that
/// fails half-way, or forgets its `defer`, leaves nothing behind. `make test` checks that `$TMPDIR`
/// is empty afterwards.
public enum TestFolder {
    /// The process's folder, made on first use; its removal is registered with `atexit`.
    public static let root: String = {
        let path = NSTemporaryDirectory() + "padbench-tests-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: TestFolder.root) }
        return path
    }()
}

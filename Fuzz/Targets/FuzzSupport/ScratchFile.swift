import Foundation

/// Readers that take a path get the fuzz input through one scratch file per process and name,
/// in /dev/shm when it exists (memory, not disk).
public enum ScratchFile {
    public static func write(_ bytes: UnsafeRawBufferPointer, name: String) -> String {
        let path = path(name: name)
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    /// The scratch path for `name`, for a target that writes the file itself.
    public static func path(name: String) -> String {
        let folder = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        return "\(folder)/padbench-fuzz-\(getpid())-\(name)"
    }

    /// A folder of its own per process (manifest datasets).
    public static func folder(_ name: String) -> String {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let path = "\(base)/padbench-fuzz-\(getpid())-\(name)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

/// Writes bytes to an exact path.
public enum FileManagerShim {
    public static func write(_ bytes: UnsafeRawBufferPointer, to path: String) {
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
    }
}

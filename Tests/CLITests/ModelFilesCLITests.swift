import Foundation
import Testing

/// Model files and the resume job are regular files read within a size limit, checked by `stat`
/// before anything is read: `/proc/self/pagemap` as `--model` grew to 7.5 GB and died, a FIFO
/// blocked (or read "You don't have permission" as root), a directory gave "NSCocoaErrorDomain
/// error 256", a landmark model padded with gigabytes of zeros was read for 30 s. Each is now one
/// line naming the file, exit 1, and no run folder.
@Suite struct ModelFilesCLITests {
    typealias CLI = CommandLineTests
    static let root = ProfileOutputsCLITests.root

    static func refused(_ arguments: [String], _ expected: String, _ out: String) throws {
        let result = try CLI.run(
            ["bench", "--dataset", "datasets/sample"] + arguments + ["--out", out], in: Self.root)
        #expect(result.status == 1 && result.err.contains(expected), "\(arguments): \(result.status) \(result.err)")
        #expect(
            !FileManager.default.fileExists(atPath: out) && !FileManager.default.fileExists(atPath: out + ".partial"))
    }

    @Test func modelsThatAreNotBoundedRegularFilesAreRefused() throws {
        let dir = CLI.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let fifo = dir + "/model.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        try Self.refused(
            ["--model", fifo], "model file \(fifo): is a FIFO (named pipe), not a regular file", dir + "/a")
        try Self.refused(["--model", dir], "model file \(dir): is a directory, not a file", dir + "/b")
        try Self.refused(["--model", "/proc/self/pagemap"], "model file /proc/self/pagemap:", dir + "/c")
        // A sparse file of 2 GiB: refused by its size, not read.
        let big = dir + "/big.dat"
        #expect(FileManager.default.createFile(atPath: big, contents: nil))
        #expect(truncate(big, 2 << 30) == 0)
        try Self.refused(
            ["--estimators", "landmarks", "--landmark-model", big],
            "landmark model \(big): 2147483648 bytes, over the 1073741824-byte limit", dir + "/d")
        try Self.refused(
            ["--estimators", "landmarks", "--landmark-model", fifo],
            "landmark model \(fifo): is a FIFO (named pipe), not a regular file", dir + "/e")
        // A 17 MiB "model": over the PAD model's 16 MiB.
        let padded = dir + "/padded.json"
        #expect(FileManager.default.createFile(atPath: padded, contents: nil))
        #expect(truncate(padded, 17 << 20) == 0)
        try Self.refused(
            ["--model", padded], "model file \(padded): is 17825792 bytes, above the limit of", dir + "/f")
    }

    @Test func aResumeJobThatIsAFIFOIsOneLine() throws {
        let dir = CLI.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/run.partial", withIntermediateDirectories: true)
        #expect(mkfifo(dir + "/run.partial/job.json", 0o600) == 0)
        let result = try CLI.run(["bench", "--resume", dir + "/run"])
        #expect(result.status == 1, "\(result.err)")
        #expect(result.err.contains("job.json: cannot read the resume job: is a FIFO (named pipe)"), "\(result.err)")
    }
}

import Foundation
import Testing

/// A disk that fills while `bench` writes its run (issue 25), on a small tmpfs mounted for the
/// test: one line naming the file and "No space left on device", exit 1, nothing under `--out`,
/// the journal's rows kept, and `bench --resume` completes once the disk is bigger (the tmpfs
/// remounted larger), with the same `samples.csv` as a run that never failed.
/// Mounting needs root (CAP_SYS_ADMIN), as in CI; elsewhere the test says it did not run.
@Suite(.serialized) struct DiskFullCLITests {
    typealias CLI = ProfileOutputsCLITests

    /// True when this process may mount a tmpfs (tried once on a scratch folder).
    static let canMount: Bool = {
        let point = CommandLineTests.folder("mountprobe")
        defer { try? FileManager.default.removeItem(atPath: point) }
        guard (try? shell("mount -t tmpfs -o size=64k padbench-probe '\(point)'")) == 0 else { return false }
        _ = try? shell("umount '\(point)'")
        return true
    }()

    @discardableResult
    static func shell(_ command: String) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Bytes a file takes on a tmpfs: whole 4 KiB pages.
    static func pages(_ path: String) -> Int {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        return (size + 4095) / 4096
    }

    static func lines(_ path: String) -> [String] {
        (try? String(contentsOfFile: path, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
    }

    /// `samples.csv` without its time columns (`decode_ns`, `*_ns`), which differ between runs.
    static func withoutTimes(_ path: String) -> [String] {
        let rows = lines(path).map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        guard let header = rows.first else { return [] }
        let keep = header.indices.filter { !header[$0].hasSuffix("_ns") }
        return rows.map { row in keep.map { $0 < row.count ? String(row[$0]) : "?" }.joined(separator: ",") }
    }

    /// The disk's size for a run that fills it while writing `file`, from the files of a complete
    /// run `whole` of the same command: the lock and the work folder's markers, everything written before `file`
    /// and curves.csv's compressed frame fit, `file` does not (the journal and the archive get half
    /// their pages).
    static func diskPages(fillingAt file: String, whole: String) -> Int {
        let markers = 3 // run.lock (it holds the pid), .padbench-work and command.json: a page each
        let journal = pages(whole + "/samples.csv")
        switch file {
        case "samples.csv":
            return markers + journal / 2
        case "results.json":
            // samples.csv, decisions.csv, curves.csv, then the CSV reports.
            let before = [
                "samples.csv", "decisions.csv", "curves.csv", "summary.csv",
                "per_species.csv", "reject_reasons.csv", "outputs.csv", "timing.csv",
            ]
            return markers + before.map { pages(whole + "/" + $0) }.reduce(0, +) + 1
        default:
            let written = (try? FileManager.default.contentsOfDirectory(atPath: whole)) ?? []
            let all = written.filter { $0 != "results.tar.zst" }.map { pages(whole + "/" + $0) }.reduce(0, +)
            return markers + all + 1 + pages(whole + "/results.tar.zst") / 2
        }
    }

    @Test(
        .enabled(if: canMount, "mounting a tmpfs needs root (CAP_SYS_ADMIN): the full-disk test did not run"),
        arguments: ["samples.csv", "results.json", "results.tar.zst"])
    func aFullDiskKeepsTheJournalAndLeavesNoHalfRun(_ file: String) throws {
        let dir = CommandLineTests.folder()
        let data = try MergeCLITests.sampleSubset(dir + "/data", count: 60)
        // One cheap estimator (the image's size): the test is about the writes, not the measuring.
        try
            "name: size\nsource: test\nscore: image.megapixels\ngates:\n  - {output: image.megapixels, op: ge, value: 0.01}\n"
            .write(toFile: dir + "/size.yaml", atomically: true, encoding: .utf8)
        let arguments = ["bench", "--dataset", data, "--profiles", dir + "/size.yaml", "--quiet", "--concurrency", "1"]
        let whole = try CLI.padbench(arguments + ["--out", dir + "/whole"])
        try #require(whole.status == 0, "\(whole.stderr)")
        let disk = dir + "/disk"
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        let size = diskPagesText(Self.diskPages(fillingAt: file, whole: dir + "/whole"))
        try #require(try Self.shell("mount -t tmpfs -o size=\(size) padbench-full '\(disk)'") == 0)
        defer { _ = try? Self.shell("umount '\(disk)'") }

        let out = disk + "/run"
        let full = try CLI.padbench(arguments + ["--out", out])
        #expect(full.status == 1, "\(full.stderr)")
        #expect(full.stderr.split(separator: "\n").count == 1, "\(full.stderr)")
        // The archive is written as results.tar.zst.partial and renamed when complete.
        #expect(full.stderr.contains("\(out).partial/\(file)"), "\(full.stderr)")
        #expect(full.stderr.contains("No space left on device"), "\(full.stderr)")
        #expect(
            full.stderr.hasSuffix(
                "the measured samples are kept in \(out).partial/samples.csv; "
                    + "continue with `padbench bench --resume \(out)`\n"), "\(full.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out), "a half run stands under --out")
        let kept = Self.lines(out + ".partial/samples.csv").count
        if file == "samples.csv" {
            #expect(kept > 2 && kept < 61, "journal of \(kept) lines")
        } else {
            #expect(kept == 61, "journal of \(kept) lines")
        }

        // The same disk, bigger: the resume takes over the journal and completes the run.
        try #require(try Self.shell("mount -o remount,size=64m '\(disk)'") == 0)
        let resumed = try CLI.padbench(["bench", "--resume", out, "--quiet"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out + ".partial"))
        #expect(Self.withoutTimes(out + "/samples.csv") == Self.withoutTimes(dir + "/whole/samples.csv"))
        #expect(FileManager.default.fileExists(atPath: out + "/results.tar.zst"))
    }

    func diskPagesText(_ pages: Int) -> String { "\(pages * 4)k" }
}

import Foundation
import PadArchive

/// A finished run read back from its archive (or its folder): manifest and report tables.
///
/// ```swift
/// let run = try StoredRun(path: "reports/run/results.tar.zst")   // or the run folder
/// run.summary.records.count
/// ```
public struct StoredRun: Sendable {
    public let path: String
    public let manifest: RunManifest
    public let summary: CSVTable
    public let perSpecies: CSVTable?
    public let timing: CSVTable?

    public init(path: String) throws {
        var archivePath = path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            archivePath = path + "/results.tar.zst"
        }
        guard FileManager.default.fileExists(atPath: archivePath) else {
            throw ArchiveError.io(path: archivePath, message: "no such archive (give results.tar.zst or its run folder)")
        }
        let archive = try ResultArchiveReader(path: archivePath)
        guard archive.contains("manifest.json"), archive.contains("summary.csv") else {
            throw ArchiveError.tar(path: archivePath, message: "not a padbench result archive (no manifest.json or summary.csv)")
        }
        self.path = archivePath
        do {
            manifest = try RunManifest.decode(from: archive.entry(named: "manifest.json"))
        } catch let error as ArchiveError {
            throw error
        } catch {
            throw ArchiveError.tar(path: archivePath, message: "manifest.json is not a padbench manifest: \(error)")
        }
        summary = try CSVTable(bytes: archive.entry(named: "summary.csv"), path: archivePath + ":summary.csv")
        perSpecies = archive.contains("per_species.csv") ? try CSVTable(bytes: archive.entry(named: "per_species.csv"), path: archivePath + ":per_species.csv") : nil
        timing = archive.contains("timing.csv") ? try CSVTable(bytes: archive.entry(named: "timing.csv"), path: archivePath + ":timing.csv") : nil
    }

    /// Summary rows by profile (bench/import) or set (eval on scores).
    public var rowsByKey: [String: [String: String]] {
        let keyColumn = summary.column("profile") ?? summary.column("set") ?? 0
        var rows: [String: [String: String]] = [:]
        for record in summary.records {
            var row: [String: String] = [:]
            for (i, name) in summary.header.enumerated() { row[name] = record.fields[i] }
            rows[record.fields[keyColumn]] = row
        }
        return rows
    }
}

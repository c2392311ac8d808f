import Foundation
import PadArchive
import PadEvaluation
import PadReport
import PadText
import PadVocabulary

/// A finished run read back from its archive (or its folder): manifest, typed results and
/// timing, checked against each other before anything is compared or re-decided.
///
/// Example: `CompareTests.editedArchivesAreRefused`
/// in `Tests/PadBenchTests/CompareTests.swift` (compiled and run by `swift test`).
/// Refused with what differs: a foreign archive, a schema this padbench does not read, a
/// `samples.csv` whose row count or sample fingerprint disagrees with the manifest.
package struct StoredRun: Sendable {
    package let path: String
    package let manifest: RunManifest
    package let summary: RunSummary
    package let timing: CSVTable?
    let archive: ResultArchiveReader

    package init(path: String) throws {
        var archivePath = path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            archivePath = path + "/" + RunFile.archive.name
        }
        guard FileManager.default.fileExists(atPath: archivePath) else {
            throw ArchiveError.io(
                path: archivePath, message: "no such archive (give results.tar.zst or its run folder)")
        }
        let archive = try ResultArchiveReader(path: archivePath)
        guard archive.contains(RunFile.manifest.name) else {
            throw ArchiveError.tar(path: archivePath, message: "not a padbench result archive (no manifest.json)")
        }
        self.path = archivePath
        self.archive = archive
        do {
            manifest = try RunManifest.decode(from: archive.jsonEntry(named: RunFile.manifest.name))
        } catch let error as ArchiveError {
            throw error
        } catch {
            throw ArchiveError.tar(
                path: archivePath, message: "manifest.json is not a padbench manifest: \(JSONCoding.problem(error))")
        }
        guard manifest.schema == RunManifest.currentSchema else {
            throw ArchiveError.tar(
                path: archivePath,
                message:
                    "manifest schema \(manifest.schema); this padbench \(ToolVersion.current) reads schema "
                    + "\(RunManifest.currentSchema) (re-run it, or use the padbench that wrote it)"
            )
        }
        guard archive.contains(RunFile.results.name) else {
            throw ArchiveError.tar(path: archivePath, message: "no results.json: not a complete padbench run")
        }
        summary = try RunSummary.decode(
            from: archive.jsonEntry(named: RunFile.results.name), path: archivePath + ":results.json")
        timing =
            archive.contains(RunFile.timing.name)
            ? try CSVTable(bytes: archive.entry(named: RunFile.timing.name), path: archivePath + ":timing.csv") : nil
        let profiles = summary.profiles.map(\.name)
        guard profiles == manifest.profiles else {
            throw ArchiveError.tar(
                path: archivePath, message: "results.json has profiles \(profiles), the manifest \(manifest.profiles)")
        }
    }

    package func contains(_ name: String) -> Bool { archive.contains(name) }

    /// A CSV member of the archive.
    /// The bytes of member `name`, refused when the archive has none.
    package func entry(_ name: String) throws -> [UInt8] {
        guard archive.contains(name) else { throw ArchiveError.tar(path: path, message: "no \(name) in the archive") }
        return try archive.entry(named: name)
    }

    package func table(_ name: String) throws -> CSVTable {
        guard archive.contains(name) else { throw ArchiveError.tar(path: path, message: "no \(name) in the archive") }
        return try CSVTable(bytes: archive.entry(named: name), path: path + ":" + name)
    }

    /// `samples.csv`, checked against the manifest: as many rows as samples, and the same
    /// fingerprint of ids, labels, species, splits and presentations. An edited archive is refused.
    package func verifiedSamples() throws -> CSVTable {
        let samples = try table(RunFile.samples.name)
        try manifest.checkSampleCount(samples.records.count, archive: path)
        let columns = try SamplesSchema(header: samples.header, path: path + ":samples.csv")
        var total: UInt64 = 0, presentations: UInt64 = 0
        for record in samples.records {
            total &+= columns.sampleHash(record.fields)
            presentations &+= columns.presentationHash(record.fields)
        }
        try manifest.checkSampleFingerprint(total, presentations: presentations, archive: path)
        return samples
    }
}

/// The version string every manifest and report records.
package enum ToolVersion {
    package static let current = "0.2.0"
}

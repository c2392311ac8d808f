import Foundation
import PadArchive
import PadSamples
import PadEvaluation
import PadMetrics
import PadProfiles
import PadReport
import PadText
import PadVocabulary

/// The one writer of every run (bench, eval on scores or an archive, import, merge): the CSV
/// reports (with `outputs.csv`: which output separates which attack, and subject-clustered
/// bootstrap intervals when the table names subjects), `results.json` (the typed results `show`,
/// `compare` and `folds` read), the HTML report and the manifest into the run folder, then
/// everything into `results.tar.zst`.
///
/// ```swift
/// let archive = try RunFolderWriter(folder: "reports/run").write(
///     manifest: m, table: table, results: r, timing: t,
///     profiles: p, streamedFiles: ["samples.csv"])
/// ```
package struct RunFolderWriter: Sendable {
    package let folder: String
    package init(folder: String) { self.folder = folder }

    /// The archive's zstd level and workers for a table of `rows`: level 6 on the calling thread,
    /// level 1 on every core above a million rows (where the files reach gigabytes).
    package static func compression(rows: Int) -> (level: Int, workers: Int) {
        rows > 1_000_000 ? (1, ProcessInfo.processInfo.activeProcessorCount) : (6, 0)
    }

    /// The archive member `name` of the folder, compressed while it is written
    /// (``ArchiveMemberWriter``) at the level of a table of `rows`.
    package func member(_ name: String, rows: Int) throws -> ArchiveMemberWriter {
        let (level, workers) = Self.compression(rows: rows)
        return try ArchiveMemberWriter(name: name, path: folder + "/" + name, level: level, workers: workers)
    }

    /// Files already written into the folder (`samples.csv`, `decisions.csv`) are streamed into
    /// the archive from disk, or copied as the zstd frames made while they were written when
    /// `precompressed` holds them (``member(_:rows:)``); reports are written beside them and added
    /// too (`curves.csv` always compressed as it is written). The manifest gets the data and
    /// outputs fingerprints of `table`, and each profile's definition hash.
    @discardableResult
    package func write(
        manifest: RunManifest, table: MeasurementTable, results: [ProfileResult],
        timing: [TimingStep],
        profiles: [Profile], streamedFiles: [String], precompressed: [CompressedMember] = [],
        pending: [() throws -> CompressedMember] = [], finishedAt: (() -> RunManifest.Times)? = nil
    ) throws -> Written {
        // Members still being written (decisions.csv of score files) are waited for on every path:
        // none may still write into the folder when it is committed or removed.
        let members = CompressedMembers(precompressed, pending: pending, streamedFiles: streamedFiles)
        defer { try? members.waitForPending() }
        var manifest = manifest
        let given = results
        // The fingerprints and `outputs.csv` read the table (and the frame-level sorted scores)
        // alone: computed on other cores while the presentations are decided and the curves written.
        let fingerprinting = Fingerprints.started(table)
        var frameResults = RunStatistics.withSubjectIntervals(results, table: table)
        FreeMemory.releaseAfterPhase()
        let separating = Self.outputSeparation(table, sortedFor: frameResults)
        var results = frameResults
        var streamedFiles = streamedFiles
        if table.hasPresentations {
            results = try presentationResults(table, frameResults: frameResults, manifest: &manifest)
            streamedFiles.append(PresentationLevel.decisionsMember)
        } else {
            frameResults = []
            // Still images: nothing was aggregated, and the manifest stays as it always was.
            manifest.frameAggregate = nil
        }
        let curves = try writeCurves(results, rows: table.count)
        let (outputs, fingerprints) = (try separating.wait(), try fingerprinting())
        Self.stamp(&manifest, fingerprints: fingerprints, samples: table.count, profiles: profiles)
        manifest.columns = table.keys
        // Written before the analyses read it: the presentation decisions are already on disk, and
        // decisions.csv is once the pending members are.
        try members.waitForPending()
        let analyses = try RunAnalyses.compute(folder: folder, table: table, results: results, manifest: manifest)
        FreeMemory.releaseAfterPhase()
        for member in [SampleLabels.member, RunFile.comparisons.name]
        where FileManager.default.fileExists(atPath: folder + "/" + member) {
            streamedFiles.append(member)
        }
        // The run's times once its statistics are done (a subject bootstrap of a million scores
        // takes tens of seconds): what the report and the manifest say is the run's own wall time,
        // up to writing the reports and the archive.
        if let finishedAt { manifest.times = finishedAt() }
        let reports =
            try Self.reportFiles(results, outputs: outputs, timing: timing, manifest: manifest, analyses: analyses)
            + (try Self.frameAndMetricsFiles(results, frameResults: frameResults, manifest: manifest))
        try writeBeside(reports)
        let manifestBytes = try manifest.encoded()
        try Data(manifestBytes).write(to: URL(fileURLWithPath: folder + "/" + RunFile.manifest.name))
        let archivePath = try archive(
            manifest: manifestBytes, rows: table.count, streamedFiles: streamedFiles, precompressed: members.finished,
            curves: curves, reports: reports, profiles: profiles)
        return Written(
            archivePath: archivePath, results: table.hasPresentations ? results : given, times: manifest.times)
    }

    /// The zstd frames of members compressed while they were written, and those still being
    /// written (``write(manifest:table:results:timing:profiles:streamedFiles:precompressed:pending:finishedAt:)``'s
    /// `pending`), waited for once. Each must be among the streamed files, or the archive would
    /// leave it out.
    final class CompressedMembers {
        private(set) var finished: [CompressedMember]
        private var pending: [() throws -> CompressedMember]
        private let streamedFiles: [String]

        init(_ finished: [CompressedMember], pending: [() throws -> CompressedMember], streamedFiles: [String]) {
            precondition(finished.allSatisfy { streamedFiles.contains($0.name) }, "precompressed file not streamed")
            self.finished = finished
            self.pending = pending
            self.streamedFiles = streamedFiles
        }

        /// Waits for every pending member (all of them, even after one fails); throws the first failure.
        func waitForPending() throws {
            let waiting = pending
            pending = []
            var failure: Error?
            for finish in waiting {
                do { finished.append(try finish()) } catch { failure = failure ?? error }
            }
            if let failure { throw failure }
            precondition(finished.allSatisfy { streamedFiles.contains($0.name) }, "precompressed file not streamed")
        }
    }

    /// The frame-level report files of a run with presentations (under `frames/`) and
    /// `metrics.csv`, which lists both levels.
    static func frameAndMetricsFiles(
        _ results: [ProfileResult], frameResults: [ProfileResult], manifest: RunManifest
    ) throws -> [(String, [UInt8])] {
        let attackPotential = manifest.attackPotential.map(AttackPotential.init(levels:))
        var files: [(String, [UInt8])] = []
        if !frameResults.isEmpty {
            files += try Self.frameReportFiles(frameResults, attackPotential: attackPotential)
        }
        files.append(
            (
                RunFile.metrics.name,
                Self.encode(
                    MetricsTable.table(presentations: results, frames: frameResults, attackPotential: attackPotential))
            ))
        return files
    }

    /// Writes each report file into the run folder (`frames/...` into its subfolder).
    func writeBeside(_ reports: [(String, [UInt8])]) throws {
        for (name, bytes) in reports {
            if name.contains("/") {
                try FileManager.default.createDirectory(
                    atPath: folder + "/" + (name as NSString).deletingLastPathComponent,
                    withIntermediateDirectories: true)
            }
            try Data(bytes).write(to: URL(fileURLWithPath: folder + "/" + name))
        }
    }

    /// What ``write(manifest:table:results:timing:profiles:streamedFiles:precompressed:)`` wrote:
    /// the archive, and the headline results (per presentation, with their subject intervals, when
    /// the run has presentations of several frames; else the results it was given).
    package struct Written: Sendable {
        package var archivePath: String
        package var results: [ProfileResult]
        /// The manifest's times as written.
        package var times: RunManifest.Times
    }

    /// The headline results of a run whose table has presentations of several frames: each profile
    /// decided per presentation (``PresentationLevel``) with the run's frame aggregate (the
    /// manifest's `frame_aggregate` convention, `mean` unless the command chose another), with
    /// subject-clustered intervals that resample subjects, then whole presentations.
    /// `presentation_decisions.csv` is written beside `decisions.csv` (which stays per frame).
    private func presentationResults(
        _ table: MeasurementTable, frameResults: [ProfileResult], manifest: inout RunManifest
    ) throws -> [ProfileResult] {
        let aggregate = manifest.effectiveFrameAggregate
        manifest.frameAggregate = aggregate
        manifest.countsPresentations = true
        let decisions = try CSVWriter(path: folder + "/" + PresentationLevel.decisionsMember)
        // Score files without a calibration split choose thresholds on the reported set; so do
        // their presentations.
        let onReported = frameResults.contains { $0.thresholdSource.isChosenOnReportedSet }
        let level = try PresentationLevel.evaluate(
            table, frameResults: frameResults, aggregate: aggregate,
            choosesOnReportedSetWithoutCalibrationSplit: onReported, decisions: decisions)
        try decisions.close()
        return zip(level.results, level.tables).map { result, presentations in
            RunStatistics.withSubjectIntervals([result], table: presentations)[0]
        }
    }

    /// The frame-level tables beside the headline ones, labelled by their folder: `frames/summary.csv`,
    /// `frames/per_species.csv`, `frames/reject_reasons.csv` and `frames/results.json`.
    private static func frameReportFiles(_ results: [ProfileResult], attackPotential: AttackPotential?) throws
        -> [(String, [UInt8])]
    {
        [
            (RunFile.summary.inFrames, encode(ReportTables.summary(results, attackPotential: attackPotential))),
            (RunFile.perSpecies.inFrames, encode(ReportTables.perSpecies(results, attackPotential: attackPotential))),
            (RunFile.rejectReasons.inFrames, encode(ReportTables.rejectReasons(results))),
            (RunFile.results.inFrames, try RunSummary(results: results).encoded()),
        ]
    }

    private static func encode(_ table: ReportTables.Table) -> [UInt8] {
        CSVWriter.encode(header: table.header, rows: table.rows)
    }

    /// `outputs.csv`'s rows, computed on another core. Its rows are the table's (frames), so it
    /// reuses the sorted scores of any of `sortedFor` (the frame-level results) that swept them.
    private static func outputSeparation(_ table: MeasurementTable, sortedFor: [ProfileResult])
        -> BackgroundValue<[OutputSeparation.Row]>
    {
        BackgroundValue { try RunStatistics.outputSeparation(table, results: sortedFor) }
    }

    /// `curves.csv` (the biggest report), compressed for the archive as it is written.
    private func writeCurves(_ results: [ProfileResult], rows: Int) throws -> CompressedMember {
        let member = try self.member(RunFile.curves.name, rows: rows)
        try ReportTables.writeCurves(results, into: CSVWriter(member: member))
        return try member.finished()
    }

    /// The table's fingerprints (``DatasetFingerprint``): of its labelled samples and presentations,
    /// of the presentations' part alone, and of what was measured.
    struct Fingerprints: Sendable {
        var data: String
        var presentations: String?
        var outputs: String

        init(data: String, presentations: String?, outputs: String) {
            (self.data, self.presentations, self.outputs) = (data, presentations, outputs)
        }

        /// The three sums started at once, each on a thread of its own (each walks every row: ten
        /// million ids), and the wait for them. The data fingerprint is the samples' sum plus the
        /// presentations' (``DatasetFingerprint/of(_:presentations:)``), added here.
        static func started(_ table: MeasurementTable) -> @Sendable () throws -> Fingerprints {
            let presentations = BackgroundValue { DatasetFingerprint.presentations(table) }
            let samples = BackgroundValue { DatasetFingerprint.of(table, presentations: nil) }
            let outputs = BackgroundValue { DatasetFingerprint.outputs(table) }
            return {
                let part = try presentations.wait(), samples = try samples.wait()
                let data = part.flatMap { DatasetFingerprint.combine([samples, $0]) } ?? samples
                return Fingerprints(data: data, presentations: part, outputs: try outputs.wait())
            }
        }
    }

    /// The manifest's dataset fingerprints and size, and each profile's name, definition hash and options.
    private static func stamp(
        _ manifest: inout RunManifest, fingerprints: Fingerprints, samples: Int,
        profiles: [Profile]
    ) {
        manifest.dataset.fingerprint = fingerprints.data
        manifest.dataset.presentationsFingerprint = fingerprints.presentations
        manifest.dataset.outputsFingerprint = fingerprints.outputs
        manifest.dataset.samples = samples
        manifest.profiles = profiles.map(\.name)
        manifest.profileDefinitions = Dictionary(
            profiles.map { ($0.name, $0.definitionHash) }, uniquingKeysWith: { a, _ in a })
        manifest.profileOptions = Dictionary(profiles.map { ($0.name, $0.optionsKey) }, uniquingKeysWith: { a, _ in a })
    }

    /// The small report files, in archive order: the CSV tables, `results.json` and `report.html`.
    private static func reportFiles(
        _ results: [ProfileResult], outputs: [OutputSeparation.Row], timing: [TimingStep], manifest: RunManifest,
        analyses: RunAnalyses.Output = RunAnalyses.Output()
    ) throws -> [(String, [UInt8])] {
        var reports: [(String, [UInt8])] = []
        func add(_ name: String, _ table: ReportTables.Table) {
            reports.append((name, CSVWriter.encode(header: table.header, rows: table.rows)))
        }
        let attackPotential = manifest.attackPotential.map(AttackPotential.init(levels:))
        add(RunFile.summary.name, ReportTables.summary(results, attackPotential: attackPotential))
        add(RunFile.perSpecies.name, ReportTables.perSpecies(results, attackPotential: attackPotential))
        add(RunFile.rejectReasons.name, ReportTables.rejectReasons(results))
        add(RunFile.outputs.name, OutputSeparation.table(outputs))
        if !timing.isEmpty { add(RunFile.timing.name, ReportTables.timing(timing)) }
        reports += analyses.reports
        reports.append((RunFile.results.name, try RunSummary(results: results).encoded()))
        var html = HTMLReport(manifest: manifest, results: results, timing: timing, outputs: outputs)
        html.extraSections = analyses.sections
        reports.append((RunFile.report.name, Array(html.render().utf8)))
        return reports
    }

    /// `results.tar.zst`: the manifest, the streamed per-sample files (copied as their frames when
    /// precompressed, else read from the folder), the curves, the reports and the profiles' YAML.
    private func archive(
        manifest: [UInt8], rows: Int, streamedFiles: [String], precompressed: [CompressedMember],
        curves: CompressedMember, reports: [(String, [UInt8])], profiles: [Profile]
    ) throws -> String {
        let archivePath = folder + "/" + RunFile.archive.name
        let (level, workers) = Self.compression(rows: rows)
        let archive = try ResultArchiveWriter(finalPath: archivePath, level: level, workers: workers)
        try archive.add(name: RunFile.manifest.name, contents: manifest)
        for name in streamedFiles {
            if let member = precompressed.first(where: { $0.name == name }) {
                try archive.addCompressed(member)
            } else {
                try archive.addFile(name: name, fromPath: folder + "/" + name)
            }
        }
        try archive.addCompressed(curves)
        for (name, bytes) in reports { try archive.add(name: name, contents: bytes) }
        for profile in profiles {
            try archive.add(name: RunFile.profile(profile.name), contents: Array(profile.yaml.utf8))
        }
        try archive.commit()
        return archivePath
    }
}

import Foundation
import PadArchive
import PadDataset
import PadMetrics
import PadProfiles
import PadReport

/// `padbench eval`: score imported score files, or re-decide profiles on a stored archive.
/// Never runs an estimator.
///
/// ```swift
/// let report = try EvalRunner().evaluateScores(EvalRunner.ScoreJob(scoreFiles: ["eval.csv"], devFiles: ["dev.csv"],
///                                               criterion: .bpcerAtAPCER(0.01), outputFolder: "reports/e"))
/// ```
public struct EvalRunner: Sendable {
    public init() {}

    public struct ScoreJob: Sendable {
        public var scoreFiles: [String]
        public var devFiles: [String]
        public var format: ScoreFormat?
        public var polarity: ScorePolarity
        /// A fixed threshold; when nil, `criterion` chooses one (on dev when given).
        public var threshold: Double?
        public var criterion: ThresholdCriterion
        public var outputFolder: String
        public var commandLine: [String]

        public init(scoreFiles: [String], devFiles: [String] = [], format: ScoreFormat? = nil,
                    polarity: ScorePolarity = .bonafideHigh, threshold: Double? = nil, criterion: ThresholdCriterion = .eer,
                    outputFolder: String, commandLine: [String] = []) {
            self.scoreFiles = scoreFiles
            self.devFiles = devFiles
            self.format = format
            self.polarity = polarity
            self.threshold = threshold
            self.criterion = criterion
            self.outputFolder = outputFolder
            self.commandLine = commandLine
        }
    }

    public struct ScoreOutcome: Sendable {
        public var report: ScoreReport
        public var archivePath: String
        public var parseSeconds: Double
        public var metricSeconds: Double
        public var writeSeconds: Double
    }

    public func evaluateScores(_ job: ScoreJob) throws -> ScoreOutcome {
        let started = Date()
        let t0 = MonotonicClock.nanoseconds()
        let reader = ScoreFileReader(polarity: job.polarity)
        let evalScores = try reader.read(job.scoreFiles, format: job.format)
        let devScores = job.devFiles.isEmpty ? nil : try reader.read(job.devFiles, format: job.format)
        let t1 = MonotonicClock.nanoseconds()

        let evalCurve: ErrorCurve
        do { evalCurve = try ErrorCurve(evalScores.set) } catch { throw EvaluationError("\(job.scoreFiles.joined(separator: ", ")): \(error)") }
        var sets: [ScoreReport.SetResult] = []
        let threshold: Double, source: String, criterionText: String
        if let fixed = job.threshold {
            threshold = fixed; source = "fixed"; criterionText = "fixed"
        } else if let devScores {
            let devCurve: ErrorCurve
            do { devCurve = try ErrorCurve(devScores.set) } catch { throw EvaluationError("\(job.devFiles.joined(separator: ", ")): \(error)") }
            threshold = job.criterion.threshold(on: devCurve)
            source = "dev"
            criterionText = job.criterion.description
            sets.append(ScoreReport.SetResult(name: "dev", curve: devCurve, threshold: threshold))
        } else {
            threshold = job.criterion.threshold(on: evalCurve)
            source = "eval (not calibrated: chosen on the reported set)"
            criterionText = job.criterion.description
        }
        sets.append(ScoreReport.SetResult(name: devScores == nil ? "all" : "eval", curve: evalCurve, threshold: threshold))
        let report = ScoreReport(criterion: criterionText, threshold: threshold, thresholdSource: source, sets: sets)
        let t2 = MonotonicClock.nanoseconds()

        let folder = job.outputFolder
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try report.writeCurves(to: folder + "/curves.csv")
        let summaryBytes = CSVWriter.encode(header: report.summary.header, rows: report.summary.rows)
        let speciesBytes = CSVWriter.encode(header: report.perSpecies.header, rows: report.perSpecies.rows)
        try Data(summaryBytes).write(to: URL(fileURLWithPath: folder + "/summary.csv"))
        var htmlReport: HTMLReport?
        try Data(speciesBytes).write(to: URL(fileURLWithPath: folder + "/per_species.csv"))
        var counts = ["scores": evalScores.lines, "failed": evalCurve.bonaFideFailed + evalCurve.attackFailed.reduce(0, +)]
        if let devScores { counts["dev_scores"] = devScores.lines }
        var conventions = Conventions.current
        conventions["score_format"] = evalScores.format.rawValue
        conventions["score_polarity_in_file"] = job.polarity.rawValue
        let manifest = RunManifest(
            kind: "eval",
            tool: .init(version: ToolInfo.version, commandLine: job.commandLine),
            conventions: conventions,
            dataset: .init(name: (job.scoreFiles[0] as NSString).lastPathComponent, path: job.scoreFiles.joined(separator: ","),
                           layout: "scores:\(evalScores.format.rawValue)", fingerprint: Self.fingerprint(evalScores.set),
                           samples: evalScores.lines),
            estimators: [], profiles: [], machine: .current(concurrency: 1),
            times: .init(started: ISO8601DateFormatter().string(from: started), finished: ISO8601DateFormatter().string(from: Date()),
                         wallSeconds: Date().timeIntervalSince(started)),
            counts: counts)
        let manifestBytes = try manifest.encoded()
        try Data(manifestBytes).write(to: URL(fileURLWithPath: folder + "/manifest.json"))
        htmlReport = HTMLReport(manifest: manifest, scoreReport: report)
        let htmlBytes = Array(htmlReport!.render().utf8)
        try Data(htmlBytes).write(to: URL(fileURLWithPath: folder + "/report.html"))
        let archive = try ResultArchiveWriter(finalPath: folder + "/results.tar.zst", level: 1,
                                              workers: ProcessInfo.processInfo.activeProcessorCount)
        try archive.add(name: "manifest.json", contents: manifestBytes)
        try archive.add(name: "summary.csv", contents: summaryBytes)
        try archive.add(name: "per_species.csv", contents: speciesBytes)
        try archive.add(name: "report.html", contents: htmlBytes)
        try archive.addFile(name: "curves.csv", fromPath: folder + "/curves.csv")
        try archive.commit()
        let t3 = MonotonicClock.nanoseconds()
        return ScoreOutcome(report: report, archivePath: folder + "/results.tar.zst", parseSeconds: Double(t1 - t0) / 1e9,
                            metricSeconds: Double(t2 - t1) / 1e9, writeSeconds: Double(t3 - t2) / 1e9)
    }

    /// FNV-1a 64 over every score's bit pattern and species index: equal for the same score set.
    static func fingerprint(_ set: ScoreSet) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for i in 0..<set.count {
            for value in [set.scores[i].bitPattern, UInt64(bitPattern: Int64(set.speciesIndex[i]))] {
                var v = value
                for _ in 0..<8 {
                    hash = (hash ^ (v & 0xFF)) &* 0x0000_0100_0000_01B3
                    v >>= 8
                }
            }
        }
        for byte in set.speciesNames.joined(separator: ",").utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return String(hash, radix: 16).leftPadded(to: 16)
    }
}

extension EvalRunner {
    public struct ArchiveOutcome: Sendable {
        public var results: [ProfileResult]
        public var folder: String
        public var archivePath: String
        public var table: MeasurementTable
    }

    /// Re-decides profiles on the measurements stored in a result archive: reads `samples.csv`,
    /// evaluates, writes the reports and a new archive (kind `eval`). No image is opened and no
    /// estimator runs, so it takes seconds whatever the estimators cost.
    public func evaluateArchive(_ archivePath: String, profiles: [Profile], outputFolder: String, commandLine: [String]) throws -> ArchiveOutcome {
        let started = Date()
        let archive = try ResultArchiveReader(path: archivePath)
        guard archive.contains("samples.csv"), archive.contains("manifest.json") else {
            throw EvaluationError("\(archivePath): not a padbench bench archive (no samples.csv or manifest.json)")
        }
        let previous = try RunManifest.decode(from: archive.entry(named: "manifest.json"))
        let samplesBytes = try archive.entry(named: "samples.csv")
        let table = try MeasurementTable(samplesCSV: samplesBytes, path: archivePath + ":samples.csv")
        try ProfileEvaluator.checkCalibration(profiles, labels: table.labels, splits: table.splits)
        let missing = profiles.flatMap { p in p.requiredOutputs.filter { table.columnIndex(of: $0) == nil }.map { "\(p.name): \($0)" } }
        try FileManager.default.createDirectory(atPath: outputFolder, withIntermediateDirectories: true)
        try Data(samplesBytes).write(to: URL(fileURLWithPath: outputFolder + "/samples.csv"))
        let decisions = try CSVWriter(path: outputFolder + "/decisions.csv")
        let results = try ProfileEvaluator(table: table).evaluate(profiles, decisions: decisions)
        try decisions.close()
        var manifest = previous
        manifest.kind = "eval"
        manifest.tool = .init(version: ToolInfo.version, commandLine: commandLine)
        manifest.conventions = Conventions.current
        manifest.profiles = profiles.map(\.name)
        manifest.times = .init(started: ISO8601DateFormatter().string(from: started), finished: ISO8601DateFormatter().string(from: Date()),
                               wallSeconds: Date().timeIntervalSince(started))
        manifest.counts["outputs_missing_for_profiles"] = missing.count
        // The measuring run's timing stays valid: nothing was re-measured.
        var streamed = ["samples.csv", "decisions.csv"]
        if archive.contains("timing.csv") {
            try Data(try archive.entry(named: "timing.csv")).write(to: URL(fileURLWithPath: outputFolder + "/timing.csv"))
            streamed.append("timing.csv")
        }
        let path = try RunFolderWriter(folder: outputFolder).write(manifest: manifest, results: results, timing: [],
                                                                   profiles: profiles, streamedFiles: streamed)
        return ArchiveOutcome(results: results, folder: outputFolder, archivePath: path, table: table)
    }
}

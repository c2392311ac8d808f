import Foundation
import PadArchive
import PadSamples
import PadEvaluation
import PadMetrics
import PadProfiles
import PadRuns
import PadText
import PadVocabulary

/// `padbench eval`: score imported score files, or re-decide profiles on a stored archive.
/// Never runs an estimator.
///
/// ```swift
/// let report = try EvalRunner().evaluateScores(
///     EvalRunner.ScoreJob(
///         scoreFiles: ["eval.csv"], devFiles: ["dev.csv"],
///         criterion: .bpcerAtAPCER(0.01), outputFolder: "reports/e"))
/// ```
package struct EvalRunner: Sendable {
    package init() {}

    package struct ScoreJob: Sendable {
        package var scoreFiles: [String]
        package var devFiles: [String]
        package var format: ScoreFormat?
        package var polarity: ScorePolarity
        /// A fixed threshold; when nil, `criterion` chooses one (on dev when given).
        package var threshold: Double?
        package var criterion: ThresholdCriterion
        /// Which attack rate the EER balances (`--eer-rule`).
        package var eerRule: EERRule = .apcerMax
        package var outputFolder: String
        /// Replace a complete run under `outputFolder` (otherwise refused).
        package var force: Bool
        package var commandLine: [String]
        /// How frame scores combine into a presentation's (`--aggregate`, nil = mean).
        package var aggregate: FrameAggregate?
        /// PAI species -> attack potential level (`--attack-potential`).
        package var attackPotential: [String: String]?
        /// A face comparator's scores (`--comparisons`): whole-system rates in `vulnerability.csv`.
        package var comparisons: String?
        /// How the comparator's threshold is set (`--comparator-fmr`, `--comparator-threshold`).
        package var comparatorThreshold: ComparatorThreshold = .fmr(EvalRunner.defaultComparatorFMR)

        package init(
            scoreFiles: [String], devFiles: [String] = [], format: ScoreFormat? = nil,
            polarity: ScorePolarity = .bonafideHigh, threshold: Double? = nil, criterion: ThresholdCriterion = .eer,
            outputFolder: String, force: Bool = false, commandLine: [String] = []
        ) {
            self.scoreFiles = scoreFiles
            self.devFiles = devFiles
            self.format = format
            self.polarity = polarity
            self.threshold = threshold
            self.criterion = criterion
            self.outputFolder = outputFolder
            self.force = force
            self.commandLine = commandLine
        }
    }

    /// What `eval --scores` produced: the same results, folder and archive as any other run.
    package struct ScoreOutcome: Sendable {
        package var results: [ProfileResult]
        package var folder: String
        package var archivePath: String
        package var table: MeasurementTable
        package var parseSeconds: Double
        package var metricSeconds: Double
        package var writeSeconds: Double
    }

    /// The comparator's FMR target when none is given: 1 in 1,000 zero-effort impostor comparisons
    /// (a vulnerability analysis fixes the comparator at an operating point on zero-effort
    /// impostors; an FMR of 0.001 can be reached with a thousand or more impostor comparisons).
    package static let defaultComparatorFMR = 0.001

    /// The output a score file becomes, and the profile that decides on it.
    package static let scoreOutput = "scores.score"
    package static let scoreProfileName = "scores"

    /// Scores become a run like any other: a measurement table with one output (`scores.score`,
    /// bona-fide-high), decided by one profile `scores` whose threshold is fixed or calibrated by
    /// the criterion on dev (a `--dev` file, or the rows whose split column says dev), and
    /// reported on eval (or on all rows, with the threshold chosen on them, when there is no dev).
    package func evaluateScores(_ job: ScoreJob) throws -> ScoreOutcome {
        let t0 = MonotonicClock.nanoseconds()
        // Written into the run's work folder, renamed into place when complete, removed on an error.
        let pipeline = try RunPipeline(
            final: job.outputFolder, force: job.force,
            inputs: job.scoreFiles + job.devFiles + (job.comparisons.map { [$0] } ?? []), startNanoseconds: t0)
        let reader = ScoreFileReader(polarity: job.polarity)
        let evalScores = try reader.read(job.scoreFiles, format: job.format)
        let devScores = job.devFiles.isEmpty ? nil : try reader.read(job.devFiles, format: job.format)
        let table = try Self.table(eval: evalScores, dev: devScores)
        // A generic file's group.* / attr.* columns: labels.csv, and fairness / attributes as in bench.
        try RunLabels.write(
            RunLabels.of(eval: evalScores, dev: devScores), table: table, folder: pipeline.folder.work)
        if let path = job.comparisons {
            try RunVulnerability.write(ComparisonScores.read(path: path), folder: pipeline.folder.work)
        }
        let t1 = MonotonicClock.nanoseconds()

        let profile = try Self.scoreProfile(job, files: job.scoreFiles)
        var evaluator = ProfileEvaluator(table: table, choosesOnReportedSetWithoutCalibrationSplit: true)
        // One profile: its sorted scores are kept for outputs.csv (not sorted twice).
        evaluator.keepsSortedScores = true
        evaluator.reportsDevWithFixedThresholds = true
        evaluator.eerRule = job.eerRule
        // samples.csv depends on the table alone: written on another core while the profile is decided.
        let writer = pipeline.writer
        var decided = try pipeline.decide(
            [profile], with: evaluator,
            samples: .background {
                let member = try writer.member(RunFile.samples.name, rows: table.count)
                try SamplesSchema.writeScores(table, to: CSVWriter(member: member))
                return try member.finished()
            })
        if job.polarity == .attackHigh { decided.results = Self.shownAttackHigh(decided.results) }
        let t2 = MonotonicClock.nanoseconds()

        let run = try pipeline.finish(decided, table: table, profiles: [profile]) { times in
            var manifest = Self.manifest(job, eval: evalScores, dev: devScores, table: table, times: times)
            manifest.attackPotential = job.attackPotential
            return manifest
        }
        let t3 = MonotonicClock.nanoseconds()
        // The files' ten million ids and presentations and the frame-level curve are freed on
        // another thread: the command prints and exits without waiting for it.
        let frameResults = decided.results
        decided.results = []
        releasedInBackground((consume evalScores, consume devScores, consume frameResults))
        return ScoreOutcome(
            results: run.results, folder: run.folder, archivePath: run.archivePath, table: table,
            parseSeconds: Double(t1 - t0) / 1e9, metricSeconds: Double(t2 - t1) / 1e9,
            writeSeconds: Double(t3 - t2) / 1e9)
    }

    /// Attack-high files get their thresholds shown in the file's polarity.
    static func shownAttackHigh(_ results: [ProfileResult]) -> [ProfileResult] {
        results.map { result in
            var result = result
            result.thresholdSign = -1
            result.notes.append(.attackHighScores)
            return result
        }
    }

    /// The manifest of a score run: the files as the dataset, one `scores` estimator, counts.
    static func manifest(
        _ job: ScoreJob, eval evalScores: ImportedScores, dev devScores: ImportedScores?, table: MeasurementTable,
        times: RunManifest.Times
    ) -> RunManifest {
        var conventions = Conventions.current
        conventions["score_format"] = evalScores.format.rawValue
        conventions["score_polarity_in_file"] = job.polarity.rawValue
        conventions["eer_attacks"] =
            job.eerRule == .pooled
            ? "pooled: all attacks as one class against bona fide (bob.pad.base)"
            : "apcer-max: the worst species against bona fide (ISO/IEC 30107-3)"
        var counts = RunPipeline.counts(table)
        counts["scores"] = evalScores.lines
        if let devScores { counts["dev_scores"] = devScores.lines }
        let files = (job.scoreFiles + job.devFiles).joined(separator: ",")
        var manifest = RunManifest(
            kind: "eval",
            tool: .init(version: ToolInfo.version, commandLine: job.commandLine),
            conventions: conventions,
            dataset: .init(
                name: (job.scoreFiles[0] as NSString).lastPathComponent, path: files,
                layout: "scores:\(evalScores.format.rawValue)", fingerprint: "", samples: table.count),
            estimators: [
                .init(
                    name: "scores", version: "import", parameters: ["files": files],
                    outputs: [
                        OutputDescriptor(
                            name: Self.scoreOutput, unit: "", minimum: -.infinity, maximum: .infinity,
                            direction: .higherIsBetter, summary: "")
                    ],
                    coldStartNanoseconds: 0)
            ],
            profiles: [scoreProfileName], machine: .current(concurrency: 1), times: times, counts: counts)
        manifest.frameAggregate = job.aggregate
        if job.comparisons != nil { manifest.comparatorThreshold = job.comparatorThreshold }
        return manifest
    }

    /// One table from the score files: rows of `--dev` files are `dev` and the others `eval`;
    /// without `--dev`, a generic file's split column is read (dev, eval, train; `test` is eval);
    /// otherwise every row is in no split. NaN or empty scores are failures (`no_score`). Ids must
    /// be unique within the eval files and within the dev files (bob's `test_label`s are per
    /// split, so a dev file may reuse the eval file's). Subjects (a generic `subject` column, bob's
    /// `real_id` of bona fide rows) give score runs the subject-clustered intervals.
    static func table(eval: ImportedScores, dev: ImportedScores?) throws -> MeasurementTable {
        var all = eval
        if let dev {
            if !eval.presentations.isEmpty || !dev.presentations.isEmpty {
                all.presentations =
                    (eval.presentations.isEmpty ? eval.ids : eval.presentations)
                    + (dev.presentations.isEmpty ? dev.ids : dev.presentations)
            }
            all.ids += dev.ids
            all.lineNumbers += dev.lineNumbers
            all.fileIndex += dev.fileIndex.map { $0 + UInt16(eval.files.count) }
            all.files += dev.files
        }
        // Three walks of ten million rows on two cores: the ids' check then the rows on one, the
        // presentations' interning (a dictionary of a million names) on the other. Errors come in
        // the order they did one after the other: ids, rows, then presentations.
        let names = all.presentations
        let (rows, presentations) = try Parallel.both(
            {
                try eval.checkUniqueIds()
                try dev?.checkUniqueIds()
                var rows = ScoreRows(capacity: eval.set.count + (dev?.set.count ?? 0))
                try rows.add(eval, split: dev == nil ? nil : .eval)
                if let dev { try rows.add(dev, split: .dev) }
                return rows
            },
            { names.isEmpty ? nil : InternedStrings(names) })
        // One file: its own species list and codes are the merged ones (no second ten-million-row
        // pass to map them onto themselves, nor a score set rebuilt equal to its own).
        let (speciesNames, speciesIndex) =
            dev == nil
            ? (eval.set.speciesNames, eval.set.speciesIndex) : mergedSpecies([eval] + (dev.map { [$0] } ?? []))
        if let presentations {
            if dev != nil {
                all.set = ScoreSet(speciesNames: speciesNames)
                all.set.append(scores: rows.values, speciesIndex: speciesIndex)
            }
            // One label, species and split per presentation, checked by the interned numbers.
            let splits = rows.splits
            try all.checkPresentations(
                codes: presentations.codes, count: presentations.names.count, sameSplit: { splits[$0] == splits[$1] },
                split: { splits[$0].rawValue })
        }
        return MeasurementTable(
            columns: [scoreOutput], ids: all.ids, splits: rows.splits, statuses: rows.statuses, values: [rows.values],
            speciesIndex: speciesIndex, speciesNames: speciesNames, subjects: subjects(eval: eval, dev: dev),
            presentations: presentations)
    }

    /// Every row's subject ("" unknown), eval rows then dev rows; nil when no file names any.
    static func subjects(eval: ImportedScores, dev: ImportedScores?) -> [String]? {
        let files = [eval] + (dev.map { [$0] } ?? [])
        guard files.contains(where: { $0.subjects.contains { !$0.isEmpty } }) else { return nil }
        return files.flatMap { $0.subjects.isEmpty ? Array(repeating: "", count: $0.set.count) : $0.subjects }
    }

    /// One species list for several files (in order of first appearance) and each row's index
    /// into it (-1 for bona fide).
    static func mergedSpecies(_ files: [ImportedScores]) -> (names: [String], index: [Int32]) {
        var speciesNames: [String] = [], speciesIndex: [Int32] = []
        speciesIndex.reserveCapacity(files.reduce(0) { $0 + $1.set.count })
        var lookup: [String: Int32] = [:]
        for scores in files {
            let mapping = scores.set.speciesNames.map { name -> Int32 in
                if let known = lookup[name] { return known }
                lookup[name] = Int32(speciesNames.count)
                speciesNames.append(name)
                return Int32(speciesNames.count - 1)
            }
            for s in scores.set.speciesIndex { speciesIndex.append(s < 0 ? -1 : mapping[Int(s)]) }
        }
        return (speciesNames, speciesIndex)
    }

    /// The per-row columns of a score table, file after file. Statuses go straight into their
    /// column and labels are not built (the table's species codes give them): arrays of ten
    /// million enum values with strings were hundreds of megabytes built only to be converted.
    struct ScoreRows {
        var splits: [Split] = [], statuses = StatusColumn(), values: [Double] = []

        init(capacity: Int) {
            splits.reserveCapacity(capacity)
            statuses.reserveCapacity(capacity)
            values.reserveCapacity(capacity)
        }

        /// The rows of one file: split `fixed`, or the file's split column, or none.
        mutating func add(_ scores: ImportedScores, split fixed: Split?) throws {
            let set = scores.set
            if fixed != nil || scores.splits.isEmpty {
                splits.append(contentsOf: repeatElement(fixed ?? .none, count: set.count))
            } else {
                var parsedSplits: [String: Split] = [:]
                for i in 0..<set.count { splits.append(try Self.split(of: scores, row: i, cache: &parsedSplits)) }
            }
            statuses.append(okUnlessNaN: set.scores, failure: .failed(code: .noScore, message: "no score in the file"))
            values.append(contentsOf: set.scores)
        }

        /// The split column of a row (parsed once per distinct text).
        static func split(of scores: ImportedScores, row i: Int, cache: inout [String: Split]) throws -> Split {
            let text = scores.splits[i]
            if let known = cache[text] { return known }
            guard let parsed = Split(parsing: text.trimmingCharacters(in: .whitespaces)) else {
                throw ScoreFileError(
                    file: scores.files[Int(scores.fileIndex[i])], line: Int(scores.lineNumbers[i]),
                    "split '\(ScoreFileError.quoted(text))' is not train, dev or eval")
            }
            cache[text] = parsed
            return parsed
        }
    }

    /// The profile `scores`: accept when scores.score >= t, t fixed or calibrated by the criterion.
    static func scoreProfile(_ job: ScoreJob, files: [String]) throws -> Profile {
        let description = "Scores of \(files.joined(separator: ", ")): accepted as bona fide when score >= t"
        let gateYAML = scoreGate(
            threshold: job.threshold.map { job.polarity == .attackHigh ? -$0 : $0 }, criterion: job.criterion)
        let yaml = """
            name: \(scoreProfileName)
            description: \(Self.yamlQuoted(description))
            source: padbench eval --scores
            score: \(scoreOutput)
            gates:
              - output: \(scoreOutput)
            \(gateYAML)
                code: SCORE
                message: score below the threshold

            """
        return try generated(yaml, origin: "eval --scores")
    }
}

extension EvalRunner {
    /// Re-decides profiles on the measurements stored in a result archive: reads `samples.csv`,
    /// evaluates, writes the reports and a new archive (kind `eval`). No image is opened and no
    /// estimator runs, so it takes seconds whatever the estimators cost.
    /// `choosesOnReportedSetWithoutCalibrationSplit` as for score files (`--score OUTPUT`); with
    /// `requireOutputs`, an output no profile can read is an error before anything is written.
    /// With `outputScore` (`--score OUTPUT`) the one profile is that output's, built here once
    /// its direction is known (``direction(of:table:manifest:)``); `profiles` is then ignored.
    package func evaluateArchive(
        _ archivePath: String, profiles: [Profile], outputFolder: String, force: Bool = false, commandLine: [String],
        strict: Bool = false, choosesOnReportedSetWithoutCalibrationSplit: Bool = false,
        requireOutputs: Bool = false, outputScore: OutputScoreJob? = nil, aggregate: FrameAggregate? = nil,
        attackPotential: [String: String]? = nil, comparisons: String? = nil,
        comparatorThreshold: ComparatorThreshold = .fmr(EvalRunner.defaultComparatorFMR)
    ) throws -> RunOutcome {
        var requested = try outputScore.map { [try Self.outputProfile($0)] } ?? profiles
        var directionNote: ResultNote?
        // Written into the run's work folder (the spill files too), swapped into place when complete,
        // removed on an error; the archive read may not lie in the folder it would replace.
        let pipeline = try RunPipeline(
            final: outputFolder, force: force,
            inputs: [archivePath] + Profile.files(profiles) + (comparisons.map { [$0] } ?? []))
        let archive = try ResultArchiveReader(path: archivePath)
        guard archive.contains(RunFile.samples.name), archive.contains(RunFile.manifest.name) else {
            throw EvaluationError("\(archivePath): not a padbench run archive (no samples.csv or manifest.json)")
        }
        // Checked, not trusted: schema, row count and sample fingerprint against the manifest.
        let previous = try StoredRun(path: archivePath).manifest
        let table = try Self.storedTable(
            archive, path: archivePath, manifest: previous, profiles: requested, scratch: pipeline.folder.scratch)
        if let outputScore {
            let directed = try Self.directedProfile(outputScore, table: table, manifest: previous)
            (requested, directionNote) = ([directed.profile], directed.note)
        }
        // The stored outputs are what profiles may use (checked before anything is written).
        let profiles = try ProfileCheck.check(
            requested, runOutputs: ProfileCheck.descriptors(for: table.keys), strict: strict)
        let missing = try Self.missingOutputs(
            of: profiles, in: table, archivePath: archivePath, refused: requireOutputs)
        // samples.csv is copied as stored, compressed for the new archive as it is written.
        let samples = try pipeline.writer.member(RunFile.samples.name, rows: table.count)
        try archive.streamEntry(named: RunFile.samples.name) { try samples.write($0) }
        try samples.close()
        let evaluator = ProfileEvaluator(
            table: table, choosesOnReportedSetWithoutCalibrationSplit: choosesOnReportedSetWithoutCalibrationSplit)
        var decided = try pipeline.decide(profiles, with: evaluator, samples: .compressed(try samples.finished()))
        if let directionNote {
            decided.results = decided.results.map { result in
                var result = result
                result.notes.insert(directionNote, at: 0)
                return result
            }
        }
        // The measuring run's timing stays valid: nothing was re-measured.
        let timingCopied = try Self.copyTiming(archive, to: pipeline.folder.work)
        // So are its labels (archived when the folder has them) and comparator scores, unless given.
        try RunLabels.copy(from: archive, to: pipeline.folder.work)
        let comparatorRule = try Self.comparisons(
            comparisons, rule: comparatorThreshold, stored: archive, previous: previous, folder: pipeline.folder.work)
        return try pipeline.finish(decided, table: table, profiles: profiles, streamed: timingCopied) { times in
            var manifest = Self.reDecidedManifest(
                previous, profiles: profiles, commandLine: commandLine, times: times, missingOutputs: missing)
            if let aggregate { manifest.frameAggregate = aggregate }
            if let attackPotential { manifest.attackPotential = attackPotential }
            manifest.comparatorThreshold = comparatorRule
            return manifest
        }
    }

    /// The comparator scores of a re-decided run: the file given (`--comparisons`) with its rule,
    /// else the stored run's `comparisons.csv` with the rule its manifest recorded, else none.
    static func comparisons(
        _ path: String?, rule: ComparatorThreshold, stored archive: ResultArchiveReader, previous: RunManifest,
        folder: String
    ) throws -> ComparatorThreshold? {
        if let path {
            try RunVulnerability.write(ComparisonScores.read(path: path), folder: folder)
            return rule
        }
        guard archive.contains(RunFile.comparisons.name), let stored = previous.comparatorThreshold else { return nil }
        try Data(try archive.entry(named: RunFile.comparisons.name)).write(
            to: URL(fileURLWithPath: folder + "/" + RunFile.comparisons.name))
        return stored
    }

    /// The stored run's `timing.csv` copied into the work folder (`["timing.csv"]`), or `[]` when
    /// it has none.
    static func copyTiming(_ archive: ResultArchiveReader, to folder: String) throws -> [String] {
        guard archive.contains(RunFile.timing.name) else { return [] }
        try Data(try archive.entry(named: RunFile.timing.name)).write(
            to: URL(fileURLWithPath: folder + "/" + RunFile.timing.name))
        return [RunFile.timing.name]
    }
}

extension EvalRunner {
    /// The gates' outputs that are not in the stored run, as `profile: output`; with `refused`, the
    /// first is an error naming the run's outputs.
    static func missingOutputs(
        of profiles: [Profile], in table: MeasurementTable, archivePath: String, refused: Bool
    ) throws -> [String] {
        if refused,
            let first = profiles.flatMap({ $0.requiredOutputs }).first(where: { table.columnIndex(of: $0) == nil })
        {
            let shown =
                table.columns.prefix(8).joined(separator: ", ")
                + (table.columns.count > 8 ? ", ... (\(table.columns.count) in all)" : "")
            throw EvaluationError(
                "\(archivePath): output '\(TextBytes.quote(first, limit: 100))' is not in this run; its outputs: \(shown)"
            )
        }
        return profiles.flatMap { p in
            p.requiredOutputs.filter { table.columnIndex(of: $0) == nil }.map { "\(p.name): \($0)" }
        }
    }

    /// The stored run's manifest, now of kind `eval`: this tool, today's conventions, the profiles
    /// decided and how many of their outputs the run lacks; the dataset and estimators stay.
    static func reDecidedManifest(
        _ previous: RunManifest, profiles: [Profile], commandLine: [String], times: RunManifest.Times,
        missingOutputs: [String]
    ) -> RunManifest {
        var manifest = previous
        manifest.kind = "eval"
        manifest.tool = .init(version: ToolInfo.version, commandLine: commandLine)
        manifest.conventions = Conventions.current
        manifest.profiles = profiles.map(\.name)
        manifest.times = times
        manifest.counts["outputs_missing_for_profiles"] = missingOutputs.count
        return manifest
    }

    /// The measurement table of a stored run, read from its `samples.csv` as it decompresses and
    /// checked against the manifest (``StoredSamplesReader``). In memory only the outputs the
    /// profiles read; the others spill to disk as in `bench` (``BenchRunner/table(keys:profiles:samples:scratch:)``).
    static func storedTable(
        _ archive: ResultArchiveReader, path: String, manifest: RunManifest, profiles: [Profile], scratch: String
    ) throws -> MeasurementTable {
        var table: MeasurementTable?
        var columns: SamplesSchema?
        var outputs: [Int] = []
        let member = path + ":samples.csv"
        try StoredSamplesReader(archive: archive, path: path, manifest: manifest).read(
            header: { found in
                columns = found
                outputs = try found.outputColumns(path: member)
                let keys = try MeasurementTable.layout(manifest.columns, headers: found.outputNames, path: path)
                table = try BenchRunner.table(keys: keys, profiles: profiles, scratch: scratch)
                // The manifest's sample count (checked against the rows at the end; bounded by the
                // file's size meanwhile): no growth slack.
                table!.reserveCapacity(
                    min(max(0, manifest.dataset.samples), (archive.size(of: RunFile.samples.name) ?? 0) / 8))
            },
            row: { record in
                try table!.appendStored(
                    record.fields, line: record.line, columns: columns!, outputs: outputs, path: member)
            })
        return table!
    }
}

/// Releases `value` on another thread. Freeing ten million rows (strings, curves) takes a
/// quarter of a second that a command need not wait for before it prints and exits; when the
/// process ends first, the memory goes back with it. The caller must hold no other reference
/// (pass it with `consume`), or its own release may be the last.
package func releasedInBackground<T: Sendable>(_ value: consuming T) {
    let value = value
    // Never waited for: the work item holds the last reference until it runs.
    _ = BackgroundValue { withExtendedLifetime(value) {} }
}

import PadArchive
import PadEvaluation
import PadMetrics
import PadProfiles
import PadReport
import PadVocabulary

extension StoredRun {
    /// One profile's reported samples with their swept score, recomputed from the archive.
    package struct SweptScores: Sendable {
        /// Sample (or, in runs of several-frame presentations, presentation) ids.
        package var ids: [String]
        package var input: SubjectBootstrap.Input
    }

    /// Every named profile's swept score per sample of its reported split, recomputed from
    /// `samples.csv` and the archive's `profiles/<name>.yaml`, at the presentation level when the
    /// run counts presentations (``PresentationLevel``): `decisions.csv` holds no scores. Checked,
    /// not trusted: the recomputed EER must be the one `results.json` reports (a run decided with
    /// the score-file rule of choosing on the reported set is tried both ways), else
    /// ``StoredRunMismatch``. A profile without a swept score is absent from the result.
    /// `split` (nil = each profile's reported split; `all` = every sample) and `frames` (true =
    /// the frame level of a run that counts presentations) serve `padbench plot`.
    package func sweptScores(profiles names: [String], split: String? = nil, frames: Bool = false) throws
        -> [String: SweptScores]
    {
        guard !names.isEmpty else { return [:] }
        var table = try MeasurementTable(
            samplesCSV: archive.entry(named: RunFile.samples.name), path: path + ":samples.csv")
        // Each profile reads its own variant's columns: the manifest's layout says which they are.
        try table.adopt(layout: manifest.columns, path: path + ":manifest.json")
        let aggregate = manifest.effectiveFrameAggregate
        // The frame level of a run that counts presentations has its own results.
        let reference =
            frames && contains(RunFile.results.inFrames)
            ? try RunSummary.decode(
                from: archive.entry(named: RunFile.results.inFrames), path: path + ":frames/results.json") : summary
        var result: [String: SweptScores] = [:]
        for name in names {
            guard let stored = reference.profiles.first(where: { $0.name == name }), stored.score != nil else {
                continue
            }
            let yaml = String(decoding: try archive.entry(named: RunFile.profile(name)), as: UTF8.self)
            let profile = try ProfileLoader().load(yaml: yaml, file: path + ":" + RunFile.profile(name))
            var found: SweptScores?
            var swept = true
            for onReported in [false, true] where found == nil && swept {
                let (rows, decided) = try decide(
                    profile, table, onReported: onReported, aggregate: frames ? nil : aggregate)
                // The run swept nothing (its score was not measured and had no approximation), and
                // neither does the recomputation: the profile has no swept scores, as in the run.
                if decided.reported.scoreMetrics == nil && stored.reported.eer == nil {
                    swept = false
                    continue
                }
                guard let input = SubjectBootstrap.Input(decided, table: rows, split: split), input.scores != nil,
                    Self.sameEER(decided.reported.scoreMetrics?.eer.value, stored.reported.eer),
                    Self.sameFusion(decided.fusion, stored.fusion)
                else { continue }
                found = SweptScores(ids: input.rows.map { rows.ids[$0] }, input: input)
            }
            guard swept else { continue }
            guard let found else {
                throw StoredRunMismatch(
                    "\(path): profile \(name): the EER recomputed from samples.csv is not the one results.json "
                        + "reports (\(stored.reported.eer.map { "\($0)" } ?? "none"))"
                        + (stored.fusion == nil ? "" : ", or its fused score's weights differ")
                        + "; the archive was edited")
            }
            result[name] = found
        }
        return result
    }

    /// The profile decided on the table, per presentation when the run counts presentations.
    /// nil `aggregate` keeps the frame level.
    func decide(_ profile: Profile, _ table: MeasurementTable, onReported: Bool, aggregate: FrameAggregate?) throws
        -> (MeasurementTable, ProfileResult)
    {
        let frames = try ProfileEvaluator(table: table, choosesOnReportedSetWithoutCalibrationSplit: onReported)
            .evaluate([profile])[0]
        guard let aggregate, contains(PresentationLevel.decisionsMember) else { return (table, frames) }
        let level = try PresentationLevel.evaluate(
            table, frameResults: [frames], aggregate: aggregate, choosesOnReportedSetWithoutCalibrationSplit: onReported
        )
        return (level.tables[0], level.results[0])
    }

    /// The fusion trained again equals the one results.json records (the numbers to 1e-12
    /// relative: JSON text need not round-trip the last bit).
    static func sameFusion(_ recomputed: FusionOutcome?, _ stored: FusionOutcome?) -> Bool {
        guard let recomputed, let stored else { return recomputed == nil && stored == nil }
        guard let a = recomputed.trained, let b = stored.trained else {
            return recomputed.trained == nil && stored.trained == nil && recomputed.split == stored.split
        }
        func close(_ x: [Double], _ y: [Double]) -> Bool {
            x.count == y.count && zip(x, y).allSatisfy { abs($0 - $1) <= 1e-12 * max(1, abs($1)) }
        }
        return recomputed.split == stored.split && a.method == b.method && a.outputNames == b.outputNames
            && close(a.weights + [a.intercept], b.weights + [b.intercept])
            && close(a.normalisations.map(\.mean), b.normalisations.map(\.mean))
            && close(a.normalisations.map(\.scale), b.normalisations.map(\.scale))
    }

    static func sameEER(_ recomputed: Double?, _ stored: Double?) -> Bool {
        let r = recomputed.flatMap { $0.isNaN ? nil : $0 }
        switch (r, stored) {
        case (nil, nil): return true
        case (let a?, let b?): return abs(a - b) <= 1e-12 * max(1, abs(b))
        default: return false
        }
    }
}

extension PairedBootstrap.Input {
    /// The base run's samples, each with its score in both runs (nil where the new run did not
    /// process it; samples only the new run processed are added with nil on the base side).
    /// Species and subjects are the base run's (both runs have the same samples: equal dataset
    /// fingerprints).
    package init(base: StoredRun.SweptScores, new: StoredRun.SweptScores) {
        let b = base.input, n = new.input
        let newRow = Dictionary(new.ids.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        var newScores = [Double?](repeating: nil, count: base.ids.count)
        var seen = Set<String>()
        for (k, id) in base.ids.enumerated() {
            seen.insert(id)
            if let r = newRow[id] { newScores[k] = n.scores?[r] }
        }
        self.init(
            species: b.species, subjects: b.subjects, speciesNames: b.speciesNames,
            base: b.scores?.map { Optional($0) } ?? [], new: newScores)
        // New-only samples carry species names of the new run: mapped onto the base's list.
        for (r, id) in new.ids.enumerated() where !seen.contains(id) {
            let s = n.species[r]
            species.append(s < 0 ? -1 : Self.speciesIndex(n.speciesNames[Int(s)], in: &speciesNames))
            subjects.append(n.subjects[r])
            self.base.append(nil)
            self.new.append(n.scores?[r])
        }
    }

    static func speciesIndex(_ name: String, in names: inout [String]) -> Int32 {
        if let k = names.firstIndex(of: name) { return Int32(k) }
        names.append(name)
        return Int32(names.count - 1)
    }
}

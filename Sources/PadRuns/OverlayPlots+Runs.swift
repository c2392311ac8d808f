import PadMetrics
import PadReport

extension StoredRun.SweptScores {
    /// The exact error curve of these scores (NaN = rejected at every threshold); nil when a
    /// class is missing.
    package var curve: ErrorCurve? {
        guard let scores = input.scores else { return nil }
        var set = ScoreSet()
        set.reserveCapacity(scores.count)
        for name in input.speciesNames.sorted() { _ = set.index(ofSpecies: name) }
        for (k, score) in scores.enumerated() {
            let s = input.species[k]
            let species = s < 0 ? nil : input.speciesNames[Int(s)]
            if score.isNaN {
                set.appendRejectedAtEveryThreshold(species: species)
            } else {
                set.append(score: score, species: species)
            }
        }
        return try? ErrorCurve(set)
    }
}

extension OverlayPlots {
    /// What `padbench plot` draws: of each run, each chosen profile with a swept score, on `split`
    /// (nil = each profile's reported split; `all`, `dev`, `eval`, `train`) at the presentation
    /// level (or `frames`). A curve's label is the run's label (its folder name unless given),
    /// followed by the profile when several profiles are drawn.
    package static func runs(
        _ runs: [(label: String, run: StoredRun)], profiles: [String]?, split: String?, frames: Bool
    ) throws -> OverlayPlots {
        var picked: [(String, String, ErrorCurve)] = []
        for (label, run) in runs {
            let names = run.summary.profiles.filter { $0.score != nil }.map(\.name).filter {
                profiles?.contains($0) ?? true
            }
            let scores = try run.sweptScores(profiles: names, split: split, frames: frames)
            for name in names {
                guard let curve = scores[name]?.curve else { continue }
                picked.append((label, name, curve))
            }
        }
        let severalProfiles = Set(picked.map(\.1)).count > 1
        return OverlayPlots(
            curves: picked.map { Curve(label: severalProfiles ? "\($0.0) \($0.1)" : $0.0, curve: $0.2) })
    }
}

import PadReport

extension FoldSummary {
    /// The fold runs' statistics (``FoldSummary/init(summaries:)``), each run verified first
    /// (``StoredRun/verify()``); refused when fewer than two runs are given, when one run is given
    /// twice (the same dataset and outputs fingerprints and start time) or when the runs' profiles
    /// differ (``ComparisonError``).
    package init(runs: [StoredRun]) throws {
        guard runs.count >= 2 else { throw ComparisonError("give at least two fold runs") }
        var seen: [String: String] = [:]
        for run in runs {
            try run.verify()
            let m = run.manifest
            let identity = "\(m.dataset.fingerprint) \(m.dataset.outputsFingerprint ?? "") \(m.times.started)"
            if let first = seen[identity] {
                throw ComparisonError("\(run.path) is the same run as \(first); give each fold once")
            }
            seen[identity] = run.path
        }
        let byRun = runs.map { run in
            Dictionary(run.summary.profiles.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        }
        let profiles = byRun[0].keys.sorted()
        for (run, rows) in zip(runs, byRun) where Set(rows.keys) != Set(profiles) {
            throw ComparisonError("\(run.path): profiles \(rows.keys.sorted()) differ from \(profiles)")
        }
        self.init(summaries: runs.map(\.summary))
    }
}

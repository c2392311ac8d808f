extension RunComparison {
    /// What `padbench compare` prints: one row per checked metric (verdict, name, base, new, test,
    /// detail), the notes, the paired bootstrap's settings, and the verdict line.
    package var terminalText: String {
        let rows = checks.map {
            [
                $0.regressed ? "REGRESSED" : ($0.gated ? "ok" : "info"), $0.name, RateText.fixed($0.base, 4),
                RateText.fixed($0.new, 4), $0.test, $0.detail,
            ]
        }
        var lines = [TextTable(header: ["verdict", "metric", "base", "new", "test", "detail"], rows: rows).render()]
        lines += notes.map { "note: \($0)" }
        if let b = bootstrap {
            lines.append(
                "paired bootstrap: \(b.replicates) replicates, seed \(b.seed), "
                    + "one-sided \(RateText.fixed(b.confidence * 100, 1))% interval of new - base, "
                    + "gated from \(b.minimumUnits) units per stratum")
        }
        let regressions = checks.filter(\.regressed)
        lines.append(
            regressions.isEmpty
                ? "\nno regression" : "\nREGRESSION: \(regressions.map(\.name).joined(separator: ", "))")
        return lines.joined(separator: "\n")
    }
}

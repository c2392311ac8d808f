import PadArchive
import PadEvaluation
import PadMetrics
import PadVocabulary

extension MergeRunner {
    /// Refuses shards whose face comparators differ, naming the shard (before the conventions,
    /// which hold the comparator rule, are compared as a whole): `comparisons.csv` in some shards
    /// only (a shard benched without `--comparisons` would silently leave the merged run without
    /// the whole-system rates), or another threshold rule (`--comparator-fmr`,
    /// `--comparator-threshold`), or a shard with comparisons whose manifest records no rule.
    static func checkComparators(_ shards: Shards) throws {
        let carried = shards.archives.map { $0.contains(RunFile.comparisons.name) }
        if let with = carried.firstIndex(of: true), let without = carried.firstIndex(of: false) {
            throw EvaluationError(
                "\(shards.paths[without]): no \(RunFile.comparisons.name) (benched without --comparisons), but "
                    + "\(shards.paths[with]) has the face comparator's scores; bench every shard with the same "
                    + "--comparisons FILE")
        }
        guard carried.first == true else { return }
        let rules = shards.manifests.map(\.comparatorThreshold)
        for (path, rule) in zip(shards.paths, rules) where rule == nil {
            throw EvaluationError(
                "\(path): \(RunFile.comparisons.name) without the manifest's comparator_threshold: the archive was "
                    + "edited or damaged")
        }
        for (path, rule) in zip(shards.paths, rules).dropFirst() where rule != rules[0] {
            throw EvaluationError(
                "\(path): comparator threshold \(Self.option(rule!)), \(shards.paths[0]) \(Self.option(rules[0]!)); "
                    + "bench every shard with the same comparator threshold")
        }
    }

    /// The comparator rule as the command line gives it.
    static func option(_ rule: ComparatorThreshold) -> String {
        switch rule {
        case .fmr(let x): "--comparator-fmr \(CSVFormat.number(x))"
        case .fixed(let t): "--comparator-threshold \(CSVFormat.number(t))"
        }
    }

    /// The shards' `comparisons.csv`, for the merged run: nil when no shard has one. A bench
    /// keeps the whole comparison file in every shard (a comparison meets its PAD decision in
    /// whichever shard measured the presentation), so the shards of one job hold the same bytes;
    /// the merged run keeps them with the shards' rule, and its `vulnerability.csv` and `epsc.csv`
    /// are computed on the merged decisions as one run over the dataset computes them. Another
    /// file in one shard is refused, naming the shard and the first line that differs.
    /// Called after ``checkComparators(_:)``: every shard has the file, or none.
    static func sharedComparisons(_ shards: Shards) throws -> [UInt8]? {
        guard shards.archives[0].contains(RunFile.comparisons.name) else { return nil }
        let first = try shards.archives[0].entry(named: RunFile.comparisons.name)
        for (path, archive) in zip(shards.paths, shards.archives).dropFirst() {
            let bytes = try archive.entry(named: RunFile.comparisons.name)
            guard bytes != first else { continue }
            let lines = [bytes, first].map { $0.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) }
            let line = lines[0].indices.first { $0 >= lines[1].count || lines[0][$0] != lines[1][$0] } ?? lines[0].count
            throw EvaluationError(
                "\(path):\(RunFile.comparisons.name):\(line + 1): not what \(shards.paths[0]) holds (the shards "
                    + "read other comparison files); bench every shard with the same --comparisons FILE")
        }
        return first
    }
}

import PadProfiles

/// The presentations of a frame table: one row per presentation (ISO/IEC 30107-3's unit: one
/// capture attempt, one decision), built for one profile by its ``FramesRule`` so that the same
/// ``ProfileEvaluator`` counts, calibrates and sweeps presentations instead of frames.
///
/// Example: `PresentationLevelTests.bestShotIsTheFirstFramePassingEveryCaptureGate`
/// in `Tests/PadEvaluationTests/PresentationLevelTests.swift` (compiled and run by `swift test`).
/// A presentation keeps its first frame's label, species, split and subject (readers refuse a
/// presentation that spans two, ``PresentationIndex``). It failed to process when none of its
/// frames was processed (the first frame's failure), or, under `aggregate`, when none of its
/// processed frames has an assessable swept score (`no_assessable_frame`). Under `aggregate`, an
/// output the profile names in `frames.outputs` is combined by its own rule (``Profile/frameOutputs``:
/// `face.count` by `max`, so a clip with a face in 6 of 10 frames shows a face), every other by the
/// run's `aggregate`.
package enum PresentationTable {
    package static func make(
        _ table: MeasurementTable, groups: PresentationGroups, profile: Profile, compiled: CompiledProfile,
        aggregate: FrameAggregate
    ) -> MeasurementTable {
        let count = groups.count
        var values = table.columns.indices.map { _ in [Double](repeating: .nan, count: count) }
        var statuses = StatusColumn()
        statuses.reserveCapacity(count)
        let memory = table.columns.indices.filter { table.isInMemory($0) }
        let rule = profile.framesRule
        // Per column: the profile's rule for its output (`face.count@dataset_box` is `face.count`),
        // else the run's.
        let combine = table.columns.map { column in
            profile.frameOutputs[String(column.prefix { $0 != "@" })] ?? aggregate
        }
        // Reused for every presentation (a million of them: no arrays made per presentation).
        var processed: [Int32] = [], frameValues: [Double] = []
        table.statuses.withCodeNumbers { codes, ok in
            for p in 0..<count {
                let frames = groups.frames(p)
                processed.removeAll(keepingCapacity: true)
                for f in frames where codes[Int(f)] == ok { processed.append(f) }
                guard !processed.isEmpty else {
                    statuses.append(table.statuses[Int(frames.first!)])
                    continue
                }
                if case .aggregate = rule {
                    if let score = compiled.scoreColumn,
                        processed.allSatisfy({ table.values[score][Int($0)].isNaN })
                    {
                        statuses.append(
                            .failed(code: .noAssessableFrame, message: "no frame with an assessable \(profile.score!)"))
                        continue
                    }
                    for c in memory {
                        frameValues.removeAll(keepingCapacity: true)
                        for f in processed { frameValues.append(table.values[c][Int(f)]) }
                        values[c][p] = combine[c].combine(frameValues)
                    }
                } else {
                    let frame = Int(representative(of: processed, among: frames, rule: rule, table: table, compiled))
                    for c in memory { values[c][p] = table.values[c][frame] }
                }
                statuses.append(.ok)
            }
        }
        return MeasurementTable(
            columns: table.columns, ids: groups.firsts.map { table.presentation(Int($0)) },
            splits: groups.firsts.map { table.splits[Int($0)] }, statuses: statuses, values: values,
            speciesIndex: groups.firsts.map { table.speciesIndex[Int($0)] }, speciesNames: table.speciesNames,
            subjects: table.subjects.isEmpty ? nil : groups.firsts.map { table.subject(Int($0)) })
    }

    /// The frame whose values decide the presentation under `best_shot` or `k_of_n`.
    /// - best shot: the first processed frame passing every capture gate, else the first processed frame;
    /// - k of n: among the first n frames (failed ones count and are never accepted), the processed
    ///   frames passing every capture gate ranked by swept score, highest first (in frame order when
    ///   the profile has no score: then the accepted ones first); the k-th of them when there are k,
    ///   so the presentation passes a `ge` score gate at t exactly when at least k frames do; else the
    ///   first frame failing a capture gate.
    static func representative(
        of processed: [Int32], among frames: ArraySlice<Int32>, rule: FramesRule, table: MeasurementTable,
        _ compiled: CompiledProfile
    ) -> Int32 {
        let values = table.values
        func passes(_ f: Int32) -> Bool { compiled.passesCaptureGates { values[$0][Int(f)] } }
        switch rule {
        case .aggregate, .bestShot:
            return processed.first(where: passes) ?? processed[0]
        case .atLeast(let k, let n):
            let window = Set(frames.prefix(n))
            let considered = processed.filter { window.contains($0) }
            guard !considered.isEmpty else { return processed[0] }
            var candidates = considered.filter(passes)
            if let score = compiled.scoreColumn {
                // Stable: equal scores keep frame order; NaN (not assessable) last.
                candidates = candidates.enumerated().sorted { a, b in
                    let x = values[score][Int(a.element)], y = values[score][Int(b.element)]
                    if x.isNaN != y.isNaN { return !x.isNaN }
                    return x != y && !x.isNaN ? x > y : a.offset < b.offset
                }.map(\.element)
            } else {
                let accepted = candidates.filter { f in compiled.decide { values[$0][Int(f)] }.isAccepted }
                candidates = accepted + candidates.filter { !accepted.contains($0) }
            }
            if candidates.count >= k { return candidates[k - 1] }
            return considered.first { !passes($0) } ?? candidates.last ?? considered[0]
        }
    }
}

/// The frames of each presentation of a table, presentations in order of first appearance and
/// frames in frame-index order (sample order when there is none): a counting sort over the
/// presentation codes, 8 bytes a frame, so ten million frames group in a fraction of a second.
package struct PresentationGroups: Sendable {
    /// Frame rows, presentation after presentation; presentation `p` is `rows[starts[p]..<starts[p+1]]`.
    package private(set) var rows: [Int32] = []
    package private(set) var starts: [Int] = [0]
    /// Each presentation's first frame row (in sample order).
    package private(set) var firsts: [Int32] = []

    package init(_ table: MeasurementTable) {
        guard !table.presentations.isEmpty else {
            rows = (0..<Int32(table.count)).map { $0 }
            starts = Array(0...table.count)
            firsts = rows
            return
        }
        // Dense numbers in order of first appearance (the vocabulary may hold names no row has
        // any more: a row's id replaced by its presentation).
        var dense = [Int32](repeating: -1, count: table.presentations.names.count)
        var codes = table.presentations.codes
        for i in codes.indices {
            let c = Int(codes[i])
            if dense[c] < 0 {
                dense[c] = Int32(firsts.count)
                firsts.append(Int32(i))
            }
            codes[i] = dense[c]
        }
        let n = firsts.count
        var counts = [Int](repeating: 0, count: n + 1)
        for c in codes { counts[Int(c) + 1] += 1 }
        for p in 0..<n { counts[p + 1] += counts[p] }
        starts = counts
        var next = Array(counts.dropLast())
        rows = [Int32](repeating: 0, count: codes.count)
        for (i, c) in codes.enumerated() {
            rows[next[Int(c)]] = Int32(i)
            next[Int(c)] += 1
        }
        guard !table.frameIndices.isEmpty else { return }
        let frameIndex = table.frameIndices
        for p in 0..<n where starts[p + 1] - starts[p] > 1 {
            rows[starts[p]..<starts[p + 1]].sort { (frameIndex[Int($0)], $0) < (frameIndex[Int($1)], $1) }
        }
    }

    package var count: Int { firsts.count }

    /// The frame rows of presentation `p`, in frame order.
    package func frames(_ p: Int) -> ArraySlice<Int32> { rows[starts[p]..<starts[p + 1]] }
}

extension SubjectBootstrap {
    /// Each stratum's swept scores sorted once, with the cluster each came from, and each
    /// cluster's count of scores rejected at every threshold (NaN). A replicate's curve is then
    /// the stratum's sorted scores repeated as often as their cluster was drawn, read in order:
    /// no score set and no sort per replicate, where sorting every drawn sample a thousand times
    /// was most of a large run's end. The sorted classes are those ``PairedBootstrap`` gathers and
    /// sorts (in ``RadixSort``'s order, whose key sorts them here), so every replicate's curve,
    /// and so every interval, is the same.
    struct PresortedStrata: Sendable {
        /// Per stratum (0 bona fide, k the k-th species by name): its processed scores, ascending.
        let scores: [[Double]]
        /// Per stratum: the cluster of each of `scores`.
        let clusterOf: [[Int32]]
        /// Per stratum and cluster: processed scores, and scores rejected at every threshold.
        let processed: [[Int]]
        let held: [[Int]]
        let speciesNames: [String]

        init(_ strata: [[[Int]]], scores: [Double], speciesNames names: [String], order: [Int]) {
            speciesNames = order.map { names[$0] }
            var sortedScores: [[Double]] = [], clusterOf: [[Int32]] = []
            var processed: [[Int]] = [], held: [[Int]] = []
            for clusters in strata {
                var entries: [(key: UInt64, score: Double, cluster: Int32)] = []
                var processedCounts = [Int](repeating: 0, count: clusters.count)
                var heldCounts = [Int](repeating: 0, count: clusters.count)
                for (c, members) in clusters.enumerated() {
                    for i in members {
                        let value = scores[i]
                        if value.isNaN {
                            heldCounts[c] += 1
                        } else {
                            entries.append((Self.sortKey(value), value, Int32(c)))
                            processedCounts[c] += 1
                        }
                    }
                }
                entries.sort { $0.key < $1.key }
                sortedScores.append(entries.map(\.score))
                clusterOf.append(entries.map(\.cluster))
                processed.append(processedCounts)
                held.append(heldCounts)
            }
            (self.scores, self.clusterOf, self.processed, self.held) = (sortedScores, clusterOf, processed, held)
        }

        /// RadixSort's order-preserving key of a score: all bits of a negative flipped, the sign
        /// bit of a positive set (so -0 sorts before +0, as the radix sort puts them).
        static func sortKey(_ value: Double) -> UInt64 {
            let bits = value.bitPattern
            return bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
        }

        /// The curve of one replicate: `drawn[k]` the clusters of stratum k drawn (with repeats).
        func curve(_ drawn: [[Int]]) -> ErrorCurve? {
            var weights: [[Int]] = []
            var total = 0
            var held = [Int](repeating: 0, count: scores.count)
            for k in scores.indices {
                var weight = [Int](repeating: 0, count: processed[k].count)
                for c in drawn[k] {
                    weight[c] += 1
                    total += processed[k][c]
                    held[k] += self.held[k][c]
                }
                weights.append(weight)
            }
            var flat = [Double]()
            flat.reserveCapacity(total)
            var starts = [0]
            for k in scores.indices {
                let weight = weights[k], clusters = clusterOf[k]
                for (j, score) in scores[k].enumerated() {
                    for _ in 0..<weight[Int(clusters[j])] { flat.append(score) }
                }
                starts.append(flat.count)
            }
            let sorted = SortedScores(
                speciesNames: speciesNames, flat: flat, starts: starts, bonaFideFailed: 0,
                attackFailed: [Int](repeating: 0, count: speciesNames.count), heldBonaFide: held[0],
                heldAttacks: Array(held.dropFirst()))
            return try? ErrorCurve(sorted: sorted)
        }
    }
}

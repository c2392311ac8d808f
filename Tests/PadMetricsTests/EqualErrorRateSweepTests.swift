import Testing

@testable import PadMetrics

/// ``EqualErrorRate/sweep(_:)`` reads the curve through buffer pointers; it must choose the same
/// points as the plain indexed loop it replaced (kept here as the reference), tie-breaking and
/// floating-point sums included.
@Suite struct EqualErrorRateSweepTests {
    /// The loop as it was, indexing the curve's arrays.
    static func plainSweep(_ curve: ErrorCurve) -> (eer: Int, minHTER: Int) {
        var bestDifference = Double.infinity, bestPoint = 0
        var bestHTER = Double.infinity, bestHTERPoint = 0
        let speciesCount = curve.attackCounts.count
        let farDecrease = curve.attackCounts.map { $0 > 0 ? 1.0 / Double($0) : 0 }
        var far = (0..<speciesCount).map { s in
            curve.accepted(s, 0) == curve.attackCounts[s]
                ? 1.0 : Double(curve.accepted(s, 0)) / Double(max(1, curve.attackCounts[s]))
        }
        let frrIncrease = 1.0 / Double(curve.bonaFideCount)
        var frr = curve.bonaFideRejected[0] == 0 ? 0.0 : Double(curve.bonaFideRejected[0]) / Double(curve.bonaFideCount)
        var k = 0
        while k < curve.count {
            if k > 0 {
                for s in 0..<speciesCount {
                    for _ in 0..<(curve.accepted(s, k - 1) - curve.accepted(s, k)) { far[s] -= farDecrease[s] }
                }
                for _ in 0..<(curve.bonaFideRejected[k] - curve.bonaFideRejected[k - 1]) { frr += frrIncrease }
            }
            var apcer = -Double.infinity
            for s in 0..<speciesCount where curve.attackCounts[s] > 0 { apcer = max(apcer, far[s]) }
            let difference = abs(apcer - frr)
            if difference <= bestDifference {
                bestDifference = difference
                bestPoint = k
            }
            let hter = 0.5 * apcer + 0.5 * frr
            if hter <= bestHTER {
                bestHTER = hter
                bestHTERPoint = k
            }
            if curve.pooledAccepted[k] == 0 || curve.bonaFideRejected[k] == curve.bonaFideCount { break }
            k += 1
        }
        return (bestPoint, bestHTERPoint)
    }

    /// Sets with ties, -0/+0, infinities, NaN failures, samples rejected at every threshold, one
    /// to four species (one of them without processed attacks), from a fixed-seed generator.
    @Test func sweepChoosesThePlainLoopsPoints() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ n: UInt64) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % n)
        }
        let specials: [Double] = [0, -0.0, .infinity, -.infinity, .nan, 0.5, 0.5, 1]
        var checked = 0
        for round in 0..<300 {
            var set = ScoreSet()
            let species = ["print", "replay", "mask", "screen"].prefix(1 + round % 4)
            for _ in 0..<(20 + next(400)) {
                let kind = next(10)
                let score = kind < 2 ? specials[next(8)] : Double(next(round % 3 == 0 ? 12 : 1000)) / 7
                let name: String? = next(3) == 0 ? nil : species[next(UInt64(species.count))]
                if kind == 9 {
                    set.appendRejectedAtEveryThreshold(species: name)
                } else if name != "screen" || score.isNaN {
                    set.append(score: score, species: name)
                }
            }
            guard let curve = try? ErrorCurve(set), curve.hasBonaFide, curve.hasAttacks else { continue }
            let fast = EqualErrorRate.sweep(curve), plain = Self.plainSweep(curve)
            #expect(fast.eer == plain.eer && fast.minHTER == plain.minHTER, "round \(round)")
            checked += 1
        }
        #expect(checked > 200)
    }
}

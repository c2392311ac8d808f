/// OpenCV's `groupRectangles`: raw windows are partitioned into classes of similar rectangles
/// (transitive closure of "every edge within eps x the mean of the smaller sides"), each class is
/// averaged (rounded), classes with at most `minNeighbors` members are dropped, and a class
/// rectangle lying inside another (enlarged by eps) is dropped when the other has more support
/// (more than max(3, its own)) or it has fewer than 3 members.
package enum RectangleGrouping {
    package static func group(_ rects: [(Int, Int, Int, Int)], minNeighbors: Int, eps: Double) -> [Detection] {
        guard !rects.isEmpty else { return [] }
        if minNeighbors <= 0 {
            return rects.map { Detection(x: $0.0, y: $0.1, width: $0.2, height: $0.3, neighbors: 1) }
        }
        let (classes, counts) = classAverages(rects, eps: eps)
        var result: [Detection] = []
        for i in classes.indices {
            let r1 = classes[i], n1 = counts[i]
            if n1 <= minNeighbors { continue }
            var inside = false
            for j in classes.indices where j != i && counts[j] > minNeighbors {
                let r2 = classes[j], n2 = counts[j]
                let dx = Int((Float(r2.2) * Float(eps)).rounded(.toNearestOrEven)),
                    dy = Int((Float(r2.3) * Float(eps)).rounded(.toNearestOrEven))
                if r1.0 >= r2.0 - dx && r1.1 >= r2.1 - dy && r1.0 + r1.2 <= r2.0 + r2.2 + dx
                    && r1.1 + r1.3 <= r2.1 + r2.3 + dy
                    && (n2 > max(3, n1) || n1 < 3)
                {
                    inside = true
                    break
                }
            }
            if !inside { result.append(Detection(x: r1.0, y: r1.1, width: r1.2, height: r1.3, neighbors: n1)) }
        }
        return result
    }

    /// OpenCV's `partition` with its similarity predicate, then each class's average rectangle
    /// (in first-member order) and its size.
    static func classAverages(_ rects: [(Int, Int, Int, Int)], eps: Double) -> ([(Int, Int, Int, Int)], [Int]) {
        // Union-find partition.
        var parent = Array(rects.indices)
        func find(_ i: Int) -> Int {
            var i = i
            while parent[i] != i { parent[i] = parent[parent[i]]; i = parent[i] }
            return i
        }
        func similar(_ a: (Int, Int, Int, Int), _ b: (Int, Int, Int, Int)) -> Bool {
            let delta = eps * Double(min(a.2, b.2) + min(a.3, b.3)) * 0.5
            return Double(abs(a.0 - b.0)) <= delta && Double(abs(a.1 - b.1)) <= delta
                && Double(abs(a.0 + a.2 - b.0 - b.2)) <= delta && Double(abs(a.1 + a.3 - b.1 - b.3)) <= delta
        }
        for i in rects.indices {
            for j in 0..<i where similar(rects[i], rects[j]) {
                let a = find(i), b = find(j)
                if a != b { parent[a] = b }
            }
        }
        var label: [Int: Int] = [:]
        var sums: [(Int, Int, Int, Int)] = []
        var counts: [Int] = []
        for i in rects.indices {
            let root = find(i)
            let c: Int
            if let known = label[root] {
                c = known
            } else {
                c = sums.count
                label[root] = c
                sums.append((0, 0, 0, 0))
                counts.append(0)
            }
            sums[c].0 += rects[i].0; sums[c].1 += rects[i].1; sums[c].2 += rects[i].2; sums[c].3 += rects[i].3
            counts[c] += 1
        }
        // saturate_cast<int>(float * float): the average is taken in float and rounded to nearest even.
        func average(_ total: Int, _ n: Int) -> Int { Int((Float(total) * (1 / Float(n))).rounded(.toNearestOrEven)) }
        let classes = sums.indices.map { c in
            (
                average(sums[c].0, counts[c]), average(sums[c].1, counts[c]), average(sums[c].2, counts[c]),
                average(sums[c].3, counts[c])
            )
        }
        return (classes, counts)
    }
}

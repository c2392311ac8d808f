/// "Did you mean" suggestions by optimal-string-alignment (restricted Damerau-Levenshtein)
/// distance: insertions, deletions, substitutions and transpositions of adjacent characters.
package enum Suggestion {
    /// The closest candidate within a distance of max(2, a third of the name's length).
    package static func nearest(to name: String, in candidates: [String]) -> String? {
        // A name far longer than any candidate is no typo of one (and a 50 MB key would cost
        // its length times each candidate's).
        guard name.utf8.count <= 4 * (candidates.map(\.utf8.count).max() ?? 0) + 8 else { return nil }
        let limit = max(2, name.count / 3)
        var best: (String, Int)?
        for candidate in candidates.sorted() {
            let d = distance(name, candidate)
            if d <= limit, best == nil || d < best!.1 { best = (candidate, d) }
        }
        return best?.0
    }

    package static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}

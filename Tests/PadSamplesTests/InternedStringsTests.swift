import Testing

@testable import PadSamples

/// Interning an array (score files' presentations: a concrete loop with its lookup sized by the
/// number of runs) numbers strings exactly as interning any sequence of them, one at a time.
@Suite struct InternedStringsTests {
    @Test func anArrayInternsAsASequenceDoes() {
        var state: UInt64 = 7
        func next(_ n: UInt64) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % n)
        }
        let pool = ["", "v1", "v2", "Zoë", "数据", "a,b", "v10", String(repeating: "x", count: 40)]
        for round in 0..<50 {
            // Runs of repeats (frames of one video), names coming back later, empty strings.
            var strings: [String] = []
            while strings.count < round * 7 {
                let name = pool[next(UInt64(pool.count))]
                strings += Array(repeating: name, count: 1 + next(6))
            }
            let fromArray = InternedStrings(strings)
            var appended = InternedStrings()
            for string in strings { appended.append(string) }
            #expect(fromArray.codes == appended.codes && fromArray.names == appended.names, "round \(round)")
            #expect(Array(fromArray) == strings)
            #expect(InternedStrings(strings.lazy.map { $0 }).codes == fromArray.codes)
        }
        #expect(InternedStrings(["b", "b", "a", "b"]).codes == [0, 0, 1, 0])
        #expect(InternedStrings(["b", "b", "a", "b"]).names == ["b", "a"])
    }
}

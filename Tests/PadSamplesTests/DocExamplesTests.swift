import PadSamples
import Testing

/// The examples the PadSamples doc comments point to, compiled and checked here: the compact
/// columns of a sample list (strings in one buffer, repeated strings interned).
@Suite struct PadSamplesDocExamples {
    /// ``StringColumn``: a string appended reads back equal.
    @Test func stringColumn() {
        var ids = StringColumn()
        ids.append("d0001/042.jpg")
        let first = ids[0] // "d0001/042.jpg"
        #expect(first == "d0001/042.jpg" && ids.count == 1)
    }

    /// ``InternedStrings``: codes in order of first appearance.
    @Test func internedStrings() {
        var subjects = InternedStrings()
        subjects.append("s1"); subjects.append("s2"); subjects.append("s1")
        let (codes, names) = (subjects.codes, subjects.names) // [0, 1, 0] and ["s1", "s2"]
        #expect(codes == [0, 1, 0] && names == ["s1", "s2"])
    }

    /// ``SampleList``: the path is the root joined with the id, not stored per sample.
    @Test func sampleList() {
        var samples = SampleList(root: "data")
        samples.append(Sample(id: "a.jpg", path: "data/a.jpg", label: .bonaFide))
        let path = samples[0].path // "data/a.jpg" (rebuilt from the root and the id)
        #expect(path == "data/a.jpg" && samples[0].id == "a.jpg")
    }
}

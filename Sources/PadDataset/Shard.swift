import PadVocabulary
import PadSamples

/// A deterministic part `k` of `n` of a dataset: a sample belongs to shard
/// `fnv1a64(presentation) % n == k - 1`, so shards are disjoint, cover the dataset, a sample's shard
/// does not change when other samples are added or removed, and the frames of one video stay in
/// one shard (decoded in one pass; a still image's presentation is its own id).
///
/// Example: `PadDatasetDocExamples.shard`
/// in `Tests/PadDatasetTests/DocExamplesTests.swift` (compiled and run by `swift test`).
package struct Shard: Sendable, Equatable, CustomStringConvertible {
    package var index: Int
    package var count: Int

    package init(index: Int, count: Int) {
        precondition(count >= 1 && index >= 1 && index <= count)
        self.index = index
        self.count = count
    }

    package init?(parsing text: String) {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, k >= 1, k <= n else { return nil }
        self.init(index: k, count: n)
    }

    package var description: String { "\(index)/\(count)" }

    package func contains(_ sample: Sample) -> Bool {
        Int(Self.fnv1a64(sample.presentation) % UInt64(count)) == index - 1
    }

    /// FNV-1a, 64-bit (Fowler, Noll, Vo): stable across runs and platforms, unlike `Hasher`.
    package static func fnv1a64(_ text: String) -> UInt64 { FNV1a.hash(text) }
}

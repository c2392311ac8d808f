/// FNV-1a, 64-bit (Fowler, Noll, Vo): stable across runs, machines and Swift versions, unlike
/// `Hasher`, so it can name data in files (shards, fingerprints, profile hashes, duplicates).
///
/// Example: `PadDatasetDocExamples.fnv1a`
/// in `Tests/PadDatasetTests/DocExamplesTests.swift` (compiled and run by `swift test`).
public enum FNV1a {
    public static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    public static let prime: UInt64 = 0x0000_0100_0000_01B3

    public static func hash<Bytes: Sequence>(bytes: Bytes, seed: UInt64 = offsetBasis) -> UInt64
    where Bytes.Element == UInt8 {
        var hash = seed
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* prime }
        return hash
    }

    public static func hash(_ text: String, seed: UInt64 = offsetBasis) -> UInt64 { hash(bytes: text.utf8, seed: seed) }

    /// The same over bytes in memory, inlined into callers' loops (fingerprints of ten million ids).
    @inlinable
    public static func hash(_ bytes: UnsafeBufferPointer<UInt8>, seed: UInt64 = offsetBasis) -> UInt64 {
        var hash = seed
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* prime }
        return hash
    }

    /// 16 hex digits, zero-padded.
    public static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 16 - digits.count)) + digits
    }
}

extension FNV1a {
    /// The hash of one labelled sample that dataset fingerprints sum: id, label (`bonafide` /
    /// `attack`), species and split, tab-separated. Never a score or a measurement.
    public static func sampleHash(id: String, label: String, species: String, split: String) -> UInt64 {
        var h = hash(bytes: id.utf8)
        for part in [label, species, split] {
            h = (h ^ 9) &* prime
            h = hash(bytes: part.utf8, seed: h)
        }
        return (h ^ 10) &* prime
    }
}

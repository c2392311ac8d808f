/// FNV-1a, 64-bit (Fowler, Noll, Vo): stable across runs, machines and Swift versions, unlike
/// `Hasher`, so it can name data in files (shards, fingerprints, profile hashes, duplicates).
///
/// Example: `PadDatasetDocExamples.fnv1a`
/// in `Tests/PadDatasetTests/DocExamplesTests.swift` (compiled and run by `swift test`).
package enum FNV1a {
    package static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    package static let prime: UInt64 = 0x0000_0100_0000_01B3

    /// Inlinable: callers hashing bytes in memory get it specialised (no iterator called per byte).
    @inlinable
    package static func hash<Bytes: Sequence>(bytes: Bytes, seed: UInt64 = offsetBasis) -> UInt64
    where Bytes.Element == UInt8 {
        var hash = seed
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* prime }
        return hash
    }

    package static func hash(_ text: String, seed: UInt64 = offsetBasis) -> UInt64 {
        hash(bytes: text.utf8, seed: seed)
    }

    /// The same over bytes in memory, inlined into callers' loops (fingerprints of ten million ids).
    @inlinable
    package static func hash(_ bytes: UnsafeBufferPointer<UInt8>, seed: UInt64 = offsetBasis) -> UInt64 {
        var hash = seed
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* prime }
        return hash
    }

    /// 16 hex digits, zero-padded.
    package static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 16 - digits.count)) + digits
    }
}

extension FNV1a {
    /// The hash of one labelled sample that dataset fingerprints sum: id, label (`bonafide` /
    /// `attack`), species and split, tab-separated. Never a score or a measurement.
    package static func sampleHash(id: String, label: String, species: String, split: String) -> UInt64 {
        var h = hash(bytes: id.utf8)
        for part in [label, species, split] {
            h = (h ^ 9) &* prime
            h = hash(bytes: part.utf8, seed: h)
        }
        return (h ^ 10) &* prime
    }

    /// The hash a dataset fingerprint adds for a sample that is a frame or one of a group: its
    /// presentation, a tab, its id, a tab, its frame index (decimal, empty when none), a line end.
    /// Still images (presentation = id, no frame index) add nothing, so their fingerprints are the
    /// ones ``sampleHash(id:label:species:split:)`` alone gives. With it, two datasets whose
    /// samples differ only in how frames group into presentations have different fingerprints.
    package static func presentationHash(id: String, presentation: String, frame: String) -> UInt64 {
        guard presentation != id || !frame.isEmpty else { return 0 }
        let h = (hash(bytes: id.utf8, seed: presentationSeed(presentation)) ^ 9) &* prime
        return (hash(bytes: frame.utf8, seed: h) ^ 10) &* prime
    }

    /// The hash of `presentation \t`: the part of ``presentationHash(id:presentation:frame:)``
    /// every frame of a presentation shares.
    package static func presentationSeed(_ presentation: String) -> UInt64 {
        (hash(bytes: presentation.utf8) ^ 9) &* prime
    }

    /// ``presentationHash(id:presentation:frame:)`` from its presentation's seed, the frame index
    /// hashed as its decimal digits (none when negative) with no String made per row.
    /// Takes the id's bytes in memory, not any sequence: a generic sequence was left unspecialised
    /// across modules and walked through its iterator per byte (3 s for ten million ids).
    @inlinable
    package static func presentationHash(id: UnsafeBufferPointer<UInt8>, frame: Int, seed: UInt64) -> UInt64 {
        var h = (hash(id, seed: seed) ^ 9) &* prime
        if frame >= 0 {
            var divisor = 1
            while divisor <= frame / 10 { divisor *= 10 }
            var rest = frame
            while divisor > 0 {
                h = (h ^ UInt64(48 + rest / divisor)) &* prime
                rest %= divisor
                divisor /= 10
            }
        }
        return (h ^ 10) &* prime
    }
}

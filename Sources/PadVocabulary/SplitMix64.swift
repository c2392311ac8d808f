/// SplitMix64 (Steele, Lea, Flood 2014; Vigna's reference constants): a small, fast, seedable
/// generator. padbench never uses the system generator for data, so the same seed always gives
/// the same bytes, and tests draw their random inputs from it with a fixed seed.
///
/// Example: `PadDatasetDocExamples.splitMix`
/// in `Tests/PadDatasetTests/DocExamplesTests.swift` (compiled and run by `swift test`).
package struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64
    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [low, high), from the top 53 bits.
    package mutating func uniform(_ low: Double, _ high: Double) -> Double {
        low + (high - low) * Double(next() >> 11) / Double(1 << 53)
    }

    package mutating func integer(_ low: Int, _ high: Int) -> Int { low + Int(next() % UInt64(high - low + 1)) }
}

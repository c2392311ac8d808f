import Foundation
import PadSamples
import PadVocabulary
import Testing

@testable import PadEvaluation

/// The dataset fingerprint counts how frames group into presentations: two datasets with the same
/// ids, labels and splits but other presentations (or frame indices) are not the same data, so
/// `compare`, `merge` and `bench --resume` never treat them as one.
@Suite struct PresentationFingerprintTests {
    static func frames(_ grouping: [(String, Int)]) -> SampleList {
        SampleList(
            grouping.enumerated().map { i, g in
                Sample(
                    id: "f\(i)", path: "f\(i)", label: i < 2 ? .bonaFide : .attack(species: "print"), split: .eval,
                    presentation: g.0, frameIndex: g.1)
            })
    }

    static func table(_ samples: SampleList) throws -> MeasurementTable {
        var table = try MeasurementTable(
            samples: samples, columns: ["x"], spillFolder: NSTemporaryDirectory(), keep: { _ in true })
        for _ in samples { table.append(status: .ok, values: [0]) }
        return table
    }

    @Test func regroupingFramesChangesTheFingerprint() throws {
        // Same ids, labels, splits; frames of two presentations against one presentation each.
        let twoPerVideo = Self.frames([("v1", 0), ("v1", 1), ("v2", 0), ("v2", 1)])
        let onePerVideo = Self.frames([("v1", 0), ("v3", 0), ("v2", 0), ("v4", 0)])
        let renumbered = Self.frames([("v1", 1), ("v1", 0), ("v2", 0), ("v2", 1)])
        let all = [twoPerVideo, onePerVideo, renumbered].map { DatasetFingerprint.of($0) }
        #expect(Set(all).count == 3)
        // The table's fast path gives the samples' fingerprint and part.
        for samples in [twoPerVideo, onePerVideo, renumbered] {
            let table = try Self.table(samples)
            #expect(DatasetFingerprint.of(table) == DatasetFingerprint.of(samples))
            #expect(DatasetFingerprint.presentations(table) == DatasetFingerprint.presentations(samples))
        }
    }

    /// The presentation term by hand: FNV-1a 64 over `presentation \t id \t frame \n`; the
    /// fingerprint is the samples' terms plus these (wrapping sums).
    @Test func presentationTermIsTheHashOfItsLine() throws {
        let samples = Self.frames([("v1", 0), ("v1", 12), ("v2", 0), ("v2", 1)])
        var terms: UInt64 = 0, rows: UInt64 = 0
        for (i, line) in ["v1\tf0\t0\n", "v1\tf1\t12\n", "v2\tf2\t0\n", "v2\tf3\t1\n"].enumerated() {
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in line.utf8 { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            terms &+= h
            let label = i < 2 ? "bonafide\t\t" : "attack\tprint\t"
            var r: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in "f\(i)\t\(label)eval\n".utf8 { r = (r ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            rows &+= r
        }
        #expect(DatasetFingerprint.presentations(samples) == FNV1a.hex(terms))
        #expect(DatasetFingerprint.of(samples) == FNV1a.hex(rows &+ terms))
        #expect(DatasetFingerprint.presentations(try Self.table(samples)) == FNV1a.hex(terms))
    }

    /// Still images add nothing: their fingerprint is the one archives always had.
    @Test func stillImagesKeepTheirFingerprint() throws {
        let stills = SampleList([Sample(id: "a.jpg", path: "a.jpg", label: .bonaFide, split: .dev)])
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "a.jpg\tbonafide\t\tdev\n".utf8 { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        #expect(DatasetFingerprint.of(stills) == FNV1a.hex(h))
        #expect(DatasetFingerprint.presentations(stills) == nil)
        #expect(DatasetFingerprint.presentations(try Self.table(stills)) == nil)
    }
}

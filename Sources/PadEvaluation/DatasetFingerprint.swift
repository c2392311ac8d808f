import Glibc
import PadArchive
import PadSamples
import PadVocabulary

/// Identities of a run's data, as wrapping sums over samples of FNV-1a 64 hashes, in hex. A sum
/// does not depend on order and adds up over disjoint shards, so `padbench merge` gets the
/// fingerprint a single run over all samples would have.
///
/// ```swift
/// let same = DatasetFingerprint.of(samples) == DatasetFingerprint.of(table)
/// ```
/// - ``of(_:)-samples``: ids, labels, species and splits, and for frames (or members of a group)
///   their presentation and frame index ("same data"): two models scored on the same samples share
///   it, so their runs are comparable; regrouping frames into other presentations changes it.
///   ``presentations(_:)-samples`` is the presentations' part alone (nil for still images).
/// - ``outputs(_:)``: statuses and every output value per id ("same measurements").
package enum DatasetFingerprint {
    package static func of(_ samples: some Sequence<Sample>) -> String {
        FNV1a.hex(
            samples.reduce(UInt64(0)) {
                $0 &+ hash(id: $1.id, label: $1.label, split: $1.split) &+ presentationHash($1)
            })
    }

    /// The presentations' part of ``of(_:)-samples`` (``RunManifest/Dataset/presentationsFingerprint``):
    /// nil when every sample is a presentation of its own.
    package static func presentations(_ samples: some Sequence<Sample>) -> String? {
        var any = false
        let total = samples.reduce(UInt64(0)) {
            any = any || !$1.isOwnPresentation
            return $0 &+ presentationHash($1)
        }
        return any ? FNV1a.hex(total) : nil
    }

    static func presentationHash(_ sample: Sample) -> UInt64 {
        FNV1a.presentationHash(
            id: sample.id, presentation: sample.presentation, frame: sample.frameIndex.map(String.init) ?? "")
    }

    /// The presentations' part of ``of(_:)-table``: the sum of
    /// ``FNV1a/presentationHash(id:presentation:frame:)`` over the rows that are frames or members
    /// of a group; nil when every row is its own presentation. Each presentation's leading hash
    /// is made once; per row only the id's and frame index's bytes are hashed.
    package static func presentations(_ table: MeasurementTable) -> String? {
        guard !table.presentations.isEmpty || !table.frameIndices.isEmpty else { return nil }
        // The names' bytes in one buffer (a million presentations: no array each).
        var nameBytes: [UInt8] = [], nameEnds: [Int] = []
        nameEnds.reserveCapacity(table.presentations.names.count)
        for name in table.presentations.names {
            nameBytes.append(contentsOf: name.utf8)
            nameEnds.append(nameBytes.count)
        }
        // Each presentation's seed, made when its first row is met (0: not made yet; a real seed
        // of 0 is only made again). Columns are read through buffers: this loop runs per row.
        var seeds = [UInt64](repeating: 0, count: nameEnds.count)
        var total: UInt64 = 0, any = false
        let frames = table.frameIndices, codes = table.presentations.codes, names = table.presentations.names
        nameBytes.withUnsafeBufferPointer { nameBytes in
            frames.withUnsafeBufferPointer { frames in
                codes.withUnsafeBufferPointer { codes in
                    seeds.withUnsafeMutableBufferPointer { seeds in
                        table.ids.forEachUTF8(0..<table.count) { i, id in
                            let frame = frames.isEmpty ? -1 : Int(frames[i])
                            let code = codes.isEmpty ? -1 : Int(codes[i])
                            if frame < 0 && (code < 0 || Self.isName(code, of: nameBytes, ends: nameEnds, id)) {
                                return
                            }
                            any = true
                            let seed: UInt64
                            if code < 0 {
                                seed = (FNV1a.hash(id) ^ 9) &* FNV1a.prime
                            } else if seeds[code] != 0 {
                                seed = seeds[code]
                            } else {
                                seed = FNV1a.presentationSeed(names[code])
                                seeds[code] = seed
                            }
                            total &+= FNV1a.presentationHash(id: id, frame: frame, seed: seed)
                        }
                    }
                }
            }
        }
        return any ? FNV1a.hex(total) : nil
    }

    /// True when presentation name `code` (its bytes end at `ends[code]` in `bytes`) is `id`.
    @inline(__always)
    static func isName(
        _ code: Int, of bytes: UnsafeBufferPointer<UInt8>, ends: [Int], _ id: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        let start = code == 0 ? 0 : ends[code - 1]
        guard ends[code] - start == id.count else { return false }
        return id.isEmpty || memcmp(bytes.baseAddress! + start, id.baseAddress!, id.count) == 0
    }

    /// The sum over the table's rows, each term hashed over the id's bytes and then the row's
    /// fixed tail (`\tlabel\tspecies\tsplit\n`, one per class and split): exactly the bytes
    /// ``FNV1a/sampleHash(id:label:species:split:)`` hashes, with no String per row; plus
    /// ``presentations(_:)-table``.
    package static func of(_ table: MeasurementTable) -> String {
        of(table, presentations: presentations(table))
    }

    /// ``of(_:)-table`` with its presentations' part already computed (``presentations(_:)-table``:
    /// the run folder's manifest holds both, and each hashes every row).
    package static func of(_ table: MeasurementTable, presentations part: String?) -> String {
        let samples = samplesSum(table)
        guard let part, let value = UInt64(part, radix: 16) else { return FNV1a.hex(samples) }
        return FNV1a.hex(samples &+ value)
    }

    /// The samples' part of ``of(_:)-table`` (ids, labels, species, splits).
    static func samplesSum(_ table: MeasurementTable) -> UInt64 {
        var tails = CSVPieces()
        let classCount = table.speciesNames.count + 1
        for split in splitOrder {
            for s in -1..<table.speciesNames.count {
                let label: Label = s < 0 ? .bonaFide : .attack(species: table.speciesNames[s])
                tails.add("\t\(label.csvLabel)\t\(label.species ?? "")\t\(split.rawValue)\n")
            }
        }
        var total: UInt64 = 0
        tails.withPieces { tails in
            table.splits.withUnsafeBufferPointer { splits in
                table.speciesIndex.withUnsafeBufferPointer { species in
                    table.ids.forEachUTF8(0..<table.count) { i, id in
                        let tail = tails[splitNumber(splits[i]) * classCount + Int(species[i]) + 1]
                        total &+= FNV1a.hash(tail, seed: FNV1a.hash(id))
                    }
                }
            }
        }
        return total
    }

    /// The splits in the order ``splitNumber(_:)`` numbers them.
    package static let splitOrder: [Split] = [.train, .dev, .eval, .none]

    /// A split's index in ``splitOrder``: per-split, per-class row pieces are kept in tables
    /// indexed by it (here and in eval's `samples.csv` writer).
    @inline(__always)
    package static func splitNumber(_ split: Split) -> Int {
        switch split {
        case .train: return 0
        case .dev: return 1
        case .eval: return 2
        case .none: return 3
        }
    }

    /// The sum of ``outputsHash(id:status:values:)`` over the table's rows, hashed over the
    /// id's bytes in place and, for the samples whose status is `ok`, a fixed `\tok`.
    package static func outputs(_ table: MeasurementTable) -> String {
        if let sum = table.outputsHashSum { return FNV1a.hex(sum) }
        var total: UInt64 = 0
        let okTail = Array("\tok".utf8), values = table.values, statuses = table.statuses
        okTail.withUnsafeBufferPointer { okTail in
            statuses.withCodeNumbers { codes, ok in
                table.ids.forEachUTF8(0..<table.count) { i, id in
                    var h = FNV1a.hash(id)
                    if codes[i] == ok {
                        h = FNV1a.hash(okTail, seed: h)
                    } else {
                        h = FNV1a.hash(bytes: [9], seed: h)
                        h = FNV1a.hash(bytes: statuses[i].field.utf8, seed: h)
                    }
                    for column in values { h = hashBits(column[i], seed: h) }
                    total &+= h
                }
            }
        }
        return FNV1a.hex(total)
    }

    /// A value's bits, little-endian, into the hash; every NaN alike (not assessable), whatever
    /// its payload.
    @inline(__always)
    static func hashBits(_ value: Double, seed: UInt64) -> UInt64 {
        var bits = value.isNaN ? Double.nan.bitPattern : value.bitPattern
        var h = seed
        for _ in 0..<8 {
            h = (h ^ (bits & 0xFF)) &* FNV1a.prime
            bits >>= 8
        }
        return h
    }

    /// One sample's term of ``outputs(_:)``: id, a tab, the status code, every output's bits.
    static func outputsHash(id: String, status: SampleStatus, values: [Double]) -> UInt64 {
        var h = FNV1a.hash(bytes: id.utf8)
        h = FNV1a.hash(bytes: [9], seed: h)
        h = FNV1a.hash(bytes: status.field.utf8, seed: h)
        for value in values { h = hashBits(value, seed: h) }
        return h
    }

    static func hash(id: String, label: Label, split: Split) -> UInt64 {
        FNV1a.sampleHash(id: id, label: label.csvLabel, species: label.species ?? "", split: split.rawValue)
    }

    /// Fingerprint of the union of disjoint parts.
    package static func combine(_ parts: [String]) -> String? {
        var total: UInt64 = 0
        for part in parts {
            guard let value = UInt64(part, radix: 16) else { return nil }
            total &+= value
        }
        return FNV1a.hex(total)
    }
}

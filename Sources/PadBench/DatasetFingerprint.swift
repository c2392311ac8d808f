import PadDataset

/// Identities of a run's data, as wrapping sums over samples of FNV-1a 64 hashes, in hex. A sum
/// does not depend on order and adds up over disjoint shards, so `padbench merge` gets the
/// fingerprint a single run over all samples would have.
///
/// ```swift
/// let same = DatasetFingerprint.of(samples) == DatasetFingerprint.of(table)
/// ```
/// - ``of(_:)-samples``: ids, labels, species and splits only ("same data"): two models scored on
///   the same samples share it, so their runs are comparable.
/// - ``outputs(_:)``: statuses and every output value per id ("same measurements").
public enum DatasetFingerprint {
    public static func of(_ samples: [Sample]) -> String {
        FNV1a.hex(samples.reduce(UInt64(0)) { $0 &+ hash(id: $1.id, label: $1.label, split: $1.split) })
    }

    public static func of(_ table: MeasurementTable) -> String {
        var total: UInt64 = 0
        for i in 0..<table.count { total &+= hash(id: table.ids[i], label: table.labels[i], split: table.splits[i]) }
        return FNV1a.hex(total)
    }

    public static func outputs(_ table: MeasurementTable) -> String {
        var total: UInt64 = 0
        let tab: [UInt8] = [9]
        for i in 0..<table.count {
            var h = FNV1a.hash(bytes: table.ids[i].utf8)
            h = FNV1a.hash(bytes: tab, seed: h)
            h = FNV1a.hash(bytes: table.statuses[i].code.utf8, seed: h)
            for c in table.columns.indices {
                // Every NaN hashes alike (not assessable), whatever its payload.
                let bits = table.values[c][i].isNaN ? Double.nan.bitPattern : table.values[c][i].bitPattern
                h = withUnsafeBytes(of: bits.littleEndian) { FNV1a.hash(bytes: $0, seed: h) }
            }
            total &+= h
        }
        return FNV1a.hex(total)
    }

    static func hash(id: String, label: Label, split: Split) -> UInt64 {
        FNV1a.sampleHash(id: id, label: label.csvLabel, species: label.species ?? "", split: split.rawValue)
    }

    /// Fingerprint of the union of disjoint parts.
    public static func combine(_ parts: [String]) -> String? {
        var total: UInt64 = 0
        for part in parts {
            guard let value = UInt64(part, radix: 16) else { return nil }
            total &+= value
        }
        return FNV1a.hex(total)
    }
}

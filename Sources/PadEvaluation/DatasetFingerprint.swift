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
    public static func of(_ samples: some Sequence<Sample>) -> String {
        FNV1a.hex(samples.reduce(UInt64(0)) { $0 &+ hash(id: $1.id, label: $1.label, split: $1.split) })
    }

    public static func of(_ table: MeasurementTable) -> String {
        var total: UInt64 = 0
        for i in 0..<table.count { total &+= hash(id: table.ids[i], label: table.labels[i], split: table.splits[i]) }
        return FNV1a.hex(total)
    }

    public static func outputs(_ table: MeasurementTable) -> String {
        if let sum = table.outputsHashSum { return FNV1a.hex(sum) }
        var total: UInt64 = 0
        var row = [Double](repeating: .nan, count: table.columns.count)
        for i in 0..<table.count {
            for c in table.columns.indices { row[c] = table.values[c][i] }
            total &+= outputsHash(id: table.ids[i], status: table.statuses[i], values: row)
        }
        return FNV1a.hex(total)
    }

    /// One sample's term of ``outputs(_:)``: id, a tab, the status code, every output's bits.
    static func outputsHash(id: String, status: SampleStatus, values: [Double]) -> UInt64 {
        var h = FNV1a.hash(bytes: id.utf8)
        h = FNV1a.hash(bytes: [9], seed: h)
        h = FNV1a.hash(bytes: status.code.utf8, seed: h)
        for value in values {
            // Every NaN hashes alike (not assessable), whatever its payload.
            let bits = value.isNaN ? Double.nan.bitPattern : value.bitPattern
            h = withUnsafeBytes(of: bits.littleEndian) { FNV1a.hash(bytes: $0, seed: h) }
        }
        return h
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

import PadDataset

/// The measurements of a run held column by column: what deciding and scoring need, and
/// nothing per sample beyond it (no images, no paths). Built while measuring, or read back from
/// an archive's `samples.csv` so that profiles can be re-decided without re-measuring.
///
/// ```swift
/// var table = MeasurementTable(columns: ["quality.sharpness"])
/// table.append(id: "a.jpg", label: .bonaFide, split: .eval, status: .ok, values: [412.5])
/// let sharpness = table.column(named: "quality.sharpness")!
/// ```
public struct MeasurementTable: Sendable {
    public private(set) var columns: [String]
    public private(set) var ids: [String] = []
    public private(set) var labels: [Label] = []
    public private(set) var splits: [Split] = []
    public private(set) var statuses: [SampleStatus] = []
    /// The person each sample shows (`subject` of the dataset), "" when unknown. Empty when the
    /// table was built without subjects; then ``hasSubjects`` is false.
    public private(set) var subjects: [String] = []
    /// Column-major values: `values[c][i]` is output `columns[c]` of sample `i`.
    public private(set) var values: [[Double]]
    /// Per sample: index into ``speciesNames`` for attacks, -1 for bona fide (so hot loops never
    /// hash a species string).
    public private(set) var speciesIndex: [Int32] = []
    public private(set) var speciesNames: [String] = []
    private var speciesLookup: [String: Int32] = [:]
    private var columnIndex: [String: Int]
    /// Where the columns no profile reads go (bench on large datasets): nil keeps every column.
    private var spill: ColumnSpill?
    /// Sum of the per-sample output hashes (``DatasetFingerprint/outputs(_:)``), kept while
    /// appending when columns are spilled (their values are then not at hand to hash later).
    public private(set) var outputsHashSum: UInt64?

    public init(columns: [String]) {
        self.columns = columns
        self.values = Array(repeating: [], count: columns.count)
        self.columnIndex = Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($1, $0) })
    }

    /// A table that keeps in memory only the columns `keep` accepts (the outputs the profiles
    /// decide on and sweep) and writes every other column, eight bytes a value, to a file of its
    /// own under `spillFolder`, read back one column at a time by ``column(_:)`` (for
    /// `outputs.csv`); the folder is removed when the last copy of the table goes. The outputs
    /// fingerprint is summed while appending.
    public init(columns: [String], spillFolder: String, keep: (String) -> Bool) throws {
        self.init(columns: columns)
        let dropped = columns.indices.filter { !keep(columns[$0]) }
        if !dropped.isEmpty {
            spill = try ColumnSpill(folder: spillFolder, columns: dropped)
            outputsHashSum = 0
        }
    }

    /// True when column `c` is held in memory (``values```[c]`); false for a spilled column.
    public func isInMemory(_ c: Int) -> Bool { spill?.holds(c) != true }

    /// Every value of column `c`, from memory or read back from its spill file.
    public func column(_ c: Int) throws -> [Double] {
        guard let spill, spill.holds(c) else { return values[c] }
        return try spill.read(c, count: count)
    }

    /// A whole table at once (score files: no per-row arrays are built). `speciesIndex` indexes
    /// `speciesNames` (-1 = bona fide) and must agree with `labels`; `subjects` (optional) names
    /// each sample's person.
    public init(
        columns: [String], ids: [String], labels: [Label], splits: [Split], statuses: [SampleStatus],
        values: [[Double]],
        speciesIndex: [Int32], speciesNames: [String], subjects: [String]? = nil
    ) {
        precondition(
            values.count == columns.count && values.allSatisfy { $0.count == ids.count }
                && speciesIndex.count == ids.count)
        precondition(subjects == nil || subjects!.count == ids.count)
        self.init(columns: columns)
        self.ids = ids
        self.labels = labels
        self.splits = splits
        self.statuses = statuses
        self.values = values
        self.speciesIndex = speciesIndex
        self.speciesNames = speciesNames
        self.speciesLookup = Dictionary(uniqueKeysWithValues: speciesNames.enumerated().map { ($1, Int32($0)) })
        self.subjects = subjects ?? []
    }

    public var count: Int { ids.count }

    public mutating func reserveCapacity(_ n: Int) {
        ids.reserveCapacity(n)
        speciesIndex.reserveCapacity(n)
        labels.reserveCapacity(n)
        splits.reserveCapacity(n)
        statuses.reserveCapacity(n)
        for c in values.indices where isInMemory(c) { values[c].reserveCapacity(n) }
    }

    public mutating func append(id: String, label: Label, split: Split, status: SampleStatus, values row: [Double]) {
        precondition(row.count == columns.count, "row has \(row.count) values for \(columns.count) columns")
        if let spill {
            outputsHashSum! &+= DatasetFingerprint.outputsHash(id: id, status: status, values: row)
            // A failed write surfaces when the column is read back (``column(_:)``).
            try? spill.append(row)
        }
        ids.append(id)
        labels.append(label)
        if let species = label.species {
            if let known = speciesLookup[species] {
                speciesIndex.append(known)
            } else {
                let index = Int32(speciesNames.count)
                speciesNames.append(species)
                speciesLookup[species] = index
                speciesIndex.append(index)
            }
        } else {
            speciesIndex.append(-1)
        }
        splits.append(split)
        statuses.append(status)
        if let spill {
            for c in row.indices where !spill.holds(c) { values[c].append(row[c]) }
        } else {
            for c in row.indices { values[c].append(row[c]) }
        }
        if !subjects.isEmpty { subjects.append("") }
    }

    /// Appends a sample with its subject ("" when unknown). A table gets subjects from its first
    /// row appended this way; mixing both `append`s keeps the arrays aligned.
    public mutating func append(
        id: String, label: Label, split: Split, status: SampleStatus, values row: [Double], subject: String
    ) {
        if subjects.isEmpty && !ids.isEmpty { subjects = Array(repeating: "", count: ids.count) }
        append(id: id, label: label, split: split, status: status, values: row)
        if subjects.count < ids.count { subjects.append(subject) } else { subjects[ids.count - 1] = subject }
    }

    /// True when at least one sample names its subject (subject-clustered statistics apply).
    public var hasSubjects: Bool { subjects.contains { !$0.isEmpty } }

    /// Subject of sample `i`, "" when unknown.
    public func subject(_ i: Int) -> String { i < subjects.count ? subjects[i] : "" }

    public func columnIndex(of name: String) -> Int? { columnIndex[name] }

    /// The column's values (read back from disk when spilled); nil for an unknown name.
    public func column(named name: String) -> [Double]? {
        columnIndex[name].flatMap { try? column($0) }
    }

    /// Value of output `column` for sample `i`, NaN when the output was not measured in this run.
    @inlinable
    public func value(_ column: Int?, _ i: Int) -> Double {
        guard let column else { return .nan }
        return values[column][i]
    }

    public var failedCount: Int { statuses.reduce(0) { $0 + ($1.isOK ? 0 : 1) } }
}

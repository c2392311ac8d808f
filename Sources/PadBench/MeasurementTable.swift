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

    public init(columns: [String]) {
        self.columns = columns
        self.values = Array(repeating: [], count: columns.count)
        self.columnIndex = Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($1, $0) })
    }

    /// A whole table at once (score files: no per-row arrays are built). `speciesIndex` indexes
    /// `speciesNames` (-1 = bona fide) and must agree with `labels`; `subjects` (optional) names
    /// each sample's person.
    public init(columns: [String], ids: [String], labels: [Label], splits: [Split], statuses: [SampleStatus], values: [[Double]],
                speciesIndex: [Int32], speciesNames: [String], subjects: [String]? = nil) {
        precondition(values.count == columns.count && values.allSatisfy { $0.count == ids.count } && speciesIndex.count == ids.count)
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
        for c in values.indices { values[c].reserveCapacity(n) }
    }

    public mutating func append(id: String, label: Label, split: Split, status: SampleStatus, values row: [Double]) {
        precondition(row.count == columns.count, "row has \(row.count) values for \(columns.count) columns")
        ids.append(id)
        labels.append(label)
        if let species = label.species {
            if let known = speciesLookup[species] { speciesIndex.append(known) } else {
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
        for c in row.indices { values[c].append(row[c]) }
        if !subjects.isEmpty { subjects.append("") }
    }

    /// Appends a sample with its subject ("" when unknown). A table gets subjects from its first
    /// row appended this way; mixing both `append`s keeps the arrays aligned.
    public mutating func append(id: String, label: Label, split: Split, status: SampleStatus, values row: [Double], subject: String) {
        if subjects.isEmpty && !ids.isEmpty { subjects = Array(repeating: "", count: ids.count) }
        append(id: id, label: label, split: split, status: status, values: row)
        if subjects.count < ids.count { subjects.append(subject) } else { subjects[ids.count - 1] = subject }
    }

    /// True when at least one sample names its subject (subject-clustered statistics apply).
    public var hasSubjects: Bool { subjects.contains { !$0.isEmpty } }

    /// Subject of sample `i`, "" when unknown.
    public func subject(_ i: Int) -> String { i < subjects.count ? subjects[i] : "" }

    public func columnIndex(of name: String) -> Int? { columnIndex[name] }

    public func column(named name: String) -> [Double]? {
        columnIndex[name].map { values[$0] }
    }

    /// Value of output `column` for sample `i`, NaN when the output was not measured in this run.
    @inlinable
    public func value(_ column: Int?, _ i: Int) -> Double {
        guard let column else { return .nan }
        return values[column][i]
    }

    public var failedCount: Int { statuses.reduce(0) { $0 + ($1.isOK ? 0 : 1) } }
}

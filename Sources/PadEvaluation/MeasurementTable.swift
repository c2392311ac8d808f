import PadSamples
import PadVocabulary

/// The measurements of a run held column by column: what deciding and scoring need, and
/// nothing per sample beyond it (no images, no paths). Built while measuring, or read back from
/// an archive's `samples.csv` so that profiles can be re-decided without re-measuring.
///
/// ```swift
/// var table = MeasurementTable(columns: ["quality.sharpness"])
/// table.append(id: "a.jpg", label: .bonaFide, split: .eval, status: .ok, values: [412.5])
/// let sharpness = table.column(named: "quality.sharpness")!
/// ```
///
/// Per sample it holds the id's bytes plus 8 (``StringColumn``), a species code, a split byte,
/// a status code and a subject code (``InternedStrings``; failure messages only for failed
/// samples) and 8 bytes per in-memory column: a million samples of four read outputs take
/// about 70 MB. A bench table shares the id, species, split and subject columns with the run's
/// ``SampleList`` (``init(samples:columns:spillFolder:keep:)``): its own are then the status code
/// and the in-memory columns, 36 bytes a sample for four outputs.
package struct MeasurementTable: Sendable {
    /// Each column's header in `samples.csv` (``ColumnKey/header``).
    package private(set) var columns: [String]
    /// Each column's estimator, output and variant: parsed from ``columns`` by the one parser
    /// (``ColumnKey/init(header:)``), or a stored run's layout (``adopt(layout:path:)``).
    package private(set) var keys: [ColumnKey]
    package private(set) var ids = StringColumn()
    /// Each sample's label, made from ``speciesIndex`` and ``speciesNames``.
    package var labels: LabelColumn { LabelColumn(speciesIndex: speciesIndex, speciesNames: speciesNames) }
    package private(set) var splits: [Split] = []
    package private(set) var statuses = StatusColumn()
    /// The person each sample shows (`subject` of the dataset), "" when unknown. Empty when the
    /// table was built without subjects; then ``hasSubjects`` is false.
    package private(set) var subjects = InternedStrings()
    /// The presentation (capture attempt, ISO/IEC 30107-3) each sample is a frame of. Empty when
    /// every sample is a presentation of its own (still images): then ``hasPresentations`` is
    /// false and every report is frame-free, as before presentations existed.
    package private(set) var presentations = InternedStrings()
    /// Each sample's frame index in its presentation (-1 when none); empty when no sample has one.
    package private(set) var frameIndices: [Int32] = []
    /// Column-major values: `values[c][i]` is output `columns[c]` of sample `i`.
    package private(set) var values: [[Double]]
    /// Per sample: index into ``speciesNames`` for attacks, -1 for bona fide (so hot loops never
    /// hash a species string).
    package private(set) var speciesIndex: [Int32] = []
    package private(set) var speciesNames: [String] = []
    private var speciesLookup: [String: Int32] = [:]
    private var columnIndex: [String: Int]
    /// Where the columns no profile reads go (bench on large datasets): nil keeps every column.
    private var spill: ColumnSpill?
    /// Sum of the per-sample output hashes (``DatasetFingerprint/outputs(_:)``), kept while
    /// appending when columns are spilled (their values are then not at hand to hash later).
    package private(set) var outputsHashSum: UInt64?
    /// True when ids, species, splits and subjects are a sample list's own columns, shared, and
    /// rows are appended by ``append(status:values:)``.
    private var sharesSampleColumns = false

    package init(columns: [String]) {
        self.columns = columns
        self.keys = columns.map(ColumnKey.init(header:))
        self.values = Array(repeating: [], count: columns.count)
        self.columnIndex = Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($1, $0) })
    }

    /// Takes a stored run's column layout (its manifest's `columns`) instead of the keys parsed
    /// from the headers (``layout(_:headers:path:)``).
    package mutating func adopt(layout: [ColumnKey]?, path: String) throws {
        keys = try Self.layout(layout, headers: columns, path: path)
    }

    /// The keys of a stored run's output columns: its manifest's layout, which must name exactly
    /// the `samples.csv` headers (else the archive was edited), or for an archive written before
    /// the layout was recorded (nil), the headers parsed once (``ColumnKey/init(header:)``).
    package static func layout(_ stored: [ColumnKey]?, headers: [String], path: String) throws -> [ColumnKey] {
        guard let stored else { return headers.map(ColumnKey.init(header:)) }
        guard stored.map(\.header) == headers else {
            throw EvaluationError(
                "\(path): the manifest's column layout (\(stored.count) columns) is not samples.csv's "
                    + "(\(headers.count)); the archive was edited")
        }
        return stored
    }

    /// A table that keeps in memory only the columns `keep` accepts (the outputs the profiles
    /// decide on and sweep) and writes every other column, eight bytes a value, to one spill file
    /// under `spillFolder` (``ColumnSpill``), read back one column at a time by ``column(_:)`` (for
    /// `outputs.csv`); the folder is removed when the last copy of the table goes. The outputs
    /// fingerprint is summed while appending.
    package init(columns: [String], spillFolder: String, keep: (String) -> Bool) throws {
        self.init(columns: columns)
        let dropped = columns.indices.filter { !keep(columns[$0]) }
        if !dropped.isEmpty {
            spill = try ColumnSpill(folder: spillFolder, columns: dropped)
            outputsHashSum = 0
        }
    }

    /// bench: a table whose sample columns (ids, labels, splits, subjects) are those of `samples`,
    /// shared with the list instead of copied (a million ids are held once, not twice), so a row
    /// adds only its status and values, appended in sample order by ``append(status:values:)``.
    /// Until the last sample is appended those columns are longer than ``count`` (an interrupted
    /// run is not decided). Columns `keep` rejects are spilled as with
    /// ``init(columns:spillFolder:keep:)``.
    package init(samples: SampleList, columns: [String], spillFolder: String, keep: (String) -> Bool) throws {
        try self.init(columns: columns, spillFolder: spillFolder, keep: keep)
        ids = samples.idColumn
        speciesIndex = samples.speciesCodes
        speciesNames = samples.speciesNameList
        speciesLookup = Dictionary(uniqueKeysWithValues: speciesNames.enumerated().map { ($1, Int32($0)) })
        splits = samples.splits
        subjects = samples.subjectColumn
        presentations = samples.presentationColumn ?? InternedStrings()
        frameIndices = samples.frameIndexColumn
        sharesSampleColumns = true
    }

    /// The table with one more column, held in memory (a profile's fused score, derived when the
    /// profile is decided). The other columns are shared, not copied; the fingerprint sum is kept:
    /// a derived column is no measurement.
    package func addingColumn(_ key: ColumnKey, values column: [Double]) -> MeasurementTable {
        precondition(column.count == count && columnIndex[key.header] == nil, "one new value per row")
        var table = self
        table.columnIndex[key.header] = columns.count
        table.columns.append(key.header)
        table.keys.append(key)
        table.values.append(column)
        return table
    }

    /// True when column `c` is held in memory (``values```[c]`); false for a spilled column.
    package func isInMemory(_ c: Int) -> Bool { spill?.holds(c) != true }

    /// Every value of column `c`, from memory or read back from its spill file.
    package func column(_ c: Int) throws -> [Double] {
        guard let spill, spill.holds(c) else { return values[c] }
        return try spill.read(c, count: count)
    }

    /// The values of column `c` at `rows` (ascending sample numbers): from memory, or read from
    /// its spill file block by block so that the whole column is never held.
    package func column(_ c: Int, rows: [Int32]) throws -> [Double] {
        guard let spill, spill.holds(c) else {
            let column = values[c]
            return rows.map { column[Int($0)] }
        }
        return try spill.read(c, rows: rows)
    }

    /// A whole table at once (score files: no per-row arrays are built). `speciesIndex` indexes
    /// `speciesNames` (-1 = bona fide) and must agree with `labels`; `subjects` (optional) names
    /// each sample's person; `presentations` (optional) each sample's presentation.
    package init(
        columns: [String], ids: [String], labels: [Label], splits: [Split], statuses: [SampleStatus],
        values: [[Double]],
        speciesIndex: [Int32], speciesNames: [String], subjects: [String]? = nil,
        presentations: InternedStrings? = nil
    ) {
        self.init(
            columns: columns, ids: ids, splits: splits, statuses: StatusColumn(statuses), values: values,
            speciesIndex: speciesIndex, speciesNames: speciesNames, subjects: subjects, presentations: presentations)
    }

    /// The same with the statuses already as a column (score files: no array of ten million
    /// ``SampleStatus`` values, and no labels, which the species codes give).
    package init(
        columns: [String], ids: [String], splits: [Split], statuses: StatusColumn, values: [[Double]],
        speciesIndex: [Int32], speciesNames: [String], subjects: [String]? = nil,
        presentations: InternedStrings? = nil
    ) {
        precondition(presentations == nil || presentations!.count == ids.count)
        precondition(
            values.count == columns.count && values.allSatisfy { $0.count == ids.count }
                && speciesIndex.count == ids.count)
        precondition(subjects == nil || subjects!.count == ids.count)
        self.init(columns: columns)
        self.ids = StringColumn(ids)
        self.splits = splits
        self.statuses = statuses
        self.values = values
        self.speciesIndex = speciesIndex
        self.speciesNames = speciesNames
        self.speciesLookup = Dictionary(uniqueKeysWithValues: speciesNames.enumerated().map { ($1, Int32($0)) })
        self.subjects = subjects.map { InternedStrings($0) } ?? InternedStrings()
        self.presentations = presentations ?? InternedStrings()
    }

    /// Rows appended (every row has a status).
    package var count: Int { statuses.count }

    package mutating func reserveCapacity(_ n: Int) {
        statuses.reserveCapacity(n)
        for c in values.indices where isInMemory(c) { values[c].reserveCapacity(n) }
        // Shared sample columns are complete already (reserving would copy them).
        guard !sharesSampleColumns else { return }
        ids.reserveCapacity(n)
        speciesIndex.reserveCapacity(n)
        splits.reserveCapacity(n)
        subjects.reserveCapacity(n)
    }

    package mutating func append(id: String, label: Label, split: Split, status: SampleStatus, values row: [Double]) {
        precondition(!sharesSampleColumns, "a table over a sample list appends statuses and values only")
        appendMeasured(id: id, status: status, values: row)
        ids.append(id)
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
        if !subjects.isEmpty { subjects.append("") }
        if !presentations.isEmpty { presentations.append(id) }
        if !frameIndices.isEmpty { frameIndices.append(-1) }
    }

    /// Sets the presentation and frame index of the row just appended (`samples.csv` with a
    /// `presentation` column, read back); the columns are made at the first row that needs them.
    package mutating func setLastPresentation(_ presentation: String, frameIndex: Int?) {
        let last = ids.count - 1
        if presentations.isEmpty && presentation != ids[last] {
            presentations = InternedStrings((0..<last).map { ids[$0] })
            presentations.append(presentation)
        } else if !presentations.isEmpty {
            presentations.setLast(presentation)
        }
        if let frameIndex, frameIndices.isEmpty { frameIndices = [Int32](repeating: -1, count: ids.count) }
        if !frameIndices.isEmpty { frameIndices[last] = Int32(clamping: frameIndex ?? -1) }
    }

    /// Appends the next sample's status and values to a table over a sample list
    /// (``init(samples:columns:spillFolder:keep:)``).
    package mutating func append(status: SampleStatus, values row: [Double]) {
        precondition(sharesSampleColumns && count < ids.count, "every sample of the list has its row already")
        appendMeasured(id: ids[count], status: status, values: row)
    }

    /// The status and the values of a row (spilled columns to their files).
    private mutating func appendMeasured(id: String, status: SampleStatus, values row: [Double]) {
        precondition(row.count == columns.count, "row has \(row.count) values for \(columns.count) columns")
        if let spill {
            outputsHashSum! &+= DatasetFingerprint.outputsHash(id: id, status: status, values: row)
            // A failed write is kept by the spill and thrown when the column is read back
            // (``column(_:rows:)``, for outputs.csv, before the run is committed).
            spill.append(row)
            for c in row.indices where !spill.holds(c) { values[c].append(row[c]) }
        } else {
            for c in row.indices { values[c].append(row[c]) }
        }
        statuses.append(status)
    }

    /// Appends a sample with its subject ("" when unknown). A table gets subjects from its first
    /// row appended this way; mixing both `append`s keeps the arrays aligned.
    package mutating func append(
        id: String, label: Label, split: Split, status: SampleStatus, values row: [Double], subject: String
    ) {
        if subjects.isEmpty && !ids.isEmpty { subjects = InternedStrings(repeatElement("", count: ids.count)) }
        append(id: id, label: label, split: split, status: status, values: row)
        if subjects.count < ids.count { subjects.append(subject) } else { subjects.setLast(subject) }
    }

    /// Puts the rows in the order `order` gives (`order[k]` is the row that becomes row `k`; a
    /// permutation): one column at a time, so at most one column is held twice; spilled columns
    /// are read back, reordered and written again.
    package mutating func reorder(_ order: [Int]) throws {
        precondition(order.count == count && ids.count == count)
        sharesSampleColumns = false
        ids = ids.reordered(order)
        // Species are numbered again in order of first appearance, as appending in this order would.
        var renumbered = [Int32](repeating: -1, count: speciesNames.count)
        var names: [String] = []
        speciesIndex = order.map { i in
            let old = speciesIndex[i]
            guard old >= 0 else { return -1 }
            if renumbered[Int(old)] < 0 {
                renumbered[Int(old)] = Int32(names.count)
                names.append(speciesNames[Int(old)])
            }
            return renumbered[Int(old)]
        }
        speciesNames = names
        speciesLookup = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, Int32($0)) })
        splits = order.map { splits[$0] }
        statuses = statuses.reordered(order)
        if !subjects.isEmpty { subjects = subjects.reordered(order) }
        if !presentations.isEmpty { presentations = presentations.reordered(order) }
        if !frameIndices.isEmpty { frameIndices = order.map { frameIndices[$0] } }
        for c in values.indices where isInMemory(c) { values[c] = order.map { values[c][$0] } }
        if let spill {
            for c in columns.indices where spill.holds(c) {
                let column = try spill.read(c, count: count)
                try spill.rewrite(c, order.map { column[$0] })
            }
        }
    }

    /// True when at least one sample names its subject (subject-clustered statistics apply).
    package var hasSubjects: Bool { subjects.names.contains { !$0.isEmpty } }

    /// True when some presentation has several frames or a frame index (a video, a burst, a bob
    /// score file with one row per frame): presentation-level results are then the headline.
    package var hasPresentations: Bool {
        if !frameIndices.isEmpty { return true }
        guard !presentations.isEmpty else { return false }
        // Codes in use, not the vocabulary: a row's id replaced by its presentation
        // (``setLastPresentation(_:frameIndex:)``) stays a name no row has.
        var used = [Bool](repeating: false, count: presentations.names.count)
        for c in presentations.codes {
            if used[Int(c)] { return true }
            used[Int(c)] = true
        }
        return false
    }

    /// Presentation of sample `i` (its own id when the table has no presentation column).
    package func presentation(_ i: Int) -> String { presentations.isEmpty ? ids[i] : presentations[i] }

    /// Subject of sample `i`, "" when unknown.
    package func subject(_ i: Int) -> String { i < subjects.count ? subjects[i] : "" }

    package func columnIndex(of name: String) -> Int? { columnIndex[name] }

    /// The column's values (read back from disk when spilled); nil for an unknown name.
    package func column(named name: String) -> [Double]? {
        columnIndex[name].flatMap { try? column($0) }
    }

    /// Value of output `column` for sample `i`, NaN when the output was not measured in this run.
    @inlinable
    package func value(_ column: Int?, _ i: Int) -> Double {
        guard let column else { return .nan }
        return values[column][i]
    }

    package var failedCount: Int { statuses.failedCount }
}

/// The labels of a table's samples, made on reading from the species codes (-1 = bona fide).
package struct LabelColumn: RandomAccessCollection, Sendable {
    let speciesIndex: [Int32]
    let speciesNames: [String]
    package var startIndex: Int { 0 }
    package var endIndex: Int { speciesIndex.count }
    package subscript(i: Int) -> Label {
        let s = speciesIndex[i]
        return s < 0 ? .bonaFide : .attack(species: speciesNames[Int(s)])
    }
}

/// Each sample's ``SampleStatus`` as a code number (0 for `ok`, 1 + the index of its
/// ``FailureCode`` in `allCases` for a failure: one byte per row), with the message kept only
/// for failed samples.
package struct StatusColumn: RandomAccessCollection, Sendable {
    private var codes: [UInt8] = []
    private var messages: [Int: String] = [:]
    package private(set) var failedCount = 0
    /// The code number of `ok`.
    package static let okNumber: UInt8 = 0
    private static let failureCodes = FailureCode.allCases

    package init() {}

    package init(_ statuses: [SampleStatus]) {
        self.init()
        codes.reserveCapacity(statuses.count)
        for status in statuses { append(status) }
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { codes.count }

    package subscript(i: Int) -> SampleStatus {
        // Hot loops (deciding ten million score rows) read `.ok` without touching a string.
        let number = codes[i]
        if number == Self.okNumber { return .ok }
        return .failed(code: Self.failureCodes[Int(number) - 1], message: messages[i] ?? "")
    }

    /// Calls `body` with every row's code number and the number of `ok`: row loops over ten
    /// million statuses test `.ok` with one load instead of building a ``SampleStatus``.
    package func withCodeNumbers<R>(_ body: (UnsafeBufferPointer<UInt8>, _ ok: UInt8) throws -> R) rethrows -> R {
        try codes.withUnsafeBufferPointer { try body($0, Self.okNumber) }
    }

    package mutating func append(_ status: SampleStatus) {
        guard case .failed(let code, let message) = status else { return codes.append(Self.okNumber) }
        if !message.isEmpty { messages[codes.count] = message }
        failedCount += 1
        codes.append(UInt8(Self.failureCodes.firstIndex(of: code)! + 1))
    }

    package mutating func reserveCapacity(_ n: Int) { codes.reserveCapacity(n) }

    /// One status per value, as ``append(_:)`` of each would give: `ok`, or `failure` where the
    /// value is NaN (a score file's empty or `nan` score). One fill and one scan of the values,
    /// not a status built per row (ten million rows).
    package mutating func append(okUnlessNaN values: [Double], failure: SampleStatus) {
        guard case .failed(let code, let message) = failure else {
            preconditionFailure("the status of a NaN value is a failure")
        }
        let start = codes.count
        var failedRows: [Int] = []
        values.withUnsafeBufferPointer { values in
            for i in values.indices where values[i].isNaN { failedRows.append(start + i) }
        }
        codes.append(contentsOf: repeatElement(Self.okNumber, count: values.count))
        let number = UInt8(Self.failureCodes.firstIndex(of: code)! + 1)
        for row in failedRows {
            codes[row] = number
            if !message.isEmpty { messages[row] = message }
        }
        failedCount += failedRows.count
    }

    /// The same statuses in the order `order` gives (`order[k]` is the row that becomes row `k`).
    func reordered(_ order: [Int]) -> StatusColumn {
        var copy = StatusColumn()
        copy.reserveCapacity(order.count)
        for i in order { copy.append(self[i]) }
        return copy
    }
}

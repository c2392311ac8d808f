import PadVocabulary
/// Labels of each sample beyond bona fide / attack: `group.<name>` columns (a demographic group,
/// such as `group.sex`, for ISO/IEC 19795-10 differentials) and `attr.<name>` columns (a property
/// of the capture, 0/1 or a category, such as `attr.eyeglasses`, that a quality output should
/// detect). A manifest carries them as extra columns; CelebA-Spoof's label files give its 40
/// CelebA attributes, illumination and environment (``CelebASpoofLayout``). A run stores them in
/// `labels.csv` (`id` then one column per label, in sample order), beside `samples.csv`.
///
/// Example: `SampleLabelsTests.manifestColumns` in `Tests/PadDatasetTests/SampleLabelsTests.swift`.
package struct SampleLabels: Sendable, Equatable {
    /// The member of a run (and file of its folder) that stores them.
    package static let member = RunFile.labels.name
    package static let groupPrefix = "group.", attributePrefix = "attr."

    /// Column names, each starting `group.` or `attr.`.
    package private(set) var names: [String]
    /// The sample id of each row.
    package private(set) var ids = StringColumn()
    /// `columns[c][row]`: values interned per column (a million samples of 43 labels take 4 bytes
    /// a value); "" = not given.
    package private(set) var columns: [InternedStrings]

    package init(names: [String] = []) {
        self.names = names
        columns = Array(repeating: InternedStrings(), count: names.count)
    }

    package var isEmpty: Bool { names.isEmpty }
    package var count: Int { ids.count }

    /// Whether a column name is a label column (`group.` or `attr.` followed by a name).
    package static func isLabelColumn(_ name: String) -> Bool {
        (name.hasPrefix(groupPrefix) && name.count > groupPrefix.count)
            || (name.hasPrefix(attributePrefix) && name.count > attributePrefix.count)
    }

    /// Appends the labels of sample `id`: `values[c]` for `names[c]`.
    package mutating func append(id: String, values: [String]) {
        precondition(values.count == names.count, "one value per label column")
        ids.append(id)
        for c in columns.indices { columns[c].append(values[c]) }
    }

    /// The values of column `name` by sample id (missing values left out).
    package func values(of name: String) -> [String: String] {
        guard let c = names.firstIndex(of: name) else { return [:] }
        var result: [String: String] = [:]
        result.reserveCapacity(count)
        for row in 0..<count where !columns[c][row].isEmpty { result[ids[row]] = columns[c][row] }
        return result
    }

    /// The labels of the samples `keep` says to keep, in order.
    package func subset(ids keep: Set<String>) -> SampleLabels {
        var result = SampleLabels(names: names)
        for row in 0..<count where keep.contains(ids[row]) {
            result.append(id: ids[row], values: columns.map { $0[row] })
        }
        return result
    }

    /// `labels.csv`'s header and rows.
    package var csvHeader: [String] { ["id"] + names }
    package func csvRow(_ row: Int) -> [String] { [ids[row]] + columns.map { $0[row] } }
}

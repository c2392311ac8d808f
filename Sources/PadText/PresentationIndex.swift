/// The rule that a presentation (one capture attempt, ISO/IEC 30107-3) never spans two labels,
/// species, subjects or splits, checked row by row as a dataset manifest or a score file is read:
/// every row is compared with the first row of its presentation, and the first difference is a
/// ``Conflict`` naming both rows. One definition for every reader (manifests in PadDataset, score
/// files in PadMetrics).
///
/// Example: `ManifestPresentationTests.presentationSpanningTwoLabelsSubjectsOrSplitsIsAProblem`
/// in `Tests/PadDatasetTests/ManifestTests.swift` (compiled and run by `swift test`).
/// Rows of one presentation usually follow each other (frames of a video), so the last
/// presentation is compared before the dictionary is consulted.
package struct PresentationIndex: Sendable {
    package struct Conflict: Sendable, Equatable {
        /// The first row of the presentation and the row that disagrees with it.
        package var first: Int
        package var row: Int
        /// What differs: `label`, `species`, `subject` or `split`.
        package var attribute: String

        /// "spans two labels", "two species": the attribute's plural for messages.
        package var plural: String { attribute == "species" ? attribute : attribute + "s" }

        package init(first: Int, row: Int, attribute: String) {
            self.first = first; self.row = row; self.attribute = attribute
        }
    }

    private var firstRow: [String: Int] = [:]
    private var last: (presentation: String, first: Int)?

    package init() {}

    /// Presentations seen so far.
    package var count: Int { firstRow.count }

    /// Records `row` of `presentation`; `differs(first)` names the attribute in which `row` differs
    /// from the presentation's first row (nil when they agree). A conflicting row is not recorded.
    @discardableResult
    package mutating func add(_ presentation: String, row: Int, differs: (Int) -> String?) -> Conflict? {
        let first: Int
        if let last, last.presentation == presentation {
            first = last.first
        } else if let known = firstRow[presentation] {
            first = known
        } else {
            firstRow[presentation] = row
            last = (presentation, row)
            return nil
        }
        last = (presentation, first)
        guard let attribute = differs(first) else { return nil }
        return Conflict(first: first, row: row, attribute: attribute)
    }
}

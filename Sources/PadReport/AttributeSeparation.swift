import PadArchive
import PadMetrics

/// `attributes.csv` and the report's "Which output detects which attribute" section: for every
/// numeric output and every binary `attr.*` label (a category label gives one binary attribute
/// per category, `attr.illumination=dark`), AUC and EER of the samples without the attribute
/// against those with it, in the direction that separates them. The computation is
/// ``OutputSeparation``'s (samples without the attribute in the place of bona fide, those with it
/// in the place of one attack species), so AUC, EER, tie and NaN rules are those of `outputs.csv`.
///
/// Example: `AttributeSeparationTests.eyesOpenDetectsClosedEyes`
/// in `Tests/PadReportTests/AttributeSeparationTests.swift`.
///
/// Columns: `output,attribute,direction,auc,eer,eer_threshold,n_without,n_with,n_missing_without,n_missing_with`;
/// `direction` is `higher-without` (the output is higher on samples without the attribute: it
/// detects the attribute by low values, as `eyes.left_open` detects closed eyes) or `lower-without`.
package enum AttributeSeparation {
    package static let header = [
        "output", "attribute", "direction", "auc", "eer", "eer_threshold", "n_without", "n_with", "n_missing_without",
        "n_missing_with",
    ]
    /// A category label with more values than this is not split into binary attributes.
    package static let maxCategories = 12

    /// The binary attributes of one label column's values: itself when its values are 0/1 (empty
    /// = not given), else one `name=category` per category; each as `present[i]` (nil = not given).
    package static func binaryAttributes(name: String, values: [String]) -> [(name: String, present: [Bool?])] {
        let given = Set(values.filter { !$0.isEmpty })
        if given.isSubset(of: ["0", "1"]) {
            return given.count == 2 ? [(name, values.map { $0.isEmpty ? nil : $0 == "1" })] : []
        }
        guard given.count <= maxCategories, given.count > 1 else { return [] }
        return given.sorted().map { category in
            (name + "=" + category, values.map { $0.isEmpty ? nil : $0 == category })
        }
    }

    /// The row of one output against one binary attribute (samples without the attribute given
    /// left out).
    package static func row(output: String, values: [Double], attribute: String, present: [Bool?])
        -> OutputSeparation.Row
    {
        var kept: [Double] = [], classes: [Int32] = []
        for i in values.indices {
            guard let p = present[i] else { continue }
            kept.append(values[i])
            classes.append(p ? 0 : -1)
        }
        var row =
            OutputSeparation.rows(output: output, values: kept, species: classes, speciesNames: [attribute]).first
            ?? OutputSeparation.Row(
                output: output, species: attribute, direction: "", auc: .nan, eer: .nan, eerThreshold: .nan,
                bonaFide: 0, attacks: 0, missingBonaFide: 0, missingAttacks: 0)
        row.direction = row.direction.replacingOccurrences(of: "bona-fide", with: "without")
        return row
    }

    package static func table(_ rows: [OutputSeparation.Row]) -> ReportTables.Table {
        (header, OutputSeparation.table(rows).rows)
    }

    /// The section: every (output, attribute) pair with both classes, ranked by AUC (best first).
    package static func section(_ rows: [OutputSeparation.Row], limit: Int = 40) -> String {
        let ranked = rows.filter { !$0.auc.isNaN }.sorted {
            ($1.auc, $0.output, $0.species) < ($0.auc, $1.output, $1.species)
        }
        guard !ranked.isEmpty else { return "" }
        let shown = ranked.prefix(limit).map {
            [
                $0.species, $0.output, $0.direction, RateText.figure($0.auc), HTMLReport.pct($0.eer),
                String($0.bonaFide),
                String($0.attacks),
            ]
        }
        let more = ranked.count > limit ? " The \(limit) best of \(ranked.count) pairs; all in attributes.csv." : ""
        return "<h2>Which output detects which attribute</h2>\n<p class=\"meta\">AUC of each output between "
            + "samples without and with each <code>attr.*</code> label, in the direction that separates them "
            + "(1 = perfect, 0.5 = chance); EER at the output's own threshold.\(more)</p>\n"
            + HTMLPage.table(
                ["attribute", "output", "direction", "AUC", "EER", "n without", "n with"], shown,
                numeric: [3, 4, 5, 6])
    }
}

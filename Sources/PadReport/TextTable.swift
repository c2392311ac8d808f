import Foundation
import PadArchive
import PadVocabulary

/// Left/right-aligned plain-text tables for the terminal.
///
/// Example: `PadReportDocExamples.textTable`
/// in `Tests/PadReportTests/DocExamplesTests.swift` (compiled and run by `swift test`).
package struct TextTable: Sendable {
    package var header: [String]
    package var rows: [[String]]
    package init(header: [String], rows: [[String]]) {
        self.header = header
        self.rows = rows
    }

    /// The table as lines of text. A cell holds at most 200 characters (``MessageText/quote(_:limit:)``,
    /// control characters escaped): a species or id of thousands of characters from the data
    /// would otherwise widen every line of its table to that length.
    package func render() -> String {
        let all = ([header] + rows).map { $0.map { MessageText.quote($0) } }
        var widths = [Int](repeating: 0, count: header.count)
        for row in all {
            for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) }
        }
        func line(_ row: [String]) -> String {
            row.enumerated().map { i, cell in
                let pad = String(repeating: " ", count: max(0, widths[i] - cell.count))
                let numeric = cell.first.map { $0.isNumber || $0 == "-" || $0 == "." } ?? false
                return numeric && i > 0 ? pad + cell : cell + pad
            }.joined(separator: "  ")
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return ([line(all[0]), rule] + all.dropFirst().map(line)).joined(separator: "\n")
    }
}

/// Human formatting of rates and intervals.
package enum RateText {
    /// `0.0312 [0.0101, 0.0712] 3/96`
    package static func proportion(_ value: Double, low: Double, high: Double, errors: Int, total: Int) -> String {
        guard total > 0 else { return "n/a" }
        return "\(fixed(value, 4)) [\(fixed(low, 4)), \(fixed(high, 4))] \(errors)/\(total)"
    }

    /// A rate as percent: one decimal from 1%, two below (0.05%), "n/a" when undefined.
    package static func percent(_ value: Double) -> String {
        guard value.isFinite else { return "n/a" }
        let pct = value * 100
        return (pct != 0 && abs(pct) < 1 ? fixed(pct, 2) : fixed(pct, 1)) + "%"
    }

    /// `3.1% (31/1000)`: the unit of every rate in report.html and the terminal.
    package static func percentWithCount(errors: Int, total: Int) -> String {
        guard total > 0 else { return "n/a (no samples)" }
        return "\(percent(Double(errors) / Double(total))) (\(errors)/\(total))"
    }

    /// A difference of rates in percentage points with its sign: `+2.10 pp`.
    package static func percentagePoints(_ x: Double) -> String { (x >= 0 ? "+" : "") + fixed(x * 100, 2) + " pp" }

    /// `[1.0%, 7.1%]`
    package static func percentInterval(_ low: Double, _ high: Double) -> String {
        "[\(percent(low)), \(percent(high))]"
    }

    /// A figure for a report table (FDR, GARBE, a max/min ratio, an AUC, an EDC area): three
    /// decimals with trailing zeros dropped (`0.333`, `3`, `0.5`), `<0.001` for a smaller non-zero
    /// magnitude, `inf` for an infinite ratio, empty for NaN. The CSV files keep every digit.
    package static func figure(_ value: Double) -> String {
        if value.isNaN { return "" }
        if value.isInfinite { return value > 0 ? "inf" : "-inf" }
        if value != 0 && abs(value) < 0.0005 { return value > 0 ? "<0.001" : ">-0.001" }
        var text = fixed(value, 3)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }

    /// A threshold as a plot's label: 4 significant digits (`291.9`, not the EER midpoint's
    /// `291.9066964052421`, which ran into the next label); summary.csv keeps the exact value.
    package static func plotThreshold(_ t: Double) -> String {
        guard t.isFinite else { return threshold(t) }
        return CSVFormat.number(Double(String(format: "%.4g", t)) ?? t)
    }

    /// A threshold for people: the shortest decimal, or words when it is not finite (a result is
    /// never printed "@ -inf").
    package static func threshold(_ t: Double) -> String {
        if t.isNaN { return "n/a" }
        if t.isInfinite { return t > 0 ? "above every score" : "below every score" }
        return CSVFormat.number(t)
    }

    package static func fixed(_ value: Double, _ digits: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "n/a" : (value > 0 ? "inf" : "-inf") }
        guard abs(value) < 1e12 else { return "\(value)" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let integer = Int(scaled / scale)
        var fraction = String(Int(scaled.truncatingRemainder(dividingBy: scale)))
        fraction = String(repeating: "0", count: max(0, digits - fraction.count)) + fraction
        return (value < 0 && scaled > 0 ? "-" : "") + "\(integer)" + (digits > 0 ? "." + fraction : "")
    }
}

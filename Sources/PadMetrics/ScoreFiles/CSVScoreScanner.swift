#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PadText

/// One pass over a comma-separated score file (generic or bob.pad) held in memory: header, then
/// one row per data line, in named steps on byte offsets. Everything the loop touches is a stored
/// property of this local value (no captured boxes, no exclusivity checks on the hot path).
/// Blank lines and lines starting with `#` are skipped; the first error stops the scan and names
/// file and line.
struct CSVScoreScanner {
    /// What the scan keeps, per data row (species indices are local to this file).
    struct Rows {
        var scores: [Double] = []
        var species: [Int32] = []
        var speciesNames: [String] = []
        var splits: [String] = []
        /// Per row, only when the file has a `subject` column (generic).
        var subjects: [String] = []
        var ids: [String] = []
        /// Only for files with a presentation column (generic `presentation`; bob.pad `test_label`
        /// when `sample_n` makes the ids).
        var presentations: [String] = []
        var lineNumbers: [Int32] = []
        /// Per label column of the header (`group.*`, `attr.*`, generic), its value on each row
        /// ("" = not given), trimmed.
        var labels: [[String]] = []
        /// The label columns' names (lower-cased), set with the first row.
        var labelNames: [String] = []
    }

    /// Column positions from the header (-1: absent).
    struct Columns {
        var names: [String]
        var label: Int, species: Int, score: Int
        var split = -1, id = -1, sample = -1, presentation = -1, subject = -1
        /// `group.<name>` and `attr.<name>` columns (generic): each one's position, in header order.
        var labels: [Int] = []
    }

    /// The columns a generic file may have; any other is an error (a misspelt `split` would
    /// otherwise be ignored and the threshold chosen on the reported set).
    /// Besides these, `group.<name>` and `attr.<name>` columns carry the samples' labels, as a
    /// dataset manifest's do (``isLabelColumn(_:)``).
    static let genericColumns = ["id", "label", "species", "score", "split", "subject", "presentation"]

    /// Whether a (lower-cased) header name is a label column: `group.` or `attr.` and a name.
    /// (The rule of PadDataset's `SampleLabels`, which this module cannot import.)
    static func isLabelColumn(_ name: String) -> Bool {
        for prefix in ["group.", "attr."] where name.hasPrefix(prefix) && name.count > prefix.count { return true }
        return false
    }

    /// Fields recorded per line: the seven generic columns and CelebA-Spoof's 40 attributes, 2
    /// more labels and 3 groups fit with room to spare.
    static let maxFields = 128

    let base: UnsafePointer<UInt8>
    /// Bytes of the file; `base[count]` is a 0 (strtod stops there).
    let count: Int
    let path: String
    let format: ScoreFormat
    let negate: Bool
    let baseName: String
    var rows = Rows()
    var columns: Columns?
    /// Field bounds of the current line (quotes around a field excluded).
    var starts = [Int](repeating: 0, count: maxFields), ends = [Int](repeating: 0, count: maxFields)
    /// Whether each field of the current line was quoted (its `""` then stand for one `"`).
    var fieldWasQuoted = [Bool](repeating: false, count: maxFields)
    var lastSpecies: [UInt8] = [], lastSpeciesIndex: Int32 = -2
    var splitCache: [[UInt8]: String] = [:]
    /// Per label column, one String per distinct text (a label has a handful of values).
    var labelCache: [[[UInt8]: String]] = []
    /// The last non-empty presentation field: where its bytes are, and the string it gave.
    var lastPresentation: (start: Int, length: Int, quoted: Bool, text: String)?
    /// Lines of the file before `base` (a part of a file scanned on its own starts past them).
    let linesBefore: Int

    /// - Parameters:
    ///   - columns: the file's header, for a part that starts after it (then every line is a row).
    ///   - linesBefore: lines of the file before `base`, so rows keep their line numbers.
    init(
        base: UnsafePointer<UInt8>, count: Int, path: String, format: ScoreFormat, negate: Bool,
        columns: Columns? = nil, linesBefore: Int = 0
    ) {
        self.base = base
        self.count = count
        self.columns = columns
        self.linesBefore = linesBefore
        self.path = path
        self.format = format
        self.negate = negate
        self.baseName = ScoreFileReader.baseName(path)
        // Rows are at least ~16 bytes: reserving up front avoids regrowing ten-million-row arrays.
        let expected = count / 16
        rows.scores.reserveCapacity(expected)
        rows.species.reserveCapacity(expected)
        rows.ids.reserveCapacity(expected)
        rows.lineNumbers.reserveCapacity(expected)
    }

    mutating func scan() throws(ScoreFileError) {
        try scan(untilHeader: false)
    }

    /// The header and the offset just past its line (nil when the file is only a header), with
    /// the lines up to there; no row is read.
    mutating func header() throws(ScoreFileError) -> (columns: Columns, end: Int)? {
        let end = try scan(untilHeader: true)
        return end < count ? (columns!, end) : nil
    }

    /// Scans lines from the start; with `untilHeader`, stops after the header and returns the
    /// offset past its line (else `count`).
    @discardableResult
    mutating func scan(untilHeader: Bool) throws(ScoreFileError) -> Int {
        var line = linesBefore, start = 0
        // Up to the header (a part scanned after it has its columns already).
        while columns == nil && start < count {
            line += 1
            guard let (first, last) = nextLine(&start) else { continue }
            // Split first, in a statement of its own: readHeader reads the field bounds it sets.
            let fieldCount = splitFields(first, last)
            columns = try readHeader(fieldCount, line: line)
            if untilHeader { return start }
        }
        // The rows, with the header's columns bound once (not copied out of the optional per row).
        guard let header = columns else { throw ScoreFileError(file: path, line: 0, "empty file, expected a header") }
        while start < count {
            line += 1
            guard let (first, last) = nextLine(&start) else { continue }
            let fieldCount = splitFields(first, last)
            try readRow(fieldCount, columns: header, line: line)
        }
        return count
    }

    /// The bounds of the line at `start` without its CR, moving `start` past its newline; nil for
    /// a blank line or a comment (`#`).
    @inline(__always)
    func nextLine(_ start: inout Int) -> (first: Int, last: Int)? {
        let end = lineEnd(from: start)
        var last = end
        if last > start && base[last - 1] == 0x0D { last -= 1 }
        let first = start
        start = end + 1
        return last == first || base[first] == UInt8(ascii: "#") ? nil : (first, last)
    }

    /// The offset of the next newline at or after `start` (or `count`).
    func lineEnd(from start: Int) -> Int {
        guard let found = memchr(base + start, 0x0A, count - start) else { return count }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }

    /// Records the bounds of the fields of [first, last) (quotes protect commas) and returns how
    /// many fields the line has (only the first ``maxFields`` are recorded).
    mutating func splitFields(_ first: Int, _ last: Int) -> Int {
        var fieldCount = 0, fieldStart = first, quoted = false
        let base = self.base
        // The three bound arrays through buffers taken once per line, not checked per field.
        fieldWasQuoted.withUnsafeMutableBufferPointer { fieldWasQuoted in
            starts.withUnsafeMutableBufferPointer { starts in
                ends.withUnsafeMutableBufferPointer { ends in
                    for i in first...last {
                        if i == last || (base[i] == UInt8(ascii: ",") && !quoted) {
                            if fieldCount < Self.maxFields {
                                var s = fieldStart, e = i
                                let wasQuoted =
                                    e - s >= 2 && base[s] == UInt8(ascii: "\"") && base[e - 1] == UInt8(ascii: "\"")
                                if wasQuoted {
                                    s += 1
                                    e -= 1
                                }
                                fieldWasQuoted[fieldCount] = wasQuoted
                                starts[fieldCount] = s
                                ends[fieldCount] = e
                            }
                            fieldCount += 1
                            fieldStart = i + 1
                        } else if base[i] == UInt8(ascii: "\"") {
                            quoted.toggle()
                        }
                    }
                }
            }
        }
        return fieldCount
    }

    /// A field's text; in a quoted field each `""` is one `"` (RFC 4180, 2.7).
    func text(_ field: Int) -> String {
        let raw = ScoreFileReader.text(base, starts[field], ends[field])
        return fieldWasQuoted[field] ? Self.unescapingQuotes(raw) : raw
    }

    static func unescapingQuotes(_ text: String) -> String {
        let quote = UInt8(ascii: "\"")
        guard text.utf8.contains(quote) else { return text }
        var bytes: [UInt8] = [], pending = false
        for byte in text.utf8 {
            if byte == quote && pending {
                pending = false
                continue
            }
            pending = byte == quote
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    func readHeader(_ fieldCount: Int, line: Int) throws(ScoreFileError) -> Columns {
        let names = (0..<min(fieldCount, Self.maxFields)).map { text($0).trimmingWhitespace().lowercased() }
        let wanted = format == .generic ? ["label", "species", "score"] : ["is_bonafide", "attack_type", "score"]
        let found = wanted.map { names.firstIndex(of: $0) }
        if let missing = found.firstIndex(of: nil) {
            throw ScoreFileError(
                file: path, line: line, "missing column '\(wanted[missing])' in header \(names.joined(separator: ","))")
        }
        var columns = Columns(names: names, label: found[0]!, species: found[1]!, score: found[2]!)
        let generic = format == .generic
        if generic,
            let unknown = names.first(where: { !Self.genericColumns.contains($0) && !Self.isLabelColumn($0) })
        {
            let hint = Suggestion.nearest(to: unknown, in: Self.genericColumns).map { " (did you mean '\($0)'?)" } ?? ""
            throw ScoreFileError(
                file: path, line: line,
                "unknown column '\(ScoreFileError.quoted(unknown))'\(hint); a generic score file has "
                    + Self.genericColumns.joined(separator: ", ") + " and group.<name> / attr.<name> labels")
        }
        if generic {
            columns.labels = names.indices.filter {
                Self.isLabelColumn(names[$0]) && names.firstIndex(of: names[$0]) == $0
            }
        }
        columns.subject = generic ? (names.firstIndex(of: "subject") ?? -1) : -1
        columns.split = generic ? (names.firstIndex(of: "split") ?? -1) : -1
        columns.id = names.firstIndex(of: generic ? "id" : "test_label") ?? -1
        columns.sample = generic ? -1 : (names.firstIndex(of: "sample_n") ?? -1)
        columns.presentation =
            generic ? (names.firstIndex(of: "presentation") ?? -1) : (columns.sample >= 0 ? columns.id : -1)
        return columns
    }

    mutating func readRow(_ fieldCount: Int, columns: Columns, line: Int) throws(ScoreFileError) {
        guard fieldCount == columns.names.count else {
            throw ScoreFileError(file: path, line: line, "\(fieldCount) fields, the header has \(columns.names.count)")
        }
        let isBonaFide = try label(columns.label, line: line)
        let species = isBonaFide ? -1 : try speciesIndex(columns.species, line: line)
        rows.scores.append(try score(columns.score, line: line))
        rows.species.append(species)
        if columns.split >= 0 { appendSplit(columns.split) }
        if columns.subject >= 0 { rows.subjects.append(text(columns.subject).trimmingWhitespace()) }
        if columns.id >= 0 {
            var id = text(columns.id)
            if columns.sample >= 0 { id += "#" + text(columns.sample) }
            rows.ids.append(id)
        } else {
            rows.ids.append("\(baseName):\(line)")
        }
        if columns.presentation >= 0 { rows.presentations.append(presentation(columns.presentation)) }
        if !columns.labels.isEmpty { appendLabels(columns) }
        rows.lineNumbers.append(Int32(clamping: line))
    }

    /// The row's label cells, trimmed, one String per distinct text of each column.
    mutating func appendLabels(_ columns: Columns) {
        if rows.labels.isEmpty {
            rows.labelNames = columns.labels.map { columns.names[$0] }
            rows.labels = Array(repeating: [], count: columns.labels.count)
            labelCache = Array(repeating: [:], count: columns.labels.count)
        }
        for (k, field) in columns.labels.enumerated() {
            let key = Array(UnsafeBufferPointer(start: base + starts[field], count: ends[field] - starts[field]))
            if let cached = labelCache[k][key] {
                rows.labels[k].append(cached)
            } else {
                let value = text(field).trimmingWhitespace()
                labelCache[k][key] = value
                rows.labels[k].append(value)
            }
        }
    }

    /// The row's presentation (its id when the field is empty). Frames of one presentation follow
    /// each other: a field with the same bytes as the row before gives that row's string again,
    /// with no string made and trimmed per frame.
    mutating func presentation(_ field: Int) -> String {
        let start = starts[field], length = ends[field] - start, quoted = fieldWasQuoted[field]
        if let last = lastPresentation, last.quoted == quoted, last.length == length,
            memcmp(base + start, base + last.start, length) == 0
        {
            return last.text
        }
        let text = text(field).trimmingWhitespace()
        guard !text.isEmpty else {
            lastPresentation = nil
            return rows.ids[rows.ids.count - 1]
        }
        lastPresentation = (start, length, quoted, text)
        return text
    }

    /// Whether the label field says bona fide (generic `bonafide`, `live` or `real` / `attack` or
    /// `spoof`, as dataset manifests accept; bob.pad `True`/`False`; in any case).
    func label(_ field: Int, line: Int) throws(ScoreFileError) -> Bool {
        let ls = starts[field], ll = ends[field] - ls
        func matches(_ word: StaticString) -> Bool {
            guard ll == word.utf8CodeUnitCount else { return false }
            let w = word.utf8Start
            for k in 0..<ll where (base[ls + k] | 0x20) != w[k] { return false }
            return true
        }
        if format == .generic {
            if matches("bonafide") || matches("live") || matches("real") { return true }
            if matches("attack") || matches("spoof") { return false }
            throw ScoreFileError(
                file: path, line: line,
                "label '\(TextBytes.quote(text(field)))' must be bonafide (live, real) or attack (spoof)")
        }
        if matches("true") { return true }
        if matches("false") { return false }
        throw ScoreFileError(
            file: path, line: line, "is_bonafide '\(TextBytes.quote(text(field)))' must be True or False")
    }

    /// The file-local species index of an attack row, cached for runs of the same species; an
    /// empty species is an error naming the line (it once became a species named `attack`).
    mutating func speciesIndex(_ field: Int, line: Int) throws(ScoreFileError) -> Int32 {
        let ss = starts[field], sl = ends[field] - ss
        var same = lastSpeciesIndex >= 0 && sl == lastSpecies.count
        if same { for k in 0..<sl where base[ss + k] != lastSpecies[k] { same = false; break } }
        if same { return lastSpeciesIndex }
        let name = text(field).trimmingWhitespace()
        if name.isEmpty {
            throw ScoreFileError(
                file: path, line: line,
                "attack row with an empty \(format == .generic ? "species" : "attack_type"): "
                    + "give its PAI species (print, replay, mask, ...)")
        }
        let index: Int32
        if let known = rows.speciesNames.firstIndex(of: name) {
            index = Int32(known)
        } else {
            index = Int32(rows.speciesNames.count)
            rows.speciesNames.append(name)
        }
        lastSpecies = Array(UnsafeBufferPointer(start: base + ss, count: sl))
        lastSpeciesIndex = index
        return index
    }

    /// The score, negated for attack-high files; empty or `nan` is NaN (a failure to process).
    /// Plain decimals take ``ExactDecimal`` (the same double as strtod); anything else strtod,
    /// which must consume the whole field.
    func score(_ field: Int, line: Int) throws(ScoreFileError) -> Double {
        let cs = starts[field], ce = ends[field]
        guard ce > cs else { return .nan }
        if let value = ExactDecimal.parse(base + cs, count: ce - cs) { return negate ? -value : value }
        var endPointer: UnsafeMutablePointer<CChar>?
        let startPointer = UnsafeMutableRawPointer(mutating: base + cs).assumingMemoryBound(to: CChar.self)
        let value = strtod(startPointer, &endPointer)
        if endPointer.map({ UnsafeRawPointer($0) }) != UnsafeRawPointer(base + ce) {
            throw ScoreFileError(
                file: path, line: line, "score '\(ScoreFileError.quoted(text(field)))' is not a number")
        }
        if value.isInfinite && !TextBytes.isInfinityLiteral(UnsafeBufferPointer(start: base + cs, count: ce - cs)) {
            throw ScoreFileError(
                file: path, line: line,
                "score '\(ScoreFileError.quoted(text(field)))' overflows a double (write inf for an infinite score)")
        }
        return negate ? -value : value
    }

    /// The split text of a row, one String per distinct text.
    mutating func appendSplit(_ field: Int) {
        let key = Array(UnsafeBufferPointer(start: base + starts[field], count: ends[field] - starts[field]))
        if let cached = splitCache[key] {
            rows.splits.append(cached)
        } else {
            let value = text(field)
            splitCache[key] = value
            rows.splits.append(value)
        }
    }
}

import Foundation
import PadImage
import PadText
import PadVocabulary
import PadSamples

/// The manifest layout: `manifest.csv` with header `path,label,species,split,subject[,x,y,w,h]`
/// and an optional `presentation` column, paths relative to the manifest's folder. Each bad line
/// is a problem naming file and line; the remaining lines still load so that `dataset check` can
/// show every problem at once.
///
/// `presentation` names the capture attempt a line is a frame of (frames extracted from one
/// video share it); empty or absent, the line is a presentation of its own. A presentation
/// never spans two labels, species, subjects or splits (``PresentationIndex``). Columns named
/// `group.<name>` and `attr.<name>` are the samples' labels (``SampleLabels``).
enum ManifestLayout {
    static func load(root: String, manifest: String) throws(DatasetProblem) -> LoadedDataset {
        let data = try read(manifest)
        var samples = SampleList(root: root)
        samples.reserveCapacity(data.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) })
        var problems: [DatasetProblem] = []
        // The line of each sample (for "names the same file as line N") and an index of the ids
        // seen, instead of a dictionary of every id string.
        var lines: [Int32] = []
        var seen = IDIndex()
        var presentations = PresentationIndex()
        var potential = AttackPotentialColumn()
        var columns: Columns?, labels = SampleLabels()
        var headerProblem: DatasetProblem?
        let realRoot = realPath(root) ?? root
        // A U+FFFD in a path of a manifest that is not valid UTF-8 stands for bytes that were not
        // text: a file name that cannot be opened under that id.
        let isUTF8 = String(validating: data, as: UTF8.self) != nil
        do {
            try CSVReader.forEachRecord(data, comments: true) { record in
                guard let known = columns else {
                    if headerProblem == nil {
                        do throws(DatasetProblem) {
                            columns = try Columns(header: (record.line, record.fields), manifest: manifest)
                            labels = SampleLabels(names: columns?.labels.map(\.name) ?? [])
                        } catch { headerProblem = error }
                    }
                    return
                }
                do throws(DatasetProblem) {
                    let sample = try parse(
                        (record.line, record.fields), columns: known, root: root, realRoot: realRoot,
                        manifest: manifest, isUTF8: isUTF8)
                    if let first = seen.firstOrInsert(sample.id, next: samples.count, in: samples) {
                        throw duplicate(
                            sample.id, line: record.line, of: samples.id(first), line: Int(lines[first]), manifest)
                    }
                    try checkPresentation(
                        sample, of: samples, lines: lines, line: record.line, index: &presentations, manifest: manifest)
                    try potential.add(
                        record.fields, columns: known, sample: sample, line: record.line, manifest: manifest)
                    samples.append(sample)
                    lines.append(Int32(truncatingIfNeeded: record.line))
                    labels.append(record.fields, columns: known, id: sample.id)
                } catch {
                    problems.append(error)
                }
            }
        } catch {
            throw DatasetProblem(.badLine, file: manifest, line: error.line, error.message)
        }
        if let headerProblem { throw headerProblem }
        guard columns != nil else { throw DatasetProblem(.badLine, file: manifest, line: 1, "empty manifest") }
        var loaded = LoadedDataset(root: root, layout: .manifest, samples: samples, problems: problems)
        loaded.attackPotential = potential.levels.mapValues(\.level)
        loaded.labels = labels
        return loaded
    }

    /// The manifest's bytes, or the problem naming it.
    static func read(_ manifest: String) throws(DatasetProblem) -> [UInt8] {
        do { return try RegularFile.read(manifest) } catch {
            throw DatasetProblem(.missingFile, file: manifest, "cannot read the manifest: \(error.message)")
        }
    }

    /// The problem when `sample` (on `line`) is of a presentation whose first line has another
    /// label, species, subject or split.
    static func checkPresentation(
        _ sample: Sample, of samples: SampleList, lines: [Int32], line: Int, index: inout PresentationIndex,
        manifest: String
    ) throws(DatasetProblem) {
        let conflict = index.add(sample.presentation, row: samples.count) { first in
            let other = samples[first]
            if other.label.isBonaFide != sample.label.isBonaFide { return "label" }
            if other.label != sample.label { return "species" }
            if other.subject != sample.subject { return "subject" }
            return other.split != sample.split ? "split" : nil
        }
        guard let conflict else { return }
        let other = samples[conflict.first]
        func value(_ s: Sample) -> String {
            switch conflict.attribute {
            case "label": return s.label.csvLabel
            case "species": return s.label.species ?? ""
            case "subject": return s.subject
            default: return s.split.rawValue
            }
        }
        throw DatasetProblem(
            .badLine, file: manifest, line: line,
            "presentation '\(TextBytes.quote(sample.presentation))' spans two \(conflict.plural): "
                + "'\(TextBytes.quote(value(sample)))' on line \(line), "
                + "'\(TextBytes.quote(value(other)))' on line \(lines[conflict.first])"
        )
    }

    /// Where each column is: the five required ones and, when all four are present, the face box.
    struct Columns {
        static let required = ["path", "label", "species", "split", "subject"]
        let index: [String: Int]
        let count: Int
        let box: [Int]?
        /// The optional `presentation` and `attack_potential` columns.
        let presentation: Int?
        let attackPotential: Int?
        /// `group.<name>` and `attr.<name>` columns (``SampleLabels``), in header order.
        let labels: [(name: String, index: Int)]

        init(header: (line: Int, fields: [String]), manifest: String) throws(DatasetProblem) {
            var index: [String: Int] = [:]
            for (i, field) in header.fields.enumerated() {
                let name = field.trimmingCharacters(in: .whitespaces).lowercased()
                // Names compare trimmed and lower-cased: `group.Age` and `group.age ` are one column,
                // and which of the two a reader took would be a guess.
                if let first = index[name], !name.isEmpty {
                    throw DatasetProblem(
                        .badLine, file: manifest, line: header.line,
                        "column '\(TextBytes.quote(name, limit: 80))' appears twice in the header "
                            + "(fields \(first + 1) and \(i + 1))")
                }
                if index[name] == nil { index[name] = i }
            }
            self.index = index
            for name in Self.required where index[name] == nil {
                throw DatasetProblem(
                    .badLine, file: manifest, line: header.line,
                    "missing column '\(name)' (header must be path,label,species,split,subject[,x,y,w,h])")
            }
            count = header.fields.count
            let boxColumns = ["x", "y", "w", "h"].compactMap { index[$0] }
            box = boxColumns.count == 4 ? boxColumns : nil
            presentation = index["presentation"]
            attackPotential = index["attack_potential"]
            labels = header.fields.enumerated().compactMap { i, field in
                let name = field.trimmingCharacters(in: .whitespaces).lowercased()
                return SampleLabels.isLabelColumn(name) && index[name] == i ? (name, i) : nil
            }
        }
    }

    /// A line whose id an earlier line has: the same bytes (the same file named twice), or the
    /// same text in another Unicode normalization.
    static func duplicate(_ id: String, line: Int, of first: String, line firstLine: Int, _ manifest: String)
        -> DatasetProblem
    {
        DatasetProblem(
            .duplicateID, file: manifest, line: line,
            Array(first.utf8) == Array(id.utf8)
                ? "line \(line) names the same file as line \(firstLine): '\(TextBytes.quote(id))'"
                : LoadedDataset.twinMessage(id, of: "line \(firstLine)"))
    }

    /// One manifest line as a sample, or the problem (with the line) that keeps it out.
    static func parse(
        _ record: (line: Int, fields: [String]), columns: Columns, root: String, realRoot: String,
        manifest: String, isUTF8: Bool = true
    ) throws(DatasetProblem) -> Sample {
        let f = record.fields
        func problem(_ kind: DatasetProblem.Kind, _ message: String) -> DatasetProblem {
            DatasetProblem(kind, file: manifest, line: record.line, message)
        }
        guard f.count == columns.count else {
            throw problem(.badLine, "\(f.count) fields, the header has \(columns.count)")
        }
        func field(_ name: String) -> String { f[columns.index[name]!].trimmingCharacters(in: .whitespaces) }
        let written = field("path")
        // A NUL ends the name for the C library: `a.jpg\0x` and `a.jpg\0y` would open one file
        // under two ids.
        if written.utf8.contains(0) {
            throw problem(
                .badLine,
                "path '\(TextBytes.quote(written.replacingOccurrences(of: "\0", with: "\\0")))' holds a NUL byte")
        }
        if !isUTF8 && written.contains("\u{FFFD}") {
            throw problem(
                .badLine, "path '\(TextBytes.quote(written))': name is not UTF-8 (write the manifest in UTF-8)")
        }
        guard let path = normalised(written) else {
            throw problem(
                .escapesRoot, "path '\(TextBytes.quote(written))' must be relative and stay inside the dataset folder")
        }
        if let target = leavesRoot(root: realRoot, path: root + "/" + path) {
            throw problem(
                .escapesRoot,
                "path '\(TextBytes.quote(written))' is a symbolic link to "
                    + "'\(TextBytes.quote(target))', outside the dataset folder"
            )
        }
        let label = try parseLabel(field("label"), species: field("species"), problem: problem)
        guard let split = Split(parsing: field("split")) else {
            throw problem(
                .badLine, "unknown split '\(TextBytes.quote(field("split")))' (expected train, dev, eval or empty)")
        }
        var box: Box?
        if let boxColumns = columns.box {
            box = try parseBox(boxColumns.map { f[$0].trimmingCharacters(in: .whitespaces) }, problem: problem)
        }
        let presentation = columns.presentation.map { f[$0].trimmingCharacters(in: .whitespaces) } ?? ""
        return Sample(
            id: path, path: root + "/" + path, label: label, split: split, subject: field("subject"), faceBox: box,
            presentation: presentation.isEmpty ? nil : presentation)
    }

    /// `bonafide` (or bona_fide, bona-fide, live, real) or `attack`/`spoof` with a species.
    static func parseLabel(
        _ text: String, species: String,
        problem: (DatasetProblem.Kind, String) -> DatasetProblem
    ) throws(DatasetProblem) -> Label {
        switch text.lowercased() {
        case "bonafide", "bona_fide", "bona-fide", "live", "real":
            return .bonaFide
        case "attack", "spoof":
            guard !species.isEmpty else { throw problem(.unknownLabel, "attack without a species") }
            return .attack(species: species)
        default:
            throw problem(.unknownLabel, "unknown label '\(TextBytes.quote(text))' (expected bonafide or attack)")
        }
    }

    /// x, y, w, h all empty (no box) or four numbers that pass ``FaceBoxCheck``.
    static func parseBox(_ texts: [String], problem: (DatasetProblem.Kind, String) -> DatasetProblem)
        throws(DatasetProblem) -> Box?
    {
        if texts.allSatisfy(\.isEmpty) { return nil }
        let numbers = texts.compactMap(Double.init)
        guard numbers.count == 4 else { throw problem(.badLine, "face box x,y,w,h must be four numbers with w, h > 0") }
        let given = Box(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
        if let message = FaceBoxCheck.problem(given) { throw problem(.badLine, message) }
        return given
    }

    /// The relative path in one spelling: `./a//b/./c.jpg` is `a/b/c.jpg`; nil for an empty or
    /// absolute path or one with `..` (it could leave the dataset folder).
    static func normalised(_ path: String) -> String? {
        guard !path.isEmpty, !path.hasPrefix("/") else { return nil }
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
        guard !parts.isEmpty, !parts.contains("..") else { return nil }
        return parts.joined(separator: "/")
    }

    /// Where `path` really leads when that is outside `root` (a symbolic link leaving the
    /// dataset folder); nil when it stays inside or does not exist (missing files are reported
    /// by `dataset check`).
    static func leavesRoot(root: String, path: String) -> String? {
        guard let target = realPath(path) else { return nil }
        return target == root || target.hasPrefix(root.hasSuffix("/") ? root : root + "/") ? nil : target
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

/// A manifest's `attack_potential` column: each attack line may name its species' level (ISO/IEC
/// 30107-3:2023 attack potential); one species has one level, or the line is a problem naming
/// both lines.
struct AttackPotentialColumn {
    var levels: [String: (level: String, line: Int)] = [:]

    mutating func add(
        _ fields: [String], columns: ManifestLayout.Columns, sample: Sample, line: Int, manifest: String
    ) throws(DatasetProblem) {
        guard let column = columns.attackPotential, let species = sample.label.species else { return }
        let level = fields[column].trimmingCharacters(in: .whitespaces)
        guard !level.isEmpty else { return }
        if let known = levels[species], known.level != level {
            throw DatasetProblem(
                .badLine, file: manifest, line: line,
                "species '\(TextBytes.quote(species))' has attack potential '\(TextBytes.quote(level))' here and "
                    + "'\(TextBytes.quote(known.level))' on line \(known.line)")
        }
        if levels[species] == nil { levels[species] = (level, line) }
    }
}

extension SampleLabels {
    /// Appends the `group.*` / `attr.*` cells of one manifest line (trimmed), when it has any.
    mutating func append(_ fields: [String], columns: ManifestLayout.Columns, id: String) {
        guard !columns.labels.isEmpty else { return }
        append(id: id, values: columns.labels.map { fields[$0.index].trimmingCharacters(in: .whitespaces) })
    }
}

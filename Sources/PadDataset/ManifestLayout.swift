import Foundation
import PadImage
import PadText

/// The manifest layout: `manifest.csv` with header `path,label,species,split,subject[,x,y,w,h]`,
/// paths relative to the manifest's folder. Each bad line is a problem naming file and line; the
/// remaining lines still load so that `dataset check` can show every problem at once.
enum ManifestLayout {
    static func load(root: String, manifest: String) throws(DatasetProblem) -> LoadedDataset {
        let data: [UInt8]
        do { data = try RegularFile.read(manifest) } catch {
            throw DatasetProblem(.missingFile, file: manifest, "cannot read the manifest: \(error.message)")
        }
        var samples = SampleList(root: root)
        samples.reserveCapacity(data.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) })
        var problems: [DatasetProblem] = []
        // The line of each sample (for "names the same file as line N") and an index of the ids
        // seen, instead of a dictionary of every id string.
        var lines: [Int32] = []
        var seen = IDIndex()
        var columns: Columns?
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
                        } catch { headerProblem = error }
                    }
                    return
                }
                do throws(DatasetProblem) {
                    let sample = try parse(
                        (record.line, record.fields), columns: known, root: root, realRoot: realRoot,
                        manifest: manifest, isUTF8: isUTF8)
                    if let first = seen.firstOrInsert(sample.id, next: samples.count, in: samples) {
                        throw DatasetProblem(
                            .duplicateID, file: manifest, line: record.line,
                            "line \(record.line) names the same file as line \(lines[first]): "
                                + "'\(TextBytes.quote(sample.id))'"
                        )
                    }
                    samples.append(sample)
                    lines.append(Int32(truncatingIfNeeded: record.line))
                } catch {
                    problems.append(error)
                }
            }
        } catch {
            throw DatasetProblem(.badLine, file: manifest, line: error.line, error.message)
        }
        if let headerProblem { throw headerProblem }
        guard columns != nil else { throw DatasetProblem(.badLine, file: manifest, line: 1, "empty manifest") }
        return LoadedDataset(root: root, layout: .manifest, samples: samples, problems: problems)
    }

    /// Where each column is: the five required ones and, when all four are present, the face box.
    struct Columns {
        static let required = ["path", "label", "species", "split", "subject"]
        let index: [String: Int]
        let count: Int
        let box: [Int]?

        init(header: (line: Int, fields: [String]), manifest: String) throws(DatasetProblem) {
            let index = Dictionary(
                header.fields.enumerated().map { ($1.trimmingCharacters(in: .whitespaces).lowercased(), $0) },
                uniquingKeysWith: { first, _ in first })
            self.index = index
            for name in Self.required where index[name] == nil {
                throw DatasetProblem(
                    .badLine, file: manifest, line: header.line,
                    "missing column '\(name)' (header must be path,label,species,split,subject[,x,y,w,h])")
            }
            count = header.fields.count
            let boxColumns = ["x", "y", "w", "h"].compactMap { index[$0] }
            box = boxColumns.count == 4 ? boxColumns : nil
        }
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
            throw problem(.badLine, "unknown split '\(field("split"))' (expected train, dev, eval or empty)")
        }
        var box: Box?
        if let boxColumns = columns.box {
            box = try parseBox(boxColumns.map { f[$0].trimmingCharacters(in: .whitespaces) }, problem: problem)
        }
        return Sample(
            id: path, path: root + "/" + path, label: label, split: split, subject: field("subject"), faceBox: box)
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
            throw problem(.unknownLabel, "unknown label '\(text)' (expected bonafide or attack)")
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

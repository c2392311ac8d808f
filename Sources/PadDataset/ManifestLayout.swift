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
        let records = try CSVLines.parse(data, path: manifest)
        guard let header = records.first else { throw DatasetProblem(.badLine, file: manifest, line: 1, "empty manifest") }
        let required = ["path", "label", "species", "split", "subject"]
        let columns = Dictionary(header.fields.enumerated().map { ($1.trimmingCharacters(in: .whitespaces).lowercased(), $0) },
                                 uniquingKeysWith: { first, _ in first })
        for name in required where columns[name] == nil {
            throw DatasetProblem(.badLine, file: manifest, line: header.line,
                                 "missing column '\(name)' (header must be path,label,species,split,subject[,x,y,w,h])")
        }
        let boxColumns = ["x", "y", "w", "h"].map { columns[$0] }
        let hasBox = boxColumns.allSatisfy { $0 != nil }
        var samples: [Sample] = []
        var problems: [DatasetProblem] = []
        var seen: [String: Int] = [:]
        let realRoot = realPath(root) ?? root
        for record in records.dropFirst() {
            let f = record.fields
            func field(_ name: String) -> String { f[columns[name]!].trimmingCharacters(in: .whitespaces) }
            guard f.count == header.fields.count else {
                problems.append(DatasetProblem(.badLine, file: manifest, line: record.line,
                                               "\(f.count) fields, the header has \(header.fields.count)"))
                continue
            }
            let written = field("path")
            guard let path = normalised(written) else {
                problems.append(DatasetProblem(.escapesRoot, file: manifest, line: record.line,
                                               "path '\(TextBytes.quote(written))' must be relative and stay inside the dataset folder"))
                continue
            }
            if let target = leavesRoot(root: realRoot, path: root + "/" + path) {
                problems.append(DatasetProblem(.escapesRoot, file: manifest, line: record.line,
                                               "path '\(TextBytes.quote(written))' is a symbolic link to '\(TextBytes.quote(target))', outside the dataset folder"))
                continue
            }
            let label: Label
            switch field("label").lowercased() {
            case "bonafide", "bona_fide", "bona-fide", "live", "real":
                label = .bonaFide
            case "attack", "spoof":
                let species = field("species")
                guard !species.isEmpty else {
                    problems.append(DatasetProblem(.unknownLabel, file: manifest, line: record.line, "attack without a species"))
                    continue
                }
                label = .attack(species: species)
            default:
                problems.append(DatasetProblem(.unknownLabel, file: manifest, line: record.line,
                                               "unknown label '\(field("label"))' (expected bonafide or attack)"))
                continue
            }
            guard let split = Split(parsing: field("split")) else {
                problems.append(DatasetProblem(.badLine, file: manifest, line: record.line,
                                               "unknown split '\(field("split"))' (expected train, dev, eval or empty)"))
                continue
            }
            var box: Box?
            if hasBox {
                let texts = boxColumns.map { f[$0!].trimmingCharacters(in: .whitespaces) }
                if texts.allSatisfy(\.isEmpty) {
                    box = nil
                } else {
                    let numbers = texts.compactMap(Double.init)
                    guard numbers.count == 4 else {
                        problems.append(DatasetProblem(.badLine, file: manifest, line: record.line,
                                                       "face box x,y,w,h must be four numbers with w, h > 0"))
                        continue
                    }
                    let given = Box(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
                    if let problem = FaceBoxCheck.problem(given) {
                        problems.append(DatasetProblem(.badLine, file: manifest, line: record.line, problem))
                        continue
                    }
                    box = given
                }
            }
            if let first = seen[path] {
                problems.append(DatasetProblem(.duplicateID, file: manifest, line: record.line,
                                               "line \(record.line) names the same file as line \(first): '\(TextBytes.quote(path))'"))
                continue
            }
            seen[path] = record.line
            samples.append(Sample(id: path, path: root + "/" + path, label: label, split: split,
                                  subject: field("subject"), faceBox: box))
        }
        return LoadedDataset(root: root, layout: .manifest, samples: samples, problems: problems)
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

import Foundation
import PadImage

/// The manifest layout: `manifest.csv` with header `path,label,species,split,subject[,x,y,w,h]`,
/// paths relative to the manifest's folder. Each bad line is a problem naming file and line; the
/// remaining lines still load so that `dataset check` can show every problem at once.
enum ManifestLayout {
    static func load(root: String, manifest: String) throws(DatasetProblem) -> LoadedDataset {
        guard let data = FileManager.default.contents(atPath: manifest) else {
            throw DatasetProblem(.missingFile, file: manifest, "cannot read the manifest")
        }
        let records = try CSVLines.parse(Array(data), path: manifest)
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
        for record in records.dropFirst() {
            let f = record.fields
            func field(_ name: String) -> String { f[columns[name]!].trimmingCharacters(in: .whitespaces) }
            guard f.count == header.fields.count else {
                problems.append(DatasetProblem(.badLine, file: manifest, line: record.line,
                                               "\(f.count) fields, the header has \(header.fields.count)"))
                continue
            }
            let path = field("path")
            if path.isEmpty || path.hasPrefix("/") || path.split(separator: "/").contains("..") {
                problems.append(DatasetProblem(.escapesRoot, file: manifest, line: record.line,
                                               "path '\(path)' must be relative and stay inside the dataset folder"))
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
                    guard numbers.count == 4, numbers.allSatisfy(\.isFinite), numbers[2] > 0, numbers[3] > 0 else {
                        problems.append(DatasetProblem(.badLine, file: manifest, line: record.line,
                                                       "face box x,y,w,h must be four numbers with w, h > 0"))
                        continue
                    }
                    box = Box(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
                }
            }
            if let first = seen[path] {
                problems.append(DatasetProblem(.duplicateID, file: manifest, line: record.line,
                                               "duplicate path '\(path)' (first on line \(first))"))
                continue
            }
            seen[path] = record.line
            samples.append(Sample(id: path, path: root + "/" + path, label: label, split: split,
                                  subject: field("subject"), faceBox: box))
        }
        return LoadedDataset(root: root, layout: .manifest, samples: samples, problems: problems)
    }
}

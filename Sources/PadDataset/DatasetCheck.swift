import Foundation
import PadImage
import PadText

/// What `padbench dataset check` reports: counts by label, species, split and subject, and every
/// problem (loader problems, missing files, images that fail to decode, duplicate content).
///
/// Example: `PadDatasetDocExamples.loaderAndCheck`
/// in `Tests/PadDatasetTests/DocExamplesTests.swift` (compiled and run by `swift test`).
public struct DatasetCheck: Sendable {
    public var dataset: LoadedDataset
    public var byLabel: [String: Int] = [:]
    public var bySpecies: [String: Int] = [:]
    public var bySplit: [String: Int] = [:]
    public var bySubject: [String: Int] = [:]
    public var problems: [DatasetProblem]

    /// Decodes every image (to find damaged ones) and hashes its bytes (FNV-1a 64) to find
    /// duplicates; `decode: false` only checks that files exist.
    public static func run(_ dataset: LoadedDataset, decode: Bool = true, decoder: ImageDecoder = ImageDecoder())
        -> DatasetCheck
    {
        var check = DatasetCheck(dataset: dataset, problems: dataset.problems)
        var firstWithHash: [UInt64: String] = [:]
        let realRoot = ManifestLayout.realPath(dataset.root) ?? dataset.root
        for sample in dataset.samples {
            check.byLabel[sample.label.csvLabel, default: 0] += 1
            if let species = sample.label.species { check.bySpecies[species, default: 0] += 1 }
            check.bySplit[sample.split == .none ? "(none)" : sample.split.rawValue, default: 0] += 1
            if !sample.subject.isEmpty { check.bySubject[sample.subject, default: 0] += 1 }
            if let target = ManifestLayout.leavesRoot(root: realRoot, path: sample.path) {
                check.problems.append(
                    DatasetProblem(
                        .escapesRoot, file: sample.path,
                        "symbolic link to '\(TextBytes.quote(target))', "
                            + "outside the dataset folder (sample \(sample.id))"
                    ))
                continue
            }
            let bytes: [UInt8]
            // The decoder's read: bounded by its byte limit, never more than stat announced.
            do { bytes = try decoder.read(sample.path) } catch {
                if case .missingFile(_, let reason) = error {
                    check.problems.append(
                        DatasetProblem(
                            .missingFile, file: sample.path, "missing or unreadable: \(reason) (sample \(sample.id))"))
                } else {
                    check.problems.append(
                        DatasetProblem(.undecodable, file: sample.path, "\(error.statusCode): \(error)"))
                }
                continue
            }
            let hash = FNV1a.hash(bytes: bytes)
            if let first = firstWithHash[hash] {
                check.problems.append(DatasetProblem(.duplicateContent, file: sample.path, "same bytes as \(first)"))
            } else {
                firstWithHash[hash] = sample.id
            }
            if decode {
                do { _ = try decoder.decode(bytes) } catch {
                    check.problems.append(
                        DatasetProblem(.undecodable, file: sample.path, "\(error.statusCode): \(error)"))
                }
            }
        }
        return check
    }

    public var text: String {
        func section(_ title: String, _ counts: [String: Int]) -> String {
            guard !counts.isEmpty else { return "" }
            return "\(title):\n"
                + counts.sorted { $0.key < $1.key }.map { "  \($0.key): \($0.value)" }.joined(separator: "\n") + "\n"
        }
        var out = "dataset \(dataset.root) (layout \(dataset.layout.rawValue)): \(dataset.samples.count) samples\n"
        out += section("label", byLabel) + section("species", bySpecies) + section("split", bySplit)
        if bySubject.count <= 50 {
            out += section("subject", bySubject)
        } else {
            out += "subjects: \(bySubject.count)\n"
        }
        out +=
            problems.isEmpty
            ? "no problems found\n"
            : "\(problems.count) problem(s):\n" + problems.map { "  \($0)" }.joined(separator: "\n") + "\n"
        return out
    }
}

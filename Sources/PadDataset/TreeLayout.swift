import Foundation
import PadText
import PadVocabulary
import PadSamples

/// The directory-tree layout: `[split/]bonafide/**/*.jpg` and `[split/]attack/<species>/**/*.jpg`
/// (images or videos).
/// Ids are paths relative to the root; samples are sorted by id so runs are reproducible (a video's
/// frames follow in frame order, expanded after sorting).
/// A file that is a symbolic link leading outside the dataset folder (to `/proc/self/pagemap`,
/// `/etc/shadow`, another user's data) is an `escapes_root` problem and no sample, as in the
/// manifest layout.
enum TreeLayout {
    static func load(root: String) -> LoadedDataset {
        var samples = SampleList(root: root)
        var problems: [DatasetProblem] = []
        let fm = FileManager.default
        let realRoot = ManifestLayout.realPath(root) ?? root
        for split in [Split.none, .train, .dev, .eval] {
            let base = split == .none ? "" : split.rawValue + "/"
            for labelFolder in ["bonafide", "attack"] {
                let folder = root + "/" + base + labelFolder
                guard let walker = fm.enumerator(atPath: folder) else { continue }
                while let relative = walker.nextObject() as? String {
                    let ext = (relative as NSString).pathExtension.lowercased()
                    guard DatasetLoader.mediaExtensions.contains(ext) else { continue }
                    let id = base + labelFolder + "/" + relative
                    // Foundation gives a name that is not UTF-8 with U+FFFD in place of its bytes: an
                    // id no file has. Refused by name, never measured as a missing file.
                    if relative.contains("\u{FFFD}") && !fm.fileExists(atPath: folder + "/" + relative) {
                        problems.append(
                            DatasetProblem(
                                .badLayout, file: root + "/" + id, "name is not UTF-8 (rename the file or its folder)"))
                        continue
                    }
                    if let target = ManifestLayout.leavesRoot(root: realRoot, path: root + "/" + id) {
                        problems.append(
                            DatasetProblem(
                                .escapesRoot, file: id,
                                "symbolic link to '\(TextBytes.quote(target))', outside the dataset folder"))
                        continue
                    }
                    let label: Label
                    if labelFolder == "bonafide" {
                        label = .bonaFide
                    } else {
                        let parts = relative.split(separator: "/")
                        guard parts.count >= 2 else {
                            problems.append(
                                DatasetProblem(
                                    .unknownLabel, file: id, "attack image not inside an attack/<species>/ folder"))
                            continue
                        }
                        label = .attack(species: String(parts[0]))
                    }
                    samples.append(Sample(id: id, path: root + "/" + id, label: label, split: split))
                }
            }
        }
        samples = samples.sortedByID()
        return LoadedDataset(root: root, layout: .tree, samples: samples, problems: problems)
    }
}

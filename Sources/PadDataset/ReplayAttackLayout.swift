import Foundation
import PadVideo
import PadVocabulary
import PadSamples

/// Idiap's Replay-Attack (Chingovska et al., BIOSIG 2012) and Replay-Mobile (Costa-Pazo et al.,
/// BIOSIG 2016): `<split>/real/*.mov` bona fide and `<split>/attack/{fixed,hand}/*.mov` attacks,
/// `<split>` being `train`, `devel` (dev) or `test` (eval); `enroll/` holds enrolment videos (not
/// PAD data) and is skipped. Subjects are the `client<NNN>` of each name. The species is read from
/// the name: `print` (a printed photo), else `replay-video` (a video shown on a screen: `video`
/// in the name) or `replay-photo` (a photo shown on a screen: `photo` in the name); a name with
/// none of these is a problem naming the file. `fixed` and `hand` are the attack support (on a
/// stand or held), not the species. Every video is one presentation.
enum ReplayAttackLayout {
    static let splits = ["train", "devel", "test"]

    static func load(root: String) -> LoadedDataset {
        var samples: [Sample] = []
        var problems: [DatasetProblem] = []
        for folder in splits {
            let split = Split(parsing: folder) ?? .none
            for labelFolder in ["real", "attack"] {
                guard let walker = FileManager.default.enumerator(atPath: root + "/" + folder + "/" + labelFolder)
                else { continue }
                while let inner = walker.nextObject() as? String {
                    guard
                        VideoFiles.isVideo(inner)
                            || DatasetLoader.imageExtensions.contains(
                                (inner as NSString).pathExtension.lowercased())
                    else { continue }
                    let relative = folder + "/" + labelFolder + "/" + inner
                    let name = (inner as NSString).lastPathComponent.lowercased()
                    let label: Label
                    if labelFolder == "real" {
                        label = .bonaFide
                    } else if let species = species(name) {
                        label = .attack(species: species)
                    } else {
                        problems.append(
                            DatasetProblem(
                                .unknownLabel, file: relative,
                                "attack name says neither print, photo nor video (Replay-Attack / Replay-Mobile)"))
                        continue
                    }
                    samples.append(
                        Sample(
                            id: relative, path: root + "/" + relative, label: label, split: split,
                            subject: subject(name)))
                }
            }
        }
        samples.sort { $0.id < $1.id }
        return LoadedDataset(root: root, layout: .replayAttack, samples: samples, problems: problems)
    }

    static func species(_ name: String) -> String? {
        if name.contains("print") { return "print" }
        if name.contains("video") { return "replay-video" }
        if name.contains("photo") { return "replay-photo" }
        return nil
    }

    /// `client001` in the name, else "".
    static func subject(_ name: String) -> String {
        guard let range = name.range(of: "client[0-9]+", options: .regularExpression) else { return "" }
        return String(name[range])
    }
}

import Foundation
import PadVideo

/// Loads a dataset folder in one of the ``DatasetLayout``s.
///
/// Example: `PadDatasetDocExamples.loaderAndCheck`
/// in `Tests/PadDatasetTests/DocExamplesTests.swift` (compiled and run by `swift test`).
/// Auto-detection: a `manifest.csv` at the root means `manifest`; `Data/` with
/// `metas/intra_test/` means CelebA-Spoof; `Protocols/` means OULU-NPU; `train/real/` (or `devel/`,
/// `test/`) means Replay-Attack / Replay-Mobile; `bonafide/` and `attack/`
/// folders (directly or under split folders) mean `tree`. A missing folder is an error.
package struct DatasetLoader: Sendable {
    package static let imageExtensions: Set<String> = ["jpg", "jpeg", "png", "ppm", "pgm"]
    /// Still images and videos (`avi`, `mov`, `mp4`, `mkv`, `webm`).
    package static let mediaExtensions = imageExtensions.union(VideoFiles.extensions)

    /// OULU-NPU protocol (1-4) and fold (1-6, protocols 3 and 4).
    package var ouluProtocol: Int?
    package var ouluFold: Int?
    /// Which frames of each video become samples, and the limits a video must meet.
    package var video: VideoOptions

    package init(ouluProtocol: Int? = nil, ouluFold: Int? = nil, video: VideoOptions = VideoOptions()) {
        self.ouluProtocol = ouluProtocol
        self.ouluFold = ouluFold
        self.video = video
    }

    package func load(_ root: String, layout: DatasetLayout? = nil) throws(DatasetProblem) -> LoadedDataset {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw DatasetProblem(.missingFile, file: root, "dataset folder not found")
        }
        let chosen: DatasetLayout
        if let layout { chosen = layout } else { chosen = try detectLayout(root) }
        let listed: LoadedDataset
        switch chosen {
        case .manifest: listed = try ManifestLayout.load(root: root, manifest: root + "/manifest.csv")
        case .tree: listed = TreeLayout.load(root: root)
        case .celebASpoof: return CelebASpoofLayout.load(root: root)
        case .ouluNPU: listed = OuluNPULayout.load(root: root, protocolNumber: ouluProtocol, fold: ouluFold)
        case .replayAttack: listed = ReplayAttackLayout.load(root: root)
        }
        return listed.withoutCanonicalTwins().expandingVideos(video)
    }

    package func detectLayout(_ root: String) throws(DatasetProblem) -> DatasetLayout {
        let fm = FileManager.default
        if fm.fileExists(atPath: root + "/manifest.csv") { return .manifest }
        if fm.fileExists(atPath: root + "/metas/intra_test") && fm.fileExists(atPath: root + "/Data") {
            return .celebASpoof
        }
        if fm.fileExists(atPath: root + "/Protocols") { return .ouluNPU }
        if ReplayAttackLayout.splits.contains(where: { fm.fileExists(atPath: root + "/" + $0 + "/real") }) {
            return .replayAttack
        }
        let tops = ["", "/train", "/dev", "/eval"]
        if tops.contains(where: {
            fm.fileExists(atPath: root + $0 + "/bonafide") || fm.fileExists(atPath: root + $0 + "/attack")
        }) {
            return .tree
        }
        throw DatasetProblem(
            .badLayout, file: root,
            "cannot tell the layout: no manifest.csv, no bonafide/ or attack/ folder (pass --layout)")
    }
}

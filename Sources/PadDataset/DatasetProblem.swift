import PadText
import PadSamples

/// Something wrong with a dataset, located by file and line (line 0 when the whole file is meant).
package struct DatasetProblem: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Kind: String, Sendable {
        case missingFile = "missing_file"
        case badLine = "bad_line"
        case unknownLabel = "unknown_label"
        case duplicateID = "duplicate_id"
        case escapesRoot = "escapes_root"
        case badLayout = "bad_layout"
        case undecodable = "undecodable"
        case duplicateContent = "duplicate_content"
    }

    package var kind: Kind
    package var file: String
    package var line: Int
    package var message: String

    package init(_ kind: Kind, file: String, line: Int = 0, _ message: String) {
        self.kind = kind
        self.file = file
        self.line = line
        self.message = message
    }

    package var description: String {
        // A file name comes from the dataset (a manifest's path column): at most 200 characters of it.
        let name = TextBytes.quote(file)
        return line > 0 ? "\(name):\(line): \(message)" : "\(name): \(message)"
    }
}

/// The samples of a dataset and the problems found while loading it.
package struct LoadedDataset: Sendable {
    package var root: String
    package var layout: DatasetLayout
    /// Compact: about 35 bytes a sample (``SampleList``); element `i` is a ``Sample``.
    package var samples: SampleList
    /// Problems that make the listing untrustworthy (a bad manifest line, a path escaping the
    /// root). `bench` refuses to start when there are any; `dataset check` prints them all.
    package var problems: [DatasetProblem]
    /// Every video the listing named, with its frame counts or why it cannot be opened (such a
    /// video is one failed sample, not a problem: `bench` records it and goes on).
    package var videos: [VideoEntry] = []
    /// The frame sampling and limits the videos were listed with (measuring applies the same).
    package var videoOptions = VideoOptions()
    /// PAI species -> attack potential level, from a manifest's optional `attack_potential`
    /// column (empty otherwise).
    package var attackPotential: [String: String] = [:]
    /// `group.*` and `attr.*` labels of the samples (manifest columns, CelebA-Spoof's attributes);
    /// empty when the layout gives none.
    package var labels = SampleLabels()

    package init(root: String, layout: DatasetLayout, samples: SampleList, problems: [DatasetProblem]) {
        self.root = root
        self.layout = layout
        self.samples = samples
        self.problems = problems
    }

    package init(root: String, layout: DatasetLayout, samples: [Sample], problems: [DatasetProblem]) {
        self.init(root: root, layout: layout, samples: SampleList(samples, root: root), problems: problems)
    }

    /// The folder's name, for run names and reports.
    package var name: String {
        let trimmed = root.hasSuffix("/") ? String(root.dropLast()) : root
        return trimmed.split(separator: "/").last.map(String.init) ?? "dataset"
    }
}

/// The ways a dataset can be laid out on disk.
package enum DatasetLayout: String, Sendable, CaseIterable {
    /// `bonafide/**` and `attack/<species>/**`, optionally under `train|dev|eval/`.
    case tree
    /// `manifest.csv`: `path,label,species,split,subject[,x,y,w,h]`.
    case manifest
    /// CelebA-Spoof: `Data/{train,test}/...`, `metas/intra_test/*_label.json`, `_BB.txt` boxes.
    case celebASpoof = "celeba-spoof"
    /// OULU-NPU videos (`Train_files/`, `Dev_files/`, `Test_files/`) or frames extracted from them,
    /// with `Protocols/Protocol_<p>/` lists.
    case ouluNPU = "oulu-npu"
    /// Idiap's Replay-Attack and Replay-Mobile: `train|devel|test/real/` and
    /// `train|devel|test/attack/fixed|hand/` videos; `enroll/` is not PAD data and is skipped.
    case replayAttack = "replay-attack"
}

extension LoadedDataset {
    /// The listing with its videos expanded into frame samples (``VideoFrames``), still images
    /// unchanged; ``videos`` lists every video.
    func expandingVideos(_ options: VideoOptions) -> LoadedDataset {
        let (samples, videos, clashes) = VideoFrames.expand(self.samples, options: options)
        var expanded = self
        expanded.samples = samples
        expanded.videos = videos
        expanded.videoOptions = options
        for clash in clashes {
            let hash = clash.frameID.lastIndex(of: "#") ?? clash.frameID.endIndex
            let video = String(clash.frameID[..<hash]), frame = clash.frameID[hash...].dropFirst()
            expanded.problems.append(
                DatasetProblem(
                    .duplicateID, file: clash.still.path,
                    "the still image's id '\(TextBytes.quote(clash.still.id))' is also the id of a video frame "
                        + "(frame \(frame) of the video listed as '\(TextBytes.quote(video))'); rename the file"))
        }
        return expanded
    }
}

extension LoadedDataset {
    /// Ids are compared as Unicode text everywhere (Swift's `==`: canonical equivalence), so two
    /// files whose names differ only in normalization (`café` as NFC and as NFD, two files on
    /// Linux) would be one key in every table keyed by id: labels merged, a comparison pairing
    /// the wrong rows. The later one is a `duplicate_id` problem instead of a sample. Only ids with
    /// a non-ASCII byte can have such a twin, so only those are looked at.
    func withoutCanonicalTwins() -> LoadedDataset {
        var seen: [String: Int] = [:]
        var twins: [Int: Int] = [:]
        for i in samples.indices where samples.id(i).utf8.contains(where: { $0 >= 0x80 }) {
            let id = samples.id(i)
            if let first = seen[id] { twins[i] = first } else { seen[id] = i }
        }
        guard !twins.isEmpty else { return self }
        var kept = self
        kept.samples = SampleList(samples.indices.filter { twins[$0] == nil }.map { samples[$0] }, root: root)
        for (later, first) in twins.sorted(by: { $0.key < $1.key }) {
            kept.problems.append(
                DatasetProblem(
                    .duplicateID, file: samples.id(later),
                    Self.twinMessage(samples.id(later), of: "'\(TextBytes.quote(samples.id(first)))'")))
        }
        return kept
    }

    /// Why an id that equals an earlier one only as Unicode text is refused.
    static func twinMessage(_ id: String, of first: String) -> String {
        "'\(TextBytes.quote(id))' is \(first) in another Unicode normalization (NFC and NFD bytes of the "
            + "same text); padbench compares ids as text, so rename one of the two files"
    }
}

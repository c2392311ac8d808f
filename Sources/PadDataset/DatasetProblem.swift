/// Something wrong with a dataset, located by file and line (line 0 when the whole file is meant).
public struct DatasetProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable {
        case missingFile = "missing_file"
        case badLine = "bad_line"
        case unknownLabel = "unknown_label"
        case duplicateID = "duplicate_id"
        case escapesRoot = "escapes_root"
        case badLayout = "bad_layout"
        case undecodable = "undecodable"
        case duplicateContent = "duplicate_content"
    }

    public var kind: Kind
    public var file: String
    public var line: Int
    public var message: String

    public init(_ kind: Kind, file: String, line: Int = 0, _ message: String) {
        self.kind = kind
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String {
        line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)"
    }
}

/// The samples of a dataset and the problems found while loading it.
public struct LoadedDataset: Sendable {
    public var root: String
    public var layout: DatasetLayout
    /// Compact: about 35 bytes a sample (``SampleList``); element `i` is a ``Sample``.
    public var samples: SampleList
    /// Problems that make the listing untrustworthy (a bad manifest line, a path escaping the
    /// root). `bench` refuses to start when there are any; `dataset check` prints them all.
    public var problems: [DatasetProblem]
    /// PAI species -> attack potential level, from a manifest's optional `attack_potential`
    /// column (empty otherwise).
    public var attackPotential: [String: String] = [:]

    public init(root: String, layout: DatasetLayout, samples: SampleList, problems: [DatasetProblem]) {
        self.root = root
        self.layout = layout
        self.samples = samples
        self.problems = problems
    }

    public init(root: String, layout: DatasetLayout, samples: [Sample], problems: [DatasetProblem]) {
        self.init(root: root, layout: layout, samples: SampleList(samples, root: root), problems: problems)
    }

    /// The folder's name, for run names and reports.
    public var name: String {
        let trimmed = root.hasSuffix("/") ? String(root.dropLast()) : root
        return trimmed.split(separator: "/").last.map(String.init) ?? "dataset"
    }
}

/// The ways a dataset can be laid out on disk.
public enum DatasetLayout: String, Sendable, CaseIterable {
    /// `bonafide/**` and `attack/<species>/**`, optionally under `train|dev|eval/`.
    case tree
    /// `manifest.csv`: `path,label,species,split,subject[,x,y,w,h]`.
    case manifest
    /// CelebA-Spoof: `Data/{train,test}/...`, `metas/intra_test/*_label.json`, `_BB.txt` boxes.
    case celebASpoof = "celeba-spoof"
    /// OULU-NPU extracted frames with `Protocols/Protocol_<p>/` lists.
    case ouluNPU = "oulu-npu"
}

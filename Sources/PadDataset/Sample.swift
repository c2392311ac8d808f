import PadImage

/// The ground truth of one presentation (ISO/IEC 30107-3): bona fide, or an attack made with a
/// presentation attack instrument (PAI) of some species.
///
/// Example: `PadDatasetDocExamples.label`
/// in `Tests/PadDatasetTests/DocExamplesTests.swift` (compiled and run by `swift test`).
public enum Label: Sendable, Hashable, Codable, CustomStringConvertible {
    case bonaFide
    case attack(species: String)

    public var isBonaFide: Bool { if case .bonaFide = self { return true } else { return false } }

    /// The PAI species, or `nil` for bona fide.
    public var species: String? {
        if case .attack(let species) = self { return species }
        return nil
    }

    /// `bonafide` or `attack`, as written in CSV files.
    public var csvLabel: String { isBonaFide ? "bonafide" : "attack" }

    public var description: String {
        switch self {
        case .bonaFide: return "bonafide"
        case .attack(let species): return "attack(\(species))"
        }
    }
}

/// Dataset partitions of the usual train / dev / eval protocol. Calibration happens on `dev`,
/// results are reported on `eval`; `train` is for trainable estimators.
public enum Split: String, Sendable, Hashable, Codable, CaseIterable {
    case train, dev, eval
    /// The sample carries no split (the whole dataset is one evaluation set).
    case none = ""

    /// Parses common spellings: `test` is `eval`, `devel`/`val`/`validation` are `dev`.
    public init?(parsing text: String) {
        switch text.lowercased() {
        case "train", "training": self = .train
        case "dev", "devel", "development", "val", "valid", "validation": self = .dev
        case "eval", "test", "evaluation": self = .eval
        case "", "-", "none": self = .none
        default: return nil
        }
    }
}

/// One labelled image of a dataset: a still image, or one frame of a video or burst.
///
/// ISO/IEC 30107-3 counts presentations (one capture attempt, one decision), not frames. Every
/// sample belongs to one presentation, named by ``presentation``: a still image is a
/// presentation of its own (the presentation id defaults to the sample id); the frames of one
/// video share the video's presentation id and carry their ``frameIndex`` (0-based, in decode
/// order) and ``timestamp`` (seconds from the stream's start). A presentation never spans two
/// labels, species, subjects or splits (``PresentationCheck``).
public struct Sample: Sendable, Hashable, Codable {
    /// Stable identifier: the path relative to the dataset root, unless the layout names ids.
    /// Unique in a dataset: two frames of one video have two ids (``frameID(presentation:frameIndex:)``).
    public var id: String
    /// Absolute (or working-directory relative) path of the image (or video) file.
    public var path: String
    public var label: Label
    public var split: Split
    /// Subject (person) identifier, when the dataset gives one; used to keep splits disjoint.
    public var subject: String
    /// A face box shipped with the dataset (CelebA-Spoof `_BB.txt`, manifest columns), in pixels
    /// of the image as decoded.
    public var faceBox: Box?
    /// The presentation (capture attempt) this sample is a frame of; the sample's own id for a
    /// still image.
    public var presentation: String
    /// The frame's number in its presentation (0-based, decode order), nil for a still image.
    public var frameIndex: Int?
    /// The frame's presentation time stamp in seconds from the stream's start, nil when unknown.
    public var timestamp: Double?

    public init(
        id: String, path: String, label: Label, split: Split = .none, subject: String = "", faceBox: Box? = nil,
        presentation: String? = nil, frameIndex: Int? = nil, timestamp: Double? = nil
    ) {
        self.id = id
        self.path = path
        self.label = label
        self.split = split
        self.subject = subject
        self.faceBox = faceBox
        self.presentation = presentation ?? id
        self.frameIndex = frameIndex
        self.timestamp = timestamp
    }

    /// The id of frame `frameIndex` of a video whose presentation id is `presentation` (the
    /// video's path relative to the dataset root): `clip.avi#12`.
    public static func frameID(presentation: String, frameIndex: Int) -> String { "\(presentation)#\(frameIndex)" }

    /// True when the sample is a presentation of its own (a still image).
    public var isOwnPresentation: Bool { presentation == id && frameIndex == nil }
}

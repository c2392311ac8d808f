import PadVocabulary

/// One labelled image of a dataset: a still image, or one frame of a video or burst.
///
/// ISO/IEC 30107-3 counts presentations (one capture attempt, one decision), not frames. Every
/// sample belongs to one presentation, named by ``presentation``: a still image is a
/// presentation of its own (the presentation id defaults to the sample id); the frames of one
/// video share the video's presentation id and carry their ``frameIndex`` (0-based, in decode
/// order) and ``timestamp`` (seconds from the stream's start). A presentation never spans two
/// labels, species, subjects or splits (``PresentationCheck``).
package struct Sample: Sendable, Hashable, Codable {
    /// Stable identifier: the path relative to the dataset root, unless the layout names ids.
    /// Unique in a dataset: two frames of one video have two ids (``frameID(presentation:frameIndex:)``).
    package var id: String
    /// Absolute (or working-directory relative) path of the image (or video) file.
    package var path: String
    package var label: Label
    package var split: Split
    /// Subject (person) identifier, when the dataset gives one; used to keep splits disjoint.
    package var subject: String
    /// A face box shipped with the dataset (CelebA-Spoof `_BB.txt`, manifest columns), in pixels
    /// of the image as decoded.
    package var faceBox: Box?
    /// The presentation (capture attempt) this sample is a frame of; the sample's own id for a
    /// still image.
    package var presentation: String
    /// The frame's number in its presentation (0-based, decode order), nil for a still image.
    package var frameIndex: Int?
    /// The frame's presentation time stamp in seconds from the stream's start, nil when unknown.
    package var timestamp: Double?

    package init(
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
    package static func frameID(presentation: String, frameIndex: Int) -> String { "\(presentation)#\(frameIndex)" }

    /// True when the sample is a presentation of its own (a still image).
    package var isOwnPresentation: Bool { presentation == id && frameIndex == nil }
}

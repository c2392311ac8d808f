import PadVocabulary

/// The samples of a dataset, stored column by column so that a million of them fit in about
/// 35 MB: ids in one byte buffer (``StringColumn``), species and subjects as 32-bit codes into
/// their distinct names, splits as one byte, and the path only when it is not the dataset root
/// followed by the id (every layout but odd CelebA-Spoof files names images that way). Face
/// boxes take a 32-bit slot per sample only once a sample has one.
///
/// Reading element `i` makes the ``Sample`` (its id and path as new `String`s); ``id(_:)``
/// gives the id alone.
///
/// ```swift
/// var samples = SampleList(root: "data")
/// samples.append(Sample(id: "a.jpg", path: "data/a.jpg", label: .bonaFide))
/// let path = samples[0].path      // "data/a.jpg" (rebuilt from the root and the id)
/// ```
package struct SampleList: RandomAccessCollection, Sendable, ExpressibleByArrayLiteral {
    /// Paths are `pathPrefix + id` unless ``otherPaths`` names the sample.
    package let pathPrefix: String
    private var ids = StringColumn()
    private var species: [Int32] = []
    private var speciesNames = InternedStrings()
    package private(set) var splits: [Split] = []
    private var subjects = InternedStrings()
    private var otherPaths: [Int32: String] = [:]
    private var boxSlots: [Int32] = []
    private var boxes: [Box] = []
    /// Presentation codes, made only once a sample is not a presentation of its own (still-image
    /// datasets never pay for them); then every sample has one.
    private var presentations: InternedStrings?
    /// Frame index (-1 = none) and time stamp (NaN = none), made with the first frame of a video.
    private var frames: [Int32] = []
    private var times: [Double] = []

    /// - Parameter root: the dataset folder; a sample's path is stored only when it is not
    ///   `root + "/" + id`.
    package init(root: String) { pathPrefix = root + "/" }

    package init(_ samples: some Sequence<Sample>, root: String = "") {
        self.init(root: root)
        for sample in samples { append(sample) }
    }

    package init(arrayLiteral samples: Sample...) { self.init(samples) }

    package var startIndex: Int { 0 }
    package var endIndex: Int { ids.count }

    package subscript(i: Int) -> Sample {
        let id = ids[i]
        let code = species[i]
        var box: Box?
        if !boxSlots.isEmpty, boxSlots[i] >= 0 { box = boxes[Int(boxSlots[i])] }
        return Sample(
            id: id, path: otherPaths[Int32(i)] ?? pathPrefix + id,
            label: code < 0 ? .bonaFide : .attack(species: speciesNames.names[Int(code)]), split: splits[i],
            subject: subjects[i], faceBox: box, presentation: presentations?[i],
            frameIndex: frames.isEmpty || frames[i] < 0 ? nil : Int(frames[i]),
            timestamp: times.isEmpty || times[i].isNaN ? nil : times[i])
    }

    /// The id of sample `i` (no path is built).
    package func id(_ i: Int) -> String { ids[i] }

    // The columns a measurement table shares instead of copying them (bench on a million
    // samples keeps each id once): the arrays themselves, not copies, as long as nobody mutates.

    /// Every sample's id.
    package var idColumn: StringColumn { ids }
    /// Per sample: index into ``speciesNameList`` for attacks, -1 for bona fide.
    package var speciesCodes: [Int32] { species }
    /// The attack species in order of first appearance.
    package var speciesNameList: [String] { speciesNames.names }
    /// Every sample's subject ("" when unknown).
    package var subjectColumn: InternedStrings { subjects }
    /// Every sample's presentation id, nil when every sample is a presentation of its own (a
    /// still-image dataset).
    package var presentationColumn: InternedStrings? { presentations }
    /// True when some sample is a frame of a presentation of several samples or of a video:
    /// `samples.csv` then carries the `presentation`, `frame` and `time` columns.
    package var hasPresentations: Bool { presentations != nil || !frames.isEmpty }
    /// Every sample's frame index (-1 for a still image), empty when no sample is a frame.
    package var frameIndexColumn: [Int32] { frames }
    /// Every sample's time stamp in seconds (NaN when unknown), empty when no sample has one.
    package var timestampColumn: [Double] { times }

    package mutating func append(_ sample: Sample) {
        let i = Int32(ids.count)
        ids.append(sample.id)
        species.append(sample.label.species.map { speciesNames.code(of: $0) } ?? -1)
        splits.append(sample.split)
        subjects.append(sample.subject)
        if sample.path != pathPrefix + sample.id { otherPaths[i] = sample.path }
        if let box = sample.faceBox {
            if boxSlots.isEmpty { boxSlots = Array(repeating: -1, count: Int(i)) }
            boxSlots.append(Int32(boxes.count))
            boxes.append(box)
        } else if !boxSlots.isEmpty {
            boxSlots.append(-1)
        }
        appendPresentation(sample, number: Int(i))
    }

    /// The presentation, frame index and time stamp of sample `number` (just appended); the
    /// columns are made when the first sample needs them, filled for the samples before it.
    private mutating func appendPresentation(_ sample: Sample, number: Int) {
        if presentations == nil && sample.presentation != sample.id {
            var made = InternedStrings()
            made.reserveCapacity(number + 1)
            for k in 0..<number { made.append(ids[k]) }
            presentations = made
        }
        presentations?.append(sample.presentation)
        // Tested on the count, not on emptiness: when the first sample is a frame, the column
        // made for the samples before it is empty.
        if sample.frameIndex != nil && frames.count < number { frames = Array(repeating: -1, count: number) }
        if sample.frameIndex != nil || !frames.isEmpty {
            frames.append(sample.frameIndex.map { Int32(clamping: $0) } ?? -1)
        }
        if sample.timestamp != nil && times.count < number { times = Array(repeating: .nan, count: number) }
        if sample.timestamp != nil || !times.isEmpty { times.append(sample.timestamp ?? .nan) }
    }

    package mutating func reserveCapacity(_ count: Int) {
        ids.reserveCapacity(count)
        species.reserveCapacity(count)
        splits.reserveCapacity(count)
        subjects.reserveCapacity(count)
    }

    /// The samples `isIncluded` accepts, in order, as a list of their own (a shard).
    package func subset(where isIncluded: (Sample) throws -> Bool) rethrows -> SampleList {
        var kept = SampleList(root: String(pathPrefix.dropLast()))
        for sample in self where try isIncluded(sample) { kept.append(sample) }
        return kept
    }

    /// Sorted by id (`String` order), as layouts that walk folders list their samples.
    package func sortedByID() -> SampleList {
        let order = indices.sorted { ids[$0] < ids[$1] }
        var sorted = SampleList(root: String(pathPrefix.dropLast()))
        sorted.reserveCapacity(count)
        for i in order { sorted.append(self[i]) }
        return sorted
    }
}

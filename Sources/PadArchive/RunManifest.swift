import Foundation
import PadText
import PadVocabulary

/// `manifest.json` of a result archive: everything needed to know what produced the numbers
/// and whether two archives can be compared (tool version, conventions, dataset fingerprint,
/// estimator versions and parameters, profiles, machine, times).
///
/// Example: `PadArchiveDocExamples.manifestRoundTrip`
/// in `Tests/PadArchiveTests/DocExamplesTests.swift` (compiled and run by `swift test`).
public struct RunManifest: Codable, Sendable, Equatable {
    /// Bumped when the archive layout or a CSV's columns change meaning.
    public static let currentSchema = 2

    public struct Tool: Codable, Sendable, Equatable {
        public var name: String
        public var version: String
        public var commandLine: [String]
        public init(name: String = "padbench", version: String, commandLine: [String]) {
            self.name = name; self.version = version; self.commandLine = commandLine
        }
    }

    public struct Dataset: Codable, Sendable, Equatable {
        public var name: String
        public var path: String
        public var layout: String
        /// Sum of per-sample FNV-1a 64 hashes of id, label, species and split, plus, for a frame
        /// or a member of a group, the hash of its presentation and frame index
        /// (``presentationsFingerprint``), in hex: equal fingerprints mean the same labelled
        /// samples grouped into the same presentations, whatever was measured or scored on them;
        /// shard fingerprints add up.
        public var fingerprint: String
        /// The presentations' part of ``fingerprint`` (the sum of
        /// ``FNV1a/presentationHash(id:presentation:frame:)``), so the rows of `decisions.csv`
        /// (which name no presentation) can be checked against the rest. Nil when every sample is
        /// its own presentation, and in archives written before presentations were fingerprinted:
        /// their ``fingerprint`` is the samples' alone, and readers check it that way.
        public var presentationsFingerprint: String?
        public var samples: Int
        /// `k/n` when this run measured one shard, else empty.
        public var shard: String
        /// Fingerprint of what was measured or scored (statuses and every output value, per sample
        /// id): equal only for the same measurements.
        public var outputsFingerprint: String?
        /// For a shard: the whole dataset's fingerprint (so `merge` refuses shards of different data).
        public var wholeDatasetFingerprint: String?
        public init(
            name: String, path: String, layout: String, fingerprint: String, samples: Int, shard: String = "",
            outputsFingerprint: String? = nil, wholeDatasetFingerprint: String? = nil,
            presentationsFingerprint: String? = nil
        ) {
            self.name = name; self.path = path; self.layout = layout; self.fingerprint = fingerprint
            self.samples = samples; self.shard = shard; self.outputsFingerprint = outputsFingerprint
            self.wholeDatasetFingerprint = wholeDatasetFingerprint
            self.presentationsFingerprint = presentationsFingerprint
        }
    }

    public struct Estimator: Codable, Sendable, Equatable {
        public var name: String
        public var version: String
        public var parameters: [String: String]
        public var outputs: [OutputDescriptor]
        /// One-time set-up (cascade loading, model loading), reported apart from per-sample time.
        public var coldStartNanoseconds: UInt64
        public init(
            name: String, version: String, parameters: [String: String], outputs: [OutputDescriptor],
            coldStartNanoseconds: UInt64
        ) {
            self.name = name; self.version = version; self.parameters = parameters; self.outputs = outputs
            self.coldStartNanoseconds = coldStartNanoseconds
        }
    }

    public struct Machine: Codable, Sendable, Equatable {
        public var hostname: String
        public var operatingSystem: String
        public var processors: Int
        public var memoryBytes: UInt64
        public var concurrency: Int
        public init(hostname: String, operatingSystem: String, processors: Int, memoryBytes: UInt64, concurrency: Int) {
            self.hostname = hostname; self.operatingSystem = operatingSystem; self.processors = processors
            self.memoryBytes = memoryBytes; self.concurrency = concurrency
        }

        public static func current(concurrency: Int) -> Machine {
            let info = ProcessInfo.processInfo
            return Machine(
                hostname: info.hostName, operatingSystem: info.operatingSystemVersionString,
                processors: info.activeProcessorCount, memoryBytes: info.physicalMemory,
                concurrency: concurrency)
        }
    }

    public struct Times: Codable, Sendable, Equatable {
        public var started: String
        public var finished: String
        public var wallSeconds: Double
        public init(started: String, finished: String, wallSeconds: Double) {
            self.started = started; self.finished = finished; self.wallSeconds = wallSeconds
        }
    }

    public var schema: Int
    /// `bench` (measured here), `eval` (decided on imported scores or a stored archive), `import`, `merge`.
    public var kind: String
    public var tool: Tool
    public var conventions: [String: String]
    public var dataset: Dataset
    public var estimators: [Estimator]
    /// Profile names; their YAML is stored in the archive under `profiles/<name>.yaml`.
    public var profiles: [String]
    public var machine: Machine
    public var times: Times
    public var counts: [String: Int]
    /// Per profile name: its definition hash and its estimator options key ("" = defaults).
    public var profileDefinitions: [String: String]?
    public var profileOptions: [String: String]?
    /// PAI species -> attack potential level (`--attack-potential`, a manifest's
    /// `attack_potential` column); absent when none was given.
    public var attackPotential: [String: String]?
    /// Options of a measuring run that change its measurements but belong to no estimator's
    /// parameters: `max_pixels` (`bench --max-pixels`). `merge` refuses shards that differ here as
    /// it refuses shards whose estimators differ. Absent in archives written before it was recorded.
    public var measurementOptions: [String: String]?
    /// The output columns of `samples.csv` in order, each as its estimator, output and variant
    /// (`{"estimator": "face", "output": "count", "variant": "dataset_box"}`): readers take the
    /// columns from here instead of splitting header text. Absent in archives written before it
    /// was recorded; their headers are parsed once (``PadDataset/ColumnKey/init(header:)``).
    public var columns: [ColumnKey]?

    public init(
        schema: Int = RunManifest.currentSchema, kind: String, tool: Tool, conventions: [String: String],
        dataset: Dataset, estimators: [Estimator], profiles: [String], machine: Machine, times: Times,
        counts: [String: Int]
    ) {
        self.schema = schema; self.kind = kind; self.tool = tool; self.conventions = conventions
        self.dataset = dataset; self.estimators = estimators; self.profiles = profiles; self.machine = machine
        self.times = times; self.counts = counts
    }

    /// Pretty, key-sorted JSON so that manifests diff well.
    public func encoded() throws -> [UInt8] {
        Array(try JSONCoding.encoder().encode(self)) + [0x0A]
    }

    public static func decode(from bytes: [UInt8]) throws -> RunManifest {
        try JSONCoding.decoder().decode(RunManifest.self, from: Data(bytes))
    }
}

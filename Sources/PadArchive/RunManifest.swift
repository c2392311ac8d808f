import Foundation
import PadText
import PadVocabulary

/// `manifest.json` of a result archive: everything needed to know what produced the numbers
/// and whether two archives can be compared (tool version, conventions, dataset fingerprint,
/// estimator versions and parameters, profiles, machine, times).
///
/// Example: `PadArchiveDocExamples.manifestRoundTrip`
/// in `Tests/PadArchiveTests/DocExamplesTests.swift` (compiled and run by `swift test`).
package struct RunManifest: Codable, Sendable, Equatable {
    /// Bumped when the archive layout or a CSV's columns change meaning.
    package static let currentSchema = 2

    package struct Tool: Codable, Sendable, Equatable {
        package var name: String
        package var version: String
        package var commandLine: [String]
        package init(name: String = "padbench", version: String, commandLine: [String]) {
            self.name = name; self.version = version; self.commandLine = commandLine
        }
    }

    package struct Dataset: Codable, Sendable, Equatable {
        package var name: String
        package var path: String
        package var layout: String
        /// Sum of per-sample FNV-1a 64 hashes of id, label, species and split, plus, for a frame
        /// or a member of a group, the hash of its presentation and frame index
        /// (``presentationsFingerprint``), in hex: equal fingerprints mean the same labelled
        /// samples grouped into the same presentations, whatever was measured or scored on them;
        /// shard fingerprints add up.
        package var fingerprint: String
        /// The presentations' part of ``fingerprint`` (the sum of
        /// ``FNV1a/presentationHash(id:presentation:frame:)``), so the rows of `decisions.csv`
        /// (which name no presentation) can be checked against the rest. Nil when every sample is
        /// its own presentation, and in archives written before presentations were fingerprinted:
        /// their ``fingerprint`` is the samples' alone, and readers check it that way.
        package var presentationsFingerprint: String?
        package var samples: Int
        /// `k/n` when this run measured one shard, else empty.
        package var shard: String
        /// Fingerprint of what was measured or scored (statuses and every output value, per sample
        /// id): equal only for the same measurements.
        package var outputsFingerprint: String?
        /// For a shard: the whole dataset's fingerprint (so `merge` refuses shards of different data).
        package var wholeDatasetFingerprint: String?
        package init(
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

    package struct Estimator: Codable, Sendable, Equatable {
        package var name: String
        package var version: String
        package var parameters: [String: String]
        package var outputs: [OutputDescriptor]
        /// One-time set-up (cascade loading, model loading), reported apart from per-sample time.
        package var coldStartNanoseconds: UInt64
        package init(
            name: String, version: String, parameters: [String: String], outputs: [OutputDescriptor],
            coldStartNanoseconds: UInt64
        ) {
            self.name = name; self.version = version; self.parameters = parameters; self.outputs = outputs
            self.coldStartNanoseconds = coldStartNanoseconds
        }
    }

    package struct Machine: Codable, Sendable, Equatable {
        package var hostname: String
        package var operatingSystem: String
        package var processors: Int
        package var memoryBytes: UInt64
        package var concurrency: Int
        package init(hostname: String, operatingSystem: String, processors: Int, memoryBytes: UInt64, concurrency: Int)
        {
            self.hostname = hostname; self.operatingSystem = operatingSystem; self.processors = processors
            self.memoryBytes = memoryBytes; self.concurrency = concurrency
        }

        package static func current(concurrency: Int) -> Machine {
            let info = ProcessInfo.processInfo
            return Machine(
                hostname: info.hostName, operatingSystem: info.operatingSystemVersionString,
                processors: info.activeProcessorCount, memoryBytes: info.physicalMemory,
                concurrency: concurrency)
        }
    }

    package struct Times: Codable, Sendable, Equatable {
        package var started: String
        package var finished: String
        package var wallSeconds: Double
        package init(started: String, finished: String, wallSeconds: Double) {
            self.started = started; self.finished = finished; self.wallSeconds = wallSeconds
        }
    }

    package var schema: Int
    /// `bench` (measured here), `eval` (decided on imported scores or a stored archive), `import`, `merge`.
    package var kind: String
    package var tool: Tool
    package var conventions: [String: String]
    package var dataset: Dataset
    package var estimators: [Estimator]
    /// Profile names; their YAML is stored in the archive under `profiles/<name>.yaml`.
    package var profiles: [String]
    package var machine: Machine
    package var times: Times
    package var counts: [String: Int]
    /// Per profile name: its definition hash and its estimator options key ("" = defaults).
    package var profileDefinitions: [String: String]?
    package var profileOptions: [String: String]?
    /// PAI species -> attack potential level (`--attack-potential`, a manifest's
    /// `attack_potential` column); absent when none was given.
    package var attackPotential: [String: String]?
    /// Options of a measuring run that change its measurements but belong to no estimator's
    /// parameters: `max_pixels` (`bench --max-pixels`). `merge` refuses shards that differ here as
    /// it refuses shards whose estimators differ. Absent in archives written before it was recorded.
    package var measurementOptions: [String: String]?
    /// The output columns of `samples.csv` in order, each as its estimator, output and variant
    /// (`{"estimator": "face", "output": "count", "variant": "dataset_box"}`): readers take the
    /// columns from here instead of splitting header text. Absent in archives written before it
    /// was recorded; their headers are parsed once (``PadDataset/ColumnKey/init(header:)``).
    package var columns: [ColumnKey]?

    package init(
        schema: Int = RunManifest.currentSchema, kind: String, tool: Tool, conventions: [String: String],
        dataset: Dataset, estimators: [Estimator], profiles: [String], machine: Machine, times: Times,
        counts: [String: Int]
    ) {
        self.schema = schema; self.kind = kind; self.tool = tool; self.conventions = conventions
        self.dataset = dataset; self.estimators = estimators; self.profiles = profiles; self.machine = machine
        self.times = times; self.counts = counts
    }

    /// Pretty, key-sorted JSON so that manifests diff well.
    package func encoded() throws -> [UInt8] {
        Array(try JSONCoding.encoder().encode(self)) + [0x0A]
    }

    package static func decode(from bytes: [UInt8]) throws -> RunManifest {
        try JSONCoding.decoder().decode(RunManifest.self, from: Data(bytes))
    }
}

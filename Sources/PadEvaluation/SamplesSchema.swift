import PadArchive
import PadSamples
import PadText
import PadVocabulary

/// The one definition of `samples.csv`: its columns by role (which sample, its status, its
/// outputs, its timing), the header a run writes, where a stored file's roles are, and each row's
/// fields. Every writer (`bench`'s journal, `import`, `eval --scores`' fast writer) builds its
/// header and rows from a schema, and every reader (resume, `eval --archive`, `merge`, `compare`,
/// the fingerprint check) finds its columns through ``init(header:path:)``, so a new per-sample
/// column is one new ``Role``.
///
/// ```swift
/// let schema = SamplesSchema.measured(outputs: ["quality.sharpness"], steps: ["quality"], presentations: false)
/// let read = try SamplesSchema(header: schema.header, path: "samples.csv")
/// assert(read == schema && read.column(.output("quality.sharpness")) == 8)
/// ```
/// The four columns that name a sample (id, label, species, split) must be in every stored file;
/// status, error and decode are needed only to rebuild a ``MeasurementTable``, so their absence is
/// reported by ``outputColumns(path:)``, after the archive itself has been checked.
package struct SamplesSchema: Sendable, Equatable {
    /// What a column holds. Outputs and timing steps carry their names; the others are fixed.
    package enum Role: Sendable, Hashable {
        case id, path, label, species, split, subject
        /// Written only for datasets of videos or frame groups: absent, every sample is a
        /// presentation of its own.
        case presentation, frame, time
        case status, error
        /// An estimator's (or an import's) output, named `<estimator>.<output>[@<options>]`.
        case output(String)
        /// Decode nanoseconds, then each estimator's (`<step>_ns`).
        case decode
        case step(String)
        /// CPU nanoseconds of the measuring thread in a step (`cpu.<step>_ns`, `cpu.decode_ns`):
        /// written after the wall-clock steps, for decode and each estimator that computes in
        /// padbench's process (an external program's CPU is its own process's).
        case cpu(String)
        /// A column no role claims (a newer writer's): kept in the header, read by nothing.
        case other(String)

        /// The column's name in the header.
        package var columnName: String {
            switch self {
            case .id: "id"
            case .path: "path"
            case .label: "label"
            case .species: "species"
            case .split: "split"
            case .subject: "subject"
            case .presentation: "presentation"
            case .frame: "frame"
            case .time: "time"
            case .status: "status"
            case .error: "error"
            case .output(let name), .other(let name): name
            case .decode: "decode_ns"
            case .step(let name): name + SamplesSchema.nanosecondsSuffix
            case .cpu(let name): SamplesSchema.cpuPrefix + name + SamplesSchema.nanosecondsSuffix
            }
        }

        /// The fixed roles, by their column names.
        static let named: [String: Role] = Dictionary(
            uniqueKeysWithValues: [
                Role.id, .path, .label, .species, .split, .subject, .presentation, .frame, .time,
                .status, .error, .decode,
            ].map { ($0.columnName, $0) })
    }

    /// The layout of `samples.csv` is versioned with the manifest that describes the run (a file
    /// is only ever read beside its manifest, ``RunManifest/currentSchema``): one number to bump.
    package static var version: Int { RunManifest.currentSchema }

    /// Suffix of a timing column: nanoseconds of one step for one sample.
    package static let nanosecondsSuffix = "_ns"
    /// Prefix of a CPU-time column; step names never hold a dot, so `cpu.face_ns` is no step's.
    package static let cpuPrefix = "cpu."

    /// The columns `samples.csv` has after `subject` when the dataset has presentations.
    package static let presentationRoles: [Role] = [.presentation, .frame, .time]

    package let roles: [Role]
    package let header: [String]
    /// Column of each fixed role; required ones are checked when reading.
    package let id: Int, label: Int, species: Int, split: Int
    package let path: Int?, status: Int?, error: Int?, decode: Int?, subject: Int?
    package let presentation: Int?, frame: Int?, time: Int?
    /// Columns of the outputs and of the timing steps (decode first, when present), in file order.
    package let outputs: [Int]
    package let timing: [Int]
    /// Columns of the CPU times (`cpu.<step>_ns`), in file order.
    package let cpuTiming: [Int]

    /// A schema of these columns, in this order. The sample-naming roles must be among them.
    package init(roles: [Role]) {
        do { try self.init(roles: roles, path: RunFile.samples.name) } catch {
            preconditionFailure("a samples schema without \(error)")
        }
    }

    private init(roles: [Role], path: String) throws {
        self.roles = roles
        header = roles.map(\.columnName)
        let first = Dictionary(roles.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        func require(_ role: Role) throws -> Int {
            guard let index = first[role] else {
                throw ArchiveError.csv(path: path, line: 1, message: "missing column '\(role.columnName)'")
            }
            return index
        }
        (id, label, species, split) = (
            try require(.id), try require(.label), try require(.species), try require(.split)
        )
        (self.path, status, error, decode, subject) = (
            first[.path], first[.status], first[.error], first[.decode], first[.subject]
        )
        (presentation, frame, time) = (first[.presentation], first[.frame], first[.time])
        outputs = roles.indices.filter { if case .output = roles[$0] { true } else { false } }
        timing = roles.indices.filter {
            switch roles[$0] {
            case .decode, .step: true
            default: false
            }
        }
        cpuTiming = roles.indices.filter { if case .cpu = roles[$0] { true } else { false } }
    }

    /// The schema of a stored `samples.csv` from its header. The fixed roles are found by name;
    /// the columns between `error` and `decode_ns` are outputs (an output may have any name,
    /// `subject` or `x_ns` included) and the `_ns` columns after `decode_ns` are timing steps.
    package init(header: [String], path: String) throws {
        let error = header.firstIndex(of: Role.error.columnName)
        let decode = header.firstIndex(of: Role.decode.columnName)
        let roles = header.enumerated().map { c, name -> Role in
            if let error, let decode, error < c && c < decode { return .output(name) }
            if let decode, c > decode, name.hasPrefix(Self.cpuPrefix), name.hasSuffix(Self.nanosecondsSuffix) {
                return .cpu(String(name.dropFirst(Self.cpuPrefix.count).dropLast(Self.nanosecondsSuffix.count)))
            }
            if let decode, c > decode, name.hasSuffix(Self.nanosecondsSuffix) {
                return .step(String(name.dropLast(Self.nanosecondsSuffix.count)))
            }
            return Role.named[name] ?? .other(name)
        }
        try self.init(roles: roles, path: path)
    }

    /// The column of a role, nil when the file has none.
    package func column(_ role: Role) -> Int? { roles.firstIndex(of: role) }

    /// The output names in file order.
    package var outputNames: [String] { outputs.map { header[$0] } }

    /// The output columns, or the error that keeps the file from being a measurement table.
    package func outputColumns(path: String) throws -> [Int] {
        for (name, index) in [("status", status), ("error", error), ("decode_ns", decode)] where index == nil {
            throw ArchiveError.csv(path: path, line: 1, message: "missing column '\(name)'")
        }
        guard error! < decode! else {
            throw ArchiveError.csv(path: path, line: 1, message: "expected output columns between error and decode_ns")
        }
        return outputs
    }

    /// The sample's term of the dataset fingerprint (``DatasetFingerprint``).
    package func sampleHash(_ f: [String]) -> UInt64 {
        FNV1a.sampleHash(id: f[id], label: f[label], species: f[label] == "bonafide" ? "" : f[species], split: f[split])
    }

    /// The sample's presentation term of the fingerprint (``FNV1a/presentationHash(id:presentation:frame:)``):
    /// 0 without the columns, or for a still image (an empty presentation is the sample's own).
    package func presentationHash(_ f: [String]) -> UInt64 {
        guard let presentation else { return 0 }
        let named = f[presentation].isEmpty ? f[id] : f[presentation]
        return FNV1a.presentationHash(id: f[id], presentation: named, frame: frame.map { f[$0] } ?? "")
    }

    /// A row's timing by step name (`decode`, then each estimator's): nanoseconds, nil where the
    /// field is empty or not a number (a score run's empty decode).
    package func nanoseconds(_ f: [String]) -> [(step: String, nanoseconds: UInt64?)] {
        timing.map { c in (String(header[c].dropLast(Self.nanosecondsSuffix.count)), UInt64(f[c])) }
    }

    /// A row's CPU times by step name (`decode`, then each in-process estimator's), nil where empty.
    package func cpuNanoseconds(_ f: [String]) -> [(step: String, nanoseconds: UInt64?)] {
        cpuTiming.map { c in
            (
                String(header[c].dropFirst(Self.cpuPrefix.count).dropLast(Self.nanosecondsSuffix.count)),
                UInt64(f[c])
            )
        }
    }
}

extension SamplesSchema {
    /// The columns of a measured run (`bench`, `import`): the sample, its presentation when the
    /// dataset has presentations, status, every output, decode and each estimator step's time,
    /// then the CPU time of each step in `cpuSteps` (`decode` and the in-process estimators).
    package static func measured(
        outputs: [String], steps: [String], presentations: Bool, cpuSteps: [String] = []
    ) -> SamplesSchema {
        SamplesSchema(
            roles: [.id, .path, .label, .species, .split, .subject] + (presentations ? presentationRoles : [])
                + [.status, .error] + outputs.map(Role.output) + [.decode] + steps.map(Role.step)
                + cpuSteps.map(Role.cpu))
    }

    /// The columns of a score run (`eval --scores`): no subject column and only the presentation
    /// (no frame or time), as main has always written them; the decode time is empty (nothing was
    /// decoded). Kept so that score runs stay byte-identical to earlier ones.
    package static func scores(output: String, subject: Bool = false, presentation: Bool) -> SamplesSchema {
        SamplesSchema(
            roles: [.id, .path, .label, .species, .split] + (subject ? [.subject] : [])
                + (presentation ? [.presentation] : [])
                + [.status, .error, .output(output), .decode])
    }

    /// One row of a measured run: the sample's columns from `sample`, then its status, each output
    /// (``CSVFormat/number(_:)``; NaN is empty) and the step times. `decode` 0 for an import.
    package func row(
        _ sample: Sample, status: SampleStatus, values: [Double], decode: UInt64, steps: [UInt64] = [],
        cpu: [UInt64] = []
    ) -> [String] {
        var row: [String] = []
        row.reserveCapacity(roles.count)
        var output = 0, step = 0, cpuStep = 0
        for role in roles {
            switch role {
            case .id: row.append(sample.id)
            case .path: row.append(sample.path)
            case .label: row.append(sample.label.csvLabel)
            case .species: row.append(sample.label.species ?? "")
            case .split: row.append(sample.split.rawValue)
            case .subject: row.append(sample.subject)
            case .presentation: row.append(sample.presentation)
            case .frame: row.append(sample.frameIndex.map(String.init) ?? "")
            case .time: row.append(sample.timestamp.map { CSVFormat.number($0) } ?? "")
            case .status: row.append(status.field)
            case .error: row.append(status.message)
            case .output:
                row.append(CSVFormat.number(values[output]))
                output += 1
            case .decode: row.append(String(decode))
            case .step:
                row.append(String(steps[step]))
                step += 1
            case .cpu:
                row.append(String(cpu[cpuStep]))
                cpuStep += 1
            case .other: row.append("")
            }
        }
        return row
    }
}

/// An estimator option that a profile may set (`options:` in its YAML) and that changes what an
/// estimator measures, so columns measured with it are kept apart from the defaults' columns.
///
/// Estimators declare the options they read (`Estimator.readsOptions` in PadEstimators); the run
/// measures those estimators once more for every option set its profiles use, and nothing else.
package enum EstimatorOptionName: String, Sendable, Hashable, Codable, CaseIterable {
    /// `options: {face: {use_dataset_box: true}}`: the dataset's face box instead of the detector's.
    case useDatasetFaceBox = "face.use_dataset_box"

    /// The option's word in a column header when it is switched on (`face.count@dataset_box`).
    package var token: String {
        switch self {
        case .useDatasetFaceBox: return "dataset_box"
        }
    }
}

/// The option values that produced a column: empty for the default options (`face.count`),
/// `dataset_box` for a profile's `use_dataset_box: true` (`face.count@dataset_box`).
///
/// Every option today is a switch, so a variant is the set of switched-on options. Its text
/// (``key``) is their tokens in ``EstimatorOptionName`` order joined by `+`; a header suffix that
/// names no known option (an imported column called `x@y`) is kept as it is, so that every header
/// renders back to its own bytes.
package struct MeasurementVariant: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The switched-on options.
    package let options: Set<EstimatorOptionName>
    /// A header suffix that names no known option, kept verbatim (empty otherwise).
    private let unrecognised: String

    /// The default options: columns with no `@` suffix.
    package static let defaults = MeasurementVariant(options: [])

    package init(options: Set<EstimatorOptionName>) {
        self.init(options: options, unrecognised: "")
    }

    private init(options: Set<EstimatorOptionName>, unrecognised: String) {
        self.options = options
        self.unrecognised = unrecognised
    }

    /// Parses a header suffix (the text after `@`; "" is the defaults).
    package init(key: String) {
        let tokens = key.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
        let named = tokens.map { token in EstimatorOptionName.allCases.first { $0.token == token } }
        let options = Set(named.compactMap { $0 })
        if key.isEmpty || (!named.contains(nil) && MeasurementVariant(options: options).key == key) {
            self.init(options: options)
        } else {
            self.init(options: [], unrecognised: key)
        }
    }

    package var isDefault: Bool { options.isEmpty && unrecognised.isEmpty }

    /// The variant's text: "" for the defaults, `dataset_box`, ... (the manifest's `profile_options`).
    package var key: String {
        if !unrecognised.isEmpty { return unrecognised }
        return EstimatorOptionName.allCases.filter(options.contains).map(\.token).joined(separator: "+")
    }

    /// What a header or a step name carries after its plain name: "" or `@<key>`.
    package var suffix: String { isDefault ? "" : "@" + key }

    package var description: String { key }

    package func contains(_ option: EstimatorOptionName) -> Bool { options.contains(option) }

    package init(from decoder: any Decoder) throws {
        self.init(key: try decoder.singleValueContainer().decode(String.self))
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(key)
    }
}

/// One measured column: which estimator, which of its outputs, measured with which options.
///
/// `samples.csv` names it `<estimator>.<output>` plus `@<variant>` when the options were not the
/// defaults (``header``); ``init(header:)`` is the one parser of that text, for archives whose
/// manifest has no column layout. Profiles name outputs by ``name``; which variant a profile reads
/// is its options (``MeasurementVariant``).
///
/// Example: `ColumnKeyTests.headersRoundTrip` in `Tests/PadDatasetTests/ColumnKeyTests.swift`.
package struct ColumnKey: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The estimator (or importer) prefix: `face`, `luna`, `scores`; "" for a name without a dot.
    package var estimator: String
    /// The output under the estimator: `count`, `ida.score`.
    package var output: String
    package var variant: MeasurementVariant

    package init(estimator: String, output: String, variant: MeasurementVariant = .defaults) {
        self.estimator = estimator
        self.output = output
        self.variant = variant
    }

    /// Parses a header: the variant after the first `@` (when something follows it), the
    /// estimator before the first `.` of the rest (when something precedes it).
    /// `ColumnKey(header: h).header == h` for every string `h`.
    package init(header: String) {
        var name = Substring(header), variant = MeasurementVariant.defaults
        if let at = header.firstIndex(of: "@"), header.index(after: at) < header.endIndex {
            name = header[..<at]
            variant = MeasurementVariant(key: String(header[header.index(after: at)...]))
        }
        if let dot = name.firstIndex(of: "."), dot > name.startIndex {
            self.init(
                estimator: String(name[..<dot]), output: String(name[name.index(after: dot)...]), variant: variant)
        } else {
            self.init(estimator: "", output: String(name), variant: variant)
        }
    }

    /// The output's name as profiles and reports write it: `face.count` (no variant).
    package var name: String { estimator.isEmpty ? output : estimator + "." + output }

    /// The column's header in `samples.csv`: `face.count`, `face.count@dataset_box`.
    package var header: String { name + variant.suffix }

    package var description: String { header }

    /// The same output measured with other options.
    package func with(variant: MeasurementVariant) -> ColumnKey {
        ColumnKey(estimator: estimator, output: output, variant: variant)
    }
}

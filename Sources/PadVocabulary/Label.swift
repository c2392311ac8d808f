/// The ground truth of one presentation (ISO/IEC 30107-3): bona fide, or an attack made with a
/// presentation attack instrument (PAI) of some species.
///
/// Example: `PadDatasetDocExamples.label`
/// in `Tests/PadDatasetTests/DocExamplesTests.swift` (compiled and run by `swift test`).
package enum Label: Sendable, Hashable, Codable, CustomStringConvertible {
    case bonaFide
    case attack(species: String)

    package var isBonaFide: Bool { if case .bonaFide = self { return true } else { return false } }

    /// The PAI species, or `nil` for bona fide.
    package var species: String? {
        if case .attack(let species) = self { return species }
        return nil
    }

    /// `bonafide` or `attack`, as written in CSV files.
    package var csvLabel: String { isBonaFide ? "bonafide" : "attack" }

    package var description: String {
        switch self {
        case .bonaFide: return "bonafide"
        case .attack(let species): return "attack(\(species))"
        }
    }
}

/// Dataset partitions of the usual train / dev / eval protocol. Calibration happens on `dev`,
/// results are reported on `eval`; `train` is for trainable estimators.
package enum Split: String, Sendable, Hashable, Codable, CaseIterable {
    case train, dev, eval
    /// The sample carries no split (the whole dataset is one evaluation set).
    case none = ""

    /// Parses common spellings: `test` is `eval`, `devel`/`val`/`validation` are `dev`.
    package init?(parsing text: String) {
        switch text.lowercased() {
        case "train", "training": self = .train
        case "dev", "devel", "development", "val", "valid", "validation": self = .dev
        case "eval", "test", "evaluation": self = .eval
        case "", "-", "none": self = .none
        default: return nil
        }
    }
}

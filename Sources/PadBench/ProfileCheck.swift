import PadProfiles
import PadText
import PadVocabulary

/// Profiles checked against the outputs a run declares, before anything is measured or written.
///
/// ```swift
/// // bench, after the estimators are built (external programs have answered `describe`):
/// let profiles = try ProfileCheck.check(job.profiles, runOutputs: declared, strict: job.strict)
/// ```
/// ```swift
/// // import, eval --archive, merge: the columns of the table
/// let profiles = try ProfileCheck.check(
///     list, runOutputs: ProfileCheck.descriptors(for: table.keys), strict: false)
/// ```
/// The outputs a profile may name are the run's own (built-in estimators, each external program's
/// `describe` answer under the name the user gave it, every column of an import or archive) plus
/// every output padbench knows by type (``EstimatorCatalog/knownOutputs()``). A name in neither is
/// an error naming the profile file, line and nearest output. A known output this run did not
/// measure leaves its gate out of the decisions (reported, and an error with `strict`).
package enum ProfileCheck {
    /// The profiles, each validated (re-parsed from its YAML with the run's catalogue).
    package static func check(_ profiles: [Profile], runOutputs: [String: OutputDescriptor], strict: Bool) throws
        -> [Profile]
    {
        let catalogue = EstimatorCatalog.knownOutputs().merging(runOutputs) { _, run in run }
        let loader = ProfileLoader(catalogue: catalogue)
        var checked: [Profile] = []
        for profile in profiles { checked.append(try loader.validate(profile)) }
        if strict {
            let measured = Set(runOutputs.keys)
            let lines = checked.compactMap { profile -> String? in
                let leftOut = profile.leftOutGates(measured: measured)
                guard !leftOut.isEmpty else { return nil }
                let gates = leftOut.map { "\(profile.gates[$0].output) (line \(profile.gates[$0].line))" }
                return
                    "profile \(profile.name) (\(profile.origin)): gates left out, "
                    + "outputs not measured in this run: \(gates.joined(separator: ", "))"
            }
            if !lines.isEmpty { throw LeftOutGatesError(lines: lines) }
        }
        return checked
    }

    /// Descriptors for the columns of an imported or stored table: padbench's own descriptor for a
    /// name it knows, an unbounded one (no range check) for a name only the data declares.
    /// Columns measured with profile options (`face.x@dataset_box`) count under their plain name.
    package static func descriptors(for columns: [ColumnKey]) -> [String: OutputDescriptor] {
        let known = EstimatorCatalog.knownOutputs()
        var result: [String: OutputDescriptor] = [:]
        for name in columns.map(\.name) where !name.isEmpty {
            result[name] =
                known[name]
                ?? OutputDescriptor(
                    name: name, unit: "", minimum: -.infinity, maximum: .infinity,
                    direction: .none, summary: "declared by the run")
        }
        return result
    }

    /// A profile checked on its own (`padbench profiles validate` / `show`): names padbench knows by
    /// type are checked, and so are names under a built-in estimator or vendor prefix (`quality.`,
    /// `face.`, `luna.`, ...: a typo there is an error); a name under another prefix
    /// (`mymodel.score`) can only come from a run (`--external`, an import, an archive) and is
    /// returned so the caller can say so.
    package static func standalone(_ profile: Profile) throws -> (profile: Profile, fromRun: [String]) {
        let checked = try standaloneLoader.validate(profile)
        return (checked, fromRun(checked))
    }

    /// ``standalone(_:)`` for a file, with every error it holds (``ProfileLoader/diagnose(yaml:file:)``).
    package static func standaloneDiagnosis(file: String) -> (diagnosis: ProfileDiagnosis, fromRun: [String]) {
        let diagnosis = standaloneLoader.diagnose(file: file)
        return (diagnosis, diagnosis.profile.map(fromRun) ?? [])
    }

    static var standaloneLoader: ProfileLoader {
        ProfileLoader(catalogue: EstimatorCatalog.knownOutputs(), acceptsOtherPrefixes: true)
    }

    /// The outputs a profile reads that padbench does not know by type.
    static func fromRun(_ profile: Profile) -> [String] {
        let known = EstimatorCatalog.knownOutputs()
        return profile.requiredOutputs.filter { known[$0] == nil }
    }
}

/// `--strict`: a gate whose output the run does not measure is an error before measuring.
package struct LeftOutGatesError: Error, Sendable, CustomStringConvertible {
    package var lines: [String]
    package init(lines: [String]) { self.lines = lines }
    package var description: String { "--strict: " + lines.joined(separator: "; ") }
}

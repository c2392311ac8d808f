/// Text for `padbench profiles show`: every gate with its condition, code, and whether its
/// threshold is exact (vendor number in physical units), an approximation on padbench's own
/// scale, calibrated, or skipped.
package enum ProfileDescription {
    package static func text(_ profile: Profile) -> String {
        var lines = [
            "\(profile.name): \(profile.description)", "source: \(profile.source)", "origin: \(profile.origin)",
        ]
        if let score = profile.score {
            lines.append("swept score: \(score)" + (profile.fusion.map { " (\($0.text))" } ?? ""))
        }
        if profile.useDatasetFaceBox { lines.append("face: dataset boxes") }
        lines.append("frames (a presentation of several frames): \(profile.framesText)")
        lines.append("gates (a sample is accepted when every active gate passes):")
        for (i, gate) in profile.gates.enumerated() {
            let code = gate.code.isEmpty ? "" : "[\(gate.code)] "
            if let reason = gate.skipped {
                lines.append("  \(i + 1). SKIPPED \(code)\(gate.message): \(reason)")
                continue
            }
            let kind = gate.kind == .own ? "own: padbench's threshold, the vendor documents none" : gate.kind.rawValue
            lines.append("  \(i + 1). \(gate.conditionText)  \(code)\(gate.message)  (\(kind))")
            if !gate.note.isEmpty { lines.append("       note: \(gate.note)") }
            if let approximate = gate.approximated {
                lines.append(
                    "       without \(gate.output): \(approximate.conditionText) "
                        + "(approximation)\(approximate.note.isEmpty ? "" : ": \(approximate.note)")"
                )
            }
        }
        return lines.joined(separator: "\n")
    }

    /// One line per profile for `padbench profiles list`.
    package static func summaryLine(_ profile: Profile) -> String {
        let active = profile.gates.filter { !$0.isSkipped }.count, skipped = profile.gates.count - active
        return
            "\(profile.name)  \(active) gate\(active == 1 ? "" : "s")"
            + "\(skipped > 0 ? " (+\(skipped) skipped)" : "")  \(profile.description)"
    }
}

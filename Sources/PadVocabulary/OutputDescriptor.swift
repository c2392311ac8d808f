/// Which way an output is better. Quality outputs: higher is better. PAD scores: higher is more
/// bona fide (ISO/IEC 30107-3 convention fixed by padbench). Geometry outputs have no direction.
package enum Direction: String, Sendable, Codable {
    case higherIsBetter = "higher-better"
    case lowerIsBetter = "lower-better"
    case none = "none"
}

/// One named numeric output of an estimator, with its documented range, unit and direction.
package struct OutputDescriptor: Sendable, Hashable, Codable {
    /// Short name within the estimator (`sharpness`); the full name is `<estimator>.<name>`.
    package var name: String
    package var unit: String
    /// Closed range of finite values the output can take (`.infinity` when unbounded).
    package var minimum: Double
    package var maximum: Double
    package var direction: Direction
    /// One line: what it measures and how (formula and source are in the source file).
    package var summary: String

    package init(name: String, unit: String, minimum: Double, maximum: Double, direction: Direction, summary: String) {
        self.name = name
        self.unit = unit
        self.minimum = minimum
        self.maximum = maximum
        self.direction = direction
        self.summary = summary
    }

    /// Longest part of an output name, in bytes.
    package static let maximumNameLength = 64

    /// Why `part` cannot be one part of an output name (`sharpness` in `quality.sharpness`), or
    /// nil when it can. The one grammar of output names, shared by estimators (external ones'
    /// `describe` answers included), profiles, imports and archives: 1 to 64 ASCII letters,
    /// digits, `_` and `-`, starting with a letter or digit. Never a `.` (it separates estimator
    /// and output), `@` (it tags a profile's option set, `face.count@box`), `,` (lists), space,
    /// quote or control character (CSV headers, terminal tables, YAML).
    package static func nameProblem(_ part: String) -> String? {
        let bytes = Array(part.utf8)
        guard !bytes.isEmpty else { return "an output name cannot be empty" }
        guard bytes.count <= maximumNameLength else {
            return "output name '\(part.prefix(maximumNameLength))...' is longer than \(maximumNameLength) bytes"
        }
        func allowed(_ b: UInt8) -> Bool {
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == 0x2D
        }
        guard bytes.allSatisfy(allowed), bytes[0] != 0x2D, bytes[0] != 0x5F else {
            let shown = MessageText.quote(part, limit: maximumNameLength)
            return "output name '\(shown)' must be ASCII letters, digits, '_' or '-', starting with a letter or digit"
        }
        return nil
    }

    /// Why `name` cannot be a full output name `<estimator>.<output>`, or nil when it can.
    package static func fullNameProblem(_ name: String) -> String? {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            return "output '\(MessageText.quote(name))' must be <estimator>.<name> (one dot)"
        }
        // A profile's fused score is named `fused.<name>` (PadProfiles' FusedScore): no measured
        // output may take the prefix, or a stored column could stand in for a derived one.
        guard parts[0] != "fused" else {
            return
                "output '\(MessageText.quote(name))': the estimator name `fused` is reserved for a profile's fused score"
        }
        return parts.lazy.compactMap { nameProblem(String($0)) }.first
    }

    /// The same, with the bounds as one closed range: `0...1`, ``Swift/ClosedRange/unbounded``,
    /// ``Swift/ClosedRange/nonNegative``.
    package init(name: String, unit: String, range: ClosedRange<Double>, direction: Direction, summary: String) {
        self.init(
            name: name, unit: unit, minimum: range.lowerBound, maximum: range.upperBound, direction: direction,
            summary: summary)
    }

    /// The form `manifest.json` records (`RunManifest.Estimator.outputs`): a bound that is not
    /// finite is left out (and read back as unbounded) and the summary is not written (read back
    /// as ""). Directions the manifest spelled otherwise before it recorded this type read as
    /// ``legacyDirections`` says.
    enum CodingKeys: String, CodingKey { case name, unit, minimum, maximum, direction, summary }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        unit = try c.decode(String.self, forKey: .unit)
        minimum = try c.decodeIfPresent(Double.self, forKey: .minimum) ?? -.infinity
        maximum = try c.decodeIfPresent(Double.self, forKey: .maximum) ?? .infinity
        let text = try c.decode(String.self, forKey: .direction)
        guard let direction = Direction(rawValue: text) ?? Self.legacyDirections[text] else {
            throw DecodingError.dataCorruptedError(
                forKey: .direction, in: c,
                debugDescription: "direction '\(text)' is not higher-better, lower-better or none")
        }
        self.direction = direction
        summary = try c.decodeIfPresent(String.self, forKey: .summary) ?? ""
    }

    /// `import` wrote "" (no direction), `eval --scores` wrote "higher-bona-fide" for its score.
    static let legacyDirections: [String: Direction] = ["": .none, "higher-bona-fide": .higherIsBetter]

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(unit, forKey: .unit)
        if minimum.isFinite { try c.encode(minimum, forKey: .minimum) }
        if maximum.isFinite { try c.encode(maximum, forKey: .maximum) }
        try c.encode(direction, forKey: .direction)
    }
}

extension ClosedRange<Double> {
    /// Any value: an output without bounds (a position that may leave the frame).
    package static var unbounded: Self { -Double.infinity...Double.infinity }
    /// Zero or more, no upper bound (counts, sizes, variances).
    package static var nonNegative: Self { 0...Double.infinity }
}

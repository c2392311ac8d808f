/// Which way an output is better. Quality outputs: higher is better. PAD scores: higher is more
/// bona fide (ISO/IEC 30107-3 convention fixed by padbench). Geometry outputs have no direction.
public enum Direction: String, Sendable, Codable {
    case higherIsBetter = "higher-better"
    case lowerIsBetter = "lower-better"
    case none = "none"
}

/// One named numeric output of an estimator, with its documented range, unit and direction.
public struct OutputDescriptor: Sendable, Hashable, Codable {
    /// Short name within the estimator (`sharpness`); the full name is `<estimator>.<name>`.
    public var name: String
    public var unit: String
    /// Closed range of finite values the output can take (`.infinity` when unbounded).
    public var minimum: Double
    public var maximum: Double
    public var direction: Direction
    /// One line: what it measures and how (formula and source are in the source file).
    public var summary: String

    public init(name: String, unit: String, minimum: Double, maximum: Double, direction: Direction, summary: String) {
        self.name = name
        self.unit = unit
        self.minimum = minimum
        self.maximum = maximum
        self.direction = direction
        self.summary = summary
    }
}

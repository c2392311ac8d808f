import PadEvaluation

/// What every run that writes a run folder returns (merge, import, eval of an archive): where it
/// went, the profiles' results, and the measurement table they were decided on.
public struct RunOutcome: Sendable {
    public var folder: String
    public var archivePath: String
    public var results: [ProfileResult]
    public var table: MeasurementTable

    public init(folder: String, archivePath: String, results: [ProfileResult], table: MeasurementTable) {
        self.folder = folder
        self.archivePath = archivePath
        self.results = results
        self.table = table
    }
}

import PadEvaluation

/// What every run that writes a run folder returns (merge, import, eval of an archive): where it
/// went, the profiles' results, and the measurement table they were decided on.
package struct RunOutcome: Sendable {
    package var folder: String
    package var archivePath: String
    package var results: [ProfileResult]
    package var table: MeasurementTable
    /// The run's wall time as its manifest records it (``RunPipeline/finish(_:table:profiles:timing:streamed:ownTimes:manifest:)``).
    package var wallSeconds: Double

    package init(
        folder: String, archivePath: String, results: [ProfileResult], table: MeasurementTable, wallSeconds: Double
    ) {
        self.folder = folder
        self.archivePath = archivePath
        self.results = results
        self.table = table
        self.wallSeconds = wallSeconds
    }
}

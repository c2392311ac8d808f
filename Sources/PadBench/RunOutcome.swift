import PadEvaluation

/// What every run that writes a run folder returns (merge, import, eval of an archive): where it
/// went, the profiles' results, and the measurement table they were decided on.
package struct RunOutcome: Sendable {
    package var folder: String
    package var archivePath: String
    package var results: [ProfileResult]
    package var table: MeasurementTable

    package init(folder: String, archivePath: String, results: [ProfileResult], table: MeasurementTable) {
        self.folder = folder
        self.archivePath = archivePath
        self.results = results
        self.table = table
    }
}

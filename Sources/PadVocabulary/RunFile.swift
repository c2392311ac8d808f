/// Every file padbench writes into a run folder and its archive, named once: writers, readers,
/// the gate and the reports all take the name from here, so a file cannot be renamed in one place
/// and read under its old name in another. A run with presentations of several frames also keeps
/// the frame-level files under `frames/` (``inFrames``).
///
/// Example: `RunFileTests.noRunFileNameIsSpelledOutsideTheEnum` in `Tests/PadBenchTests/RunFileTests.swift`.
package enum RunFile: String, CaseIterable, Sendable {
    case manifest = "manifest.json"
    case results = "results.json"
    case samples = "samples.csv"
    case decisions = "decisions.csv"
    case presentationDecisions = "presentation_decisions.csv"
    case summary = "summary.csv"
    case perSpecies = "per_species.csv"
    case rejectReasons = "reject_reasons.csv"
    case curves = "curves.csv"
    case metrics = "metrics.csv"
    case outputs = "outputs.csv"
    case timing = "timing.csv"
    case fairness = "fairness.csv"
    case labels = "labels.csv"
    case edc = "edc.csv"
    case attributes = "attributes.csv"
    /// A face comparator's scores of the run's presentations (`--comparisons`), as read.
    case comparisons = "comparisons.csv"
    /// Full-system rates with the comparator: FMR, FNMR, IAPMR, and IAPAR per PAD profile.
    case vulnerability = "vulnerability.csv"
    /// The EPSC points (thresholds on dev, error rates on eval).
    case epsc = "epsc.csv"
    case report = "report.html"
    /// The archive beside the run folder's files.
    case archive = "results.tar.zst"
    /// An interrupted bench's resume job (`RUN.partial/job.json`).
    case job = "job.json"
    /// The command line of an interrupted bench of an older padbench (`RUN.partial/command.json`).
    case command = "command.json"

    /// The file's name in a run folder and archive member name.
    package var name: String { rawValue }
    /// The frame-level copy of a presentation run (`frames/results.json`).
    package var inFrames: String { "frames/" + rawValue }

    /// The archive member holding the YAML of the profile `name` as the run decided with it.
    package static func profile(_ name: String) -> String { "profiles/\(name).yaml" }
}

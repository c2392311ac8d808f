/// Why a sample failed: the stable code in the `status` column of `samples.csv` and
/// `decisions.csv` (a sample that did not fail has status `ok`, which is not a failure code).
/// docs/run-files.md's table "Failure codes" lists exactly these cases (`FailureCodeTests` holds it to
/// them). Writers render ``rawValue`` (so files keep their bytes); readers parse it back with
/// ``init(rawValue:)`` and refuse any other text with the file and line: padbench wrote every
/// archive it reads, so an unknown code is a damaged file or one from a newer padbench, never a
/// code to carry on silently.
package enum FailureCode: String, Sendable, Hashable, Codable, CaseIterable {
    /// The image or video is not there or cannot be read.
    case missingFile = "missing_file"
    /// The bytes are not a format padbench reads (JPEG, PNG, binary PPM/PGM, the video containers
    /// FFmpeg opens), or a variant of one it refuses (a 12-bit JPEG).
    case unsupportedFormat = "unsupported_format"
    /// The image or video is damaged (truncated, bad Huffman data, bad IDAT, bad header).
    case decodeError = "decode_error"
    /// Over a limit: pixels (`--max-pixels`), file bytes (`--max-image-bytes`), or a video's frame
    /// count or duration. Nothing was allocated for it.
    case tooLarge = "too_large"
    /// An image could not be encoded (the synthetic generator and fixtures; a measured sample
    /// never is).
    case encodeError = "encode_error"
    /// An estimator failed on the sample (an external program that crashed, answered nonsense or
    /// returned the wrong number of values).
    case estimatorError = "estimator_error"
    /// An external estimator gave no answer within `--timeout`.
    case timeout
    /// `eval --scores`: the score file has the sample but no score for it (`NaN`, empty).
    case noScore = "no_score"
    /// `import`: no vendor record matched the sample.
    case missingVendorResult = "missing_vendor_result"
    /// `import` of IDEMIA statuses: `NoDecision`, counted as a failure to process
    /// (`--no-decision fta`).
    case noDecision = "no_decision"
    /// `import` of IDEMIA statuses: `Unknown`, no liveness check was run.
    case noLivenessRun = "no_liveness_run"
    /// A presentation of several frames none of which had an assessable score (its profile's
    /// frames rule had nothing to aggregate).
    case noAssessableFrame = "no_assessable_frame"
}

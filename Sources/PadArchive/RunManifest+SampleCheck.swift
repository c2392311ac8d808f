import PadDataset

extension RunManifest {
    /// The checks every reader of an archive's `samples.csv` makes against this manifest before
    /// trusting the rows (``ResultArchiveReader`` callers in PadEvaluation and PadReport): the
    /// row count, then the sample fingerprint, the wrapping sum of
    /// ``FNV1a/sampleHash(id:label:species:split:)`` over the rows (any order). An edited or
    /// damaged archive is refused, named by `path`.
    public func checkSampleCount(_ rows: Int, archive path: String) throws {
        guard rows == dataset.samples else {
            throw ArchiveError.tar(
                path: path, message: "samples.csv has \(rows) rows, the manifest says \(dataset.samples) samples")
        }
    }

    /// See ``checkSampleCount(_:archive:)``.
    public func checkSampleFingerprint(_ total: UInt64, archive path: String) throws {
        guard FNV1a.hex(total) == dataset.fingerprint else {
            throw ArchiveError.tar(
                path: path,
                message: "samples.csv does not match the manifest's sample fingerprint (\(FNV1a.hex(total)) "
                    + "vs \(dataset.fingerprint)): the archive was edited or is damaged")
        }
    }
}

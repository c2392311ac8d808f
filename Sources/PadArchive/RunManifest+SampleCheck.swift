import PadVocabulary

extension RunManifest {
    /// The checks every reader of an archive's `samples.csv` makes against this manifest before
    /// trusting the rows (``ResultArchiveReader`` callers in PadEvaluation and PadReport): the
    /// row count, then the sample fingerprint, the wrapping sum of
    /// ``FNV1a/sampleHash(id:label:species:split:)`` and ``FNV1a/presentationHash(id:presentation:frame:)``
    /// over the rows (any order). An edited or
    /// damaged archive is refused, named by `path`.
    package func checkSampleCount(_ rows: Int, archive path: String) throws {
        guard rows == dataset.samples else {
            throw ArchiveError.tar(
                path: path, message: "samples.csv has \(rows) rows, the manifest says \(dataset.samples) samples")
        }
    }

    /// See ``checkSampleCount(_:archive:)``. `presentations` is the sum of
    /// ``FNV1a/presentationHash(id:presentation:frame:)`` over the rows: it counts only when the
    /// manifest has a ``Dataset/presentationsFingerprint`` (archives written before it have
    /// fingerprints of samples alone, and are read as they were written).
    package func checkSampleFingerprint(_ samples: UInt64, presentations: UInt64, archive path: String) throws {
        let total = dataset.presentationsFingerprint == nil ? samples : samples &+ presentations
        guard FNV1a.hex(total) == dataset.fingerprint else {
            throw ArchiveError.tar(
                path: path,
                message: "samples.csv does not match the manifest's sample fingerprint (\(FNV1a.hex(total)) "
                    + "vs \(dataset.fingerprint)): the archive was edited or is damaged")
        }
    }
}

extension RunManifest.Dataset {
    /// The sum of the samples' hashes alone (``fingerprint`` less ``presentationsFingerprint``):
    /// what rows that name no presentation (`decisions.csv`) add up to. Nil when a fingerprint is
    /// not hex.
    package var samplesFingerprint: UInt64? {
        guard let total = UInt64(fingerprint, radix: 16) else { return nil }
        guard let part = presentationsFingerprint else { return total }
        return UInt64(part, radix: 16).map { total &- $0 }
    }
}

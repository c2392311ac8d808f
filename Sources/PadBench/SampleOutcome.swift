/// How processing one sample ended. A failed sample stays in every output with its status.
public enum SampleStatus: Sendable, Equatable {
    case ok
    /// `code` is one of the stable codes of the README ("What a run writes") (`decode_error`, `unsupported_format`,
    /// `too_large`, `missing_file`, `estimator_error`, `timeout`).
    case failed(code: String, message: String)

    public var code: String {
        if case .failed(let code, _) = self { return code }
        return "ok"
    }
    public var message: String {
        if case .failed(_, let message) = self { return message }
        return ""
    }
    public var isOK: Bool { self == .ok }
}

/// Everything measured for one sample: one value per estimator output (in the order of
/// ``MeasurementLayout/columns``, NaN when not assessable or not reached) and the nanoseconds
/// spent decoding and in each estimator (0 when not reached).
public struct SampleOutcome: Sendable {
    public var index: Int
    public var status: SampleStatus
    public var values: [Double]
    public var decodeNanoseconds: UInt64
    public var estimatorNanoseconds: [UInt64]

    public init(
        index: Int, status: SampleStatus, values: [Double], decodeNanoseconds: UInt64, estimatorNanoseconds: [UInt64]
    ) {
        self.index = index
        self.status = status
        self.values = values
        self.decodeNanoseconds = decodeNanoseconds
        self.estimatorNanoseconds = estimatorNanoseconds
    }
}

import PadEvaluation
import PadVocabulary

/// Everything measured for one sample: one value per estimator output (in the order of
/// ``SampleMeasurer/columns``, NaN when not assessable or not reached) and the nanoseconds
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

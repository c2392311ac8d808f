import PadEvaluation
import PadVocabulary

/// Everything measured for one sample: one value per estimator output (in the order of
/// ``SampleMeasurer/columns``, NaN when not assessable or not reached) and the nanoseconds
/// spent decoding and in each estimator (0 when not reached).
package struct SampleOutcome: Sendable {
    package var index: Int
    package var status: SampleStatus
    package var values: [Double]
    package var decodeNanoseconds: UInt64
    package var estimatorNanoseconds: [UInt64]

    package init(
        index: Int, status: SampleStatus, values: [Double], decodeNanoseconds: UInt64, estimatorNanoseconds: [UInt64]
    ) {
        self.index = index
        self.status = status
        self.values = values
        self.decodeNanoseconds = decodeNanoseconds
        self.estimatorNanoseconds = estimatorNanoseconds
    }
}

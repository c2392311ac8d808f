import PadEvaluation
import PadVocabulary

/// Everything measured for one sample: one value per estimator output (in the order of
/// ``SampleMeasurer/columns``, NaN when not assessable or not reached) and the nanoseconds
/// spent decoding and in each estimator (0 when not reached), on the wall clock and on the
/// measuring thread's CPU clock.
package struct SampleOutcome: Sendable {
    package var index: Int
    package var status: SampleStatus
    package var values: [Double]
    package var decodeNanoseconds: UInt64
    package var estimatorNanoseconds: [UInt64]
    package var decodeCPUNanoseconds: UInt64
    /// Per estimator, like ``estimatorNanoseconds``; an external program's is padbench's side only.
    package var estimatorCPUNanoseconds: [UInt64]

    package init(
        index: Int, status: SampleStatus, values: [Double], decode: StepClock, estimators: [StepClock]
    ) {
        self.index = index
        self.status = status
        self.values = values
        self.decodeNanoseconds = decode.wall
        self.decodeCPUNanoseconds = decode.cpu
        self.estimatorNanoseconds = estimators.map(\.wall)
        self.estimatorCPUNanoseconds = estimators.map(\.cpu)
    }
}

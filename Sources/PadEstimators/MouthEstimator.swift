import PadVocabulary

/// Mouth openness from the landmarks: Aware's SMILE_PRESENT, DOT's mouth status ("Close your mouth").
///
/// Example: `DerivedMeasureTests.eyeAndMouthOpenness` in `Tests/PadEstimatorsTests/LandmarkTests.swift`.
/// - `open`: OFIQ's MouthClosed raw value (ISO/IEC 29794-5 reference, `MouthClosed.cpp`): the
///   largest distance between an inner upper-lip landmark and its lower partner (68 points: 61-67,
///   62-66, 63-65) over the T-metric (eye-corner midpoint to chin, point 8). OFIQ maps it to 0-100
///   with an inverse sigmoid (x0 0.2, w 0.06): a closed mouth is near 0, wider open is higher.
/// NaN: no landmarks (no face), the 5-point model (no lips), or a zero T-metric.
package struct MouthEstimator: Estimator {
    package let name = "mouth"
    package let version = "1.0.0"
    package var dependencies: [String] { ["landmarks"] }
    package var outputs: [OutputDescriptor] { Self.declaredOutputs }
    package static let declaredOutputs: [OutputDescriptor] = [
        .init(
            name: "open", unit: "", range: .nonNegative, direction: .lowerIsBetter,
            summary: "inner-lip distance / eyes-to-chin (OFIQ MouthClosed raw)")
    ]
    package var parameters: [String: String] { ["t_metric": "eye-corner midpoint to chin (point 8)"] }

    package init() {}

    package func measure(_ input: inout EstimatorInput) throws(EstimatorFailure) -> [Double] {
        guard let named = FaceLandmarks(input.landmarks) else { return [.nan] }
        return [Self.openness(named)]
    }

    /// OFIQ's MouthClosed raw value; NaN without lips or with a zero T-metric.
    package static func openness(_ named: FaceLandmarks) -> Double {
        guard let t = named.tMetric, t > 0, let lips = FaceLandmarks.largestDistance(named.innerLipPairs) else {
            return .nan
        }
        return lips / t
    }
}

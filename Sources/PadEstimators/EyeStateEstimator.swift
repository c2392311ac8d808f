import PadVocabulary

/// Eye openness from the landmarks: LUNA's closed-eye frames, Aware's LEFT/RIGHT_EYE_CLOSED, DOT's
/// eye status. "Left" and "right" are the subject's (ISO/IEC 39794-5): the left eye is on the image's right.
///
/// Example: `DerivedMeasureTests.eyeAndMouthOpenness` in `Tests/PadEstimatorsTests/LandmarkTests.swift`.
/// - `left_open`, `right_open`: OFIQ's EyesOpen raw value per eye (ISO/IEC 29794-5 reference,
///   `EyesOpen.cpp`): the largest distance between an upper-lid landmark and its lower-lid partner
///   (68 points: 37-41 and 38-40; 43-47 and 44-46) over the T-metric, the distance from the midpoint
///   of the four eye corners to the chin (point 8). OFIQ maps it to 0-100 with a sigmoid
///   (x0 0.02, w 0.01): about 0.02 is its half-open point. OFIQ's landmarks are ADNet-98, so values
///   differ from OFIQ's own.
/// - `open`: OFIQ's EyesOpen raw value, min(left_open, right_open) (the less open eye).
/// - `left_ear`, `right_ear`: eye aspect ratio (Soukupová & Čech, "Real-Time Eye Blink Detection
///   using Facial Landmarks", CVWW 2016): (|p2 - p6| + |p3 - p5|) / (2 |p1 - p4|) over the eye's six
///   points (p1, p4 the corners); about 0.25-0.35 open, below about 0.2 closed.
/// NaN: no landmarks (no face), the 5-point model (no eyelid points), or a zero T-metric / corner distance.
package struct EyeStateEstimator: Estimator {
    package let name = "eye_state"
    package let version = "1.0.0"
    package var dependencies: [String] { ["landmarks"] }
    package var outputs: [OutputDescriptor] { Self.declaredOutputs }
    package static let declaredOutputs: [OutputDescriptor] = [
        openness("left"), openness("right"),
        .init(
            name: "open", unit: "", range: .nonNegative, direction: .higherIsBetter,
            summary: "OFIQ EyesOpen raw (less open eye)"),
        aspectRatio("left"), aspectRatio("right"),
    ]
    static func openness(_ side: String) -> OutputDescriptor {
        .init(
            name: "\(side)_open", unit: "", range: .nonNegative, direction: .higherIsBetter,
            summary: "\(side) eyelid distance / eyes-to-chin (OFIQ)")
    }
    static func aspectRatio(_ side: String) -> OutputDescriptor {
        .init(
            name: "\(side)_ear", unit: "", range: .nonNegative, direction: .higherIsBetter,
            summary: "\(side) eye aspect ratio (Soukupova & Cech)")
    }
    package var parameters: [String: String] { ["t_metric": "eye-corner midpoint to chin (point 8)"] }

    package init() {}

    package func measure(_ input: inout EstimatorInput) throws(EstimatorFailure) -> [Double] {
        guard let named = FaceLandmarks(input.landmarks), named.hasContours else {
            return [Double](repeating: .nan, count: 5)
        }
        let left = Self.openness(named, left: true), right = Self.openness(named, left: false)
        return [
            left, right, min(left, right), Self.aspectRatio(named, left: true), Self.aspectRatio(named, left: false),
        ]
    }

    /// OFIQ's EyesOpen raw value of one eye; NaN without eyelids or with a zero T-metric.
    package static func openness(_ named: FaceLandmarks, left: Bool) -> Double {
        guard let t = named.tMetric, t > 0, let lids = FaceLandmarks.largestDistance(named.eyelidPairs(left: left))
        else { return .nan }
        return lids / t
    }

    /// Soukupová & Čech's eye aspect ratio of one eye; NaN without the six points or with coincident corners.
    package static func aspectRatio(_ named: FaceLandmarks, left: Bool) -> Double {
        guard let p = named.eyeContour(left: left) else { return .nan }
        let width = FaceLandmarks.distance(p[0], p[3])
        guard width > 0 else { return .nan }
        return (FaceLandmarks.distance(p[1], p[5]) + FaceLandmarks.distance(p[2], p[4])) / (2 * width)
    }
}

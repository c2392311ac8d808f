import Foundation
import PadVocabulary

/// Head pose in degrees from the landmarks: LUNA ID's pitch/yaw/roll limits (25 each, error 1002),
/// OneShotLiveness's -20...+20, Aware's INVALID_POSE, DOT's head pose attributes.
///
/// Example: `HeadPoseTests.syntheticRoundTrips` in `Tests/PadEstimatorsTests/LandmarkTests.swift`.
/// Signs are ISO/IEC 39794-5's (``HeadPoseFit``): positive yaw = the face turned towards the
/// subject's left (the image's right), positive pitch = looking down, positive roll = the subject's
/// left eye (image right) higher.
/// - `yaw_deg`, `pitch_deg`: a perspective-n-point fit of six landmarks (nose tip, chin, outer eye
///   corners, mouth corners) to the documented 3D template (``HeadPoseFit/template``), f = image
///   width, relative to the line of sight from the camera to the nose tip. An approximation: a
///   generic template and a guessed focal length; pitch is the least reliable angle.
/// - `roll_deg`: the eye line, atan2(A.y - B.y, B.x - A.x) in degrees with A the image-left eye
///   centre and B the image-right one (corner midpoints, so the 5-point model gives it too; image y
///   grows downwards). It equals the Tait-Bryan roll when yaw and pitch are 0 and approximates it
///   otherwise. (`eyes.roll_deg` has the opposite sign: positive when the line descends to the right.)
/// - `fit_rms_px`: root-mean-square reprojection error of the fit, pixels.
/// NaN: no landmarks (no face); yaw, pitch and the error also with the 5-point model (no chin or
/// mouth) or when the fit finds no head in front of the camera.
package struct HeadPoseEstimator: Estimator {
    package let name = "head"
    package let version = "1.0.0"
    package var dependencies: [String] { ["landmarks"] }
    package var outputs: [OutputDescriptor] { Self.declaredOutputs }
    package static let declaredOutputs: [OutputDescriptor] = [
        .init(
            name: "yaw_deg", unit: "deg", range: -180...180, direction: .none,
            summary: "PnP, + = face turned to subject's left"),
        .init(name: "pitch_deg", unit: "deg", range: -90...90, direction: .none, summary: "PnP, + = looking down"),
        .init(
            name: "roll_deg", unit: "deg", range: -180...180, direction: .none,
            summary: "eye line, + = subject's left eye higher"),
        .init(
            name: "fit_rms_px", unit: "px", range: .nonNegative, direction: .lowerIsBetter,
            summary: "PnP reprojection error"),
    ]
    package var parameters: [String: String] {
        [
            "template": "Mallick 2016 generic head, 6 points (nose tip 30, chin 8, eye corners 36/45, mouth 48/54)",
            "focal_length": "image width", "principal_point": "image centre", "angles": "ISO/IEC 39794-5",
            "line_of_sight": "true",
        ]
    }

    package init() {}

    package func measure(_ input: inout EstimatorInput) throws(EstimatorFailure) -> [Double] {
        guard let named = FaceLandmarks(input.landmarks) else { return [.nan, .nan, .nan, .nan] }
        let roll = Self.eyeLineRoll(named)
        guard named.hasContours,
            let pose = HeadPoseFit.fit(named.points, width: input.image.width, height: input.image.height)
        else { return [.nan, .nan, roll, .nan] }
        return [pose.yaw, pose.pitch, roll, pose.rmsError]
    }

    /// The eye line's angle, ISO sign: atan2(A.y - B.y, B.x - A.x) in degrees, A the image-left eye
    /// (subject's right) and B the image-right eye (subject's left), each its corners' midpoint.
    package static func eyeLineRoll(_ named: FaceLandmarks) -> Double {
        let a = named.cornerMidpoint(left: false), b = named.cornerMidpoint(left: true)
        return atan2(a.y - b.y, b.x - a.x) * 180 / .pi
    }
}

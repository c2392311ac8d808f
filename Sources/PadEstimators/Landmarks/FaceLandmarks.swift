import Foundation

/// A face's landmarks with the named points the derived measures use, for dlib's two published
/// layouts. "Left" and "right" are the subject's (ISO/IEC 39794-5): the subject's right eye
/// appears on the image's left.
/// - 68 points (iBUG 300-W order): jaw 0-16 (chin 8), brows 17-26, nose 27-35 (tip 30), subject's
///   right eye 36-41 (corners 36 outer, 39 inner; upper lid 37, 38; lower lid 41, 40), left eye
///   42-47 (corners 42 inner, 45 outer; upper 43, 44; lower 47, 46), outer lips 48-59 (corners 48,
///   54), inner lips 60-67 (upper 61, 62, 63; lower 67, 66, 65).
/// - 5 points (dlib's `shape_predictor_5_face_landmarks`): subject's left eye corners 0, 1, right
///   eye corners 2, 3, nose base 4.
///
/// Example: `HeadPoseTests.eyeLineRollOfAFrontalHead` in `Tests/PadEstimatorsTests/LandmarkTests.swift`.
package struct FaceLandmarks: Sendable {
    package let points: [LandmarkPoint]

    package init?(_ points: [LandmarkPoint]) {
        guard points.count == 68 || points.count == 5 else { return nil }
        self.points = points
    }

    /// True for the 68-point layout (eyelids, mouth and chin are known).
    package var hasContours: Bool { points.count == 68 }

    /// One eye's two corners (outer, inner).
    package func corners(left: Bool) -> (LandmarkPoint, LandmarkPoint) {
        if hasContours { return left ? (points[45], points[42]) : (points[36], points[39]) }
        return left ? (points[0], points[1]) : (points[2], points[3])
    }

    /// One eye's six points in Soukupová & Čech's order p1...p6: outer corner, two upper-lid points
    /// (outer first), inner corner, two lower-lid points (inner first). nil for the 5-point layout.
    package func eyeContour(left: Bool) -> [LandmarkPoint]? {
        guard hasContours else { return nil }
        // iBUG runs each eye clockwise in the image from its image-left corner; p1 must be the
        // outer corner, so the subject's left eye (image right) is read from 45 backwards.
        return left ? [45, 44, 43, 42, 47, 46].map { points[$0] } : Array(points[36...41])
    }

    /// The mean of an eye's six points (68-point layout), nil otherwise.
    package func eyeCentre(left: Bool) -> LandmarkPoint? { eyeContour(left: left).map(Self.mean) }

    /// The midpoint of an eye's two corners (OFIQ's eye centre).
    package func cornerMidpoint(left: Bool) -> LandmarkPoint {
        let (a, b) = corners(left: left)
        return Self.mean([a, b])
    }

    /// The chin (68-point layout), nil otherwise.
    package var chin: LandmarkPoint? { hasContours ? points[8] : nil }

    /// OFIQ's "T-metric": the distance from the midpoint of the four eye corners to the chin;
    /// nil without a chin.
    package var tMetric: Double? {
        guard let chin else { return nil }
        let (a, b) = corners(left: true), (c, d) = corners(left: false)
        return Self.distance(Self.mean([a, b, c, d]), chin)
    }

    /// (upper, lower) eyelid pairs of one eye, each upper point above its lower partner.
    package func eyelidPairs(left: Bool) -> [(LandmarkPoint, LandmarkPoint)] {
        guard hasContours else { return [] }
        return left
            ? [(points[43], points[47]), (points[44], points[46])]
            : [(points[37], points[41]), (points[38], points[40])]
    }

    /// (upper, lower) inner-lip pairs.
    package var innerLipPairs: [(LandmarkPoint, LandmarkPoint)] {
        guard hasContours else { return [] }
        return [(points[61], points[67]), (points[62], points[66]), (points[63], points[65])]
    }

    package static func mean(_ points: [LandmarkPoint]) -> LandmarkPoint {
        let n = Double(points.count)
        return LandmarkPoint(x: points.reduce(0) { $0 + $1.x } / n, y: points.reduce(0) { $0 + $1.y } / n)
    }

    package static func distance(_ a: LandmarkPoint, _ b: LandmarkPoint) -> Double {
        ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
    }

    /// The largest distance over (upper, lower) pairs (OFIQ's `GetMaxPairDistance`), nil without pairs.
    package static func largestDistance(_ pairs: [(LandmarkPoint, LandmarkPoint)]) -> Double? {
        pairs.map { distance($0.0, $0.1) }.max()
    }
}

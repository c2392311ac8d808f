import Foundation

/// Head pose from 2D landmarks: a perspective-n-point fit of a 3D mean-face template, then
/// Tait-Bryan angles in the convention of ISO/IEC 39794-5 (as ISO/IEC 19794-5 and FATE Quality):
/// a right-handed head frame with x towards the subject's left (the image's right in a frontal
/// view), y up and z out of the face towards the camera; R = Ry(yaw) Rx(pitch) Rz(roll), each
/// positive counter-clockwise about its axis (right-hand rule). So positive yaw turns the face
/// towards the subject's left (the image's right), positive pitch lowers the face (looking down),
/// positive roll tilts the head so the subject's left eye rises.
///
/// Example: `HeadPoseTests.syntheticRoundTrips` in `Tests/PadEstimatorsTests/LandmarkTests.swift`.
/// Camera: pinhole, focal length f = image width px, principal point at the image centre, no
/// distortion; camera frame x right, y up, z towards the viewer (the camera looks along -z).
/// Fit: Levenberg-Marquardt on the rotation vector and translation, minimising the squared
/// reprojection error of the six template points, started frontal and at yaw -35 and +35 degrees
/// (the lowest error wins). Line of sight: the angles are those of the head relative to the ray
/// from the camera to the nose tip (R_rel = R_ray^T R, R_ray = Ry(a) Rx(b) turning the z axis onto the
/// direction back to the camera), so a face off the image centre that looks at the camera is (0, 0).
package enum HeadPoseFit {
    /// The 3D template: six points of the generic head model of S. Mallick, "Head Pose Estimation
    /// using OpenCV and Dlib" (LearnOpenCV, 2016), widely used with dlib's 68 points; arbitrary
    /// units (about 0.1 mm), nose tip at the origin. (iBUG index, x, y, z).
    package static let template: [(index: Int, x: Double, y: Double, z: Double)] = [
        (30, 0, 0, 0), // nose tip
        (8, 0, -330, -65), // chin
        (36, -225, 170, -135), // subject's right eye, outer corner (image left)
        (45, 225, 170, -135), // subject's left eye, outer corner (image right)
        (48, -150, -150, -125), // mouth corner, image left
        (54, 150, -150, -125), // mouth corner, image right
    ]

    /// A fitted pose: the rotation (camera frame, row-major 3 x 3), the translation, the angles
    /// relative to the line of sight, and the root-mean-square reprojection error in pixels.
    package struct Pose: Sendable {
        package var rotation: [Double]
        package var translation: [Double]
        package var yaw: Double
        package var pitch: Double
        package var roll: Double
        package var rmsError: Double
    }

    /// The pose of 68 landmarks (image pixels) in an image of `width` x `height`; nil when the fit
    /// does not converge to a face in front of the camera.
    package static func fit(_ points: [LandmarkPoint], width: Int, height: Int) -> Pose? {
        guard points.count == 68 else { return nil }
        let camera = Camera(width: width, height: height)
        let observed = template.map { points[$0.index] }
        let eyes = FaceLandmarks.distance(points[36], points[45])
        guard eyes > 0 else { return nil }
        let depth = camera.focal * 450 / eyes
        let nose = points[30]
        let start = [(nose.x - camera.cx) * depth / camera.focal, -(nose.y - camera.cy) * depth / camera.focal, -depth]
        var best: (parameters: [Double], error: Double)?
        for yaw in [0.0, -35, 35] {
            let initial = [0, yaw * .pi / 180, 0] + start
            let fitted = levenbergMarquardt(initial, observed: observed, camera: camera)
            let error = sumOfSquares(fitted, observed: observed, camera: camera)
            if error.isFinite, fitted[5] < 0, best.map({ error < $0.error }) ?? true { best = (fitted, error) }
        }
        guard let best else { return nil }
        let rotation = Rotation.matrix(best.parameters[0], best.parameters[1], best.parameters[2])
        let translation = Array(best.parameters[3...5])
        let relative = Rotation.multiply(Rotation.transpose(Rotation.lineOfSight(translation)), rotation)
        let (yaw, pitch, roll) = Rotation.angles(relative)
        return Pose(
            rotation: rotation, translation: translation, yaw: yaw, pitch: pitch, roll: roll,
            rmsError: (best.error / Double(template.count)).squareRoot())
    }

    struct Camera {
        let focal: Double, cx: Double, cy: Double
        init(width: Int, height: Int) {
            focal = Double(width)
            cx = Double(width) / 2
            cy = Double(height) / 2
        }
        /// Image pixel of a camera-frame point (y up, z towards the viewer).
        func project(_ x: Double, _ y: Double, _ z: Double) -> (Double, Double) {
            (cx + focal * x / -z, cy - focal * y / -z)
        }
    }

    /// The 12 reprojection residuals (u, v per template point) for parameters (rotation vector, t).
    static func residuals(_ p: [Double], observed: [LandmarkPoint], camera: Camera) -> [Double] {
        let r = Rotation.matrix(p[0], p[1], p[2])
        var out: [Double] = []
        out.reserveCapacity(2 * template.count)
        for (k, point) in template.enumerated() {
            let x = r[0] * point.x + r[1] * point.y + r[2] * point.z + p[3]
            let y = r[3] * point.x + r[4] * point.y + r[5] * point.z + p[4]
            let z = r[6] * point.x + r[7] * point.y + r[8] * point.z + p[5]
            let (u, v) = camera.project(x, y, z)
            out += [u - observed[k].x, v - observed[k].y]
        }
        return out
    }

    static func sumOfSquares(_ p: [Double], observed: [LandmarkPoint], camera: Camera) -> Double {
        residuals(p, observed: observed, camera: camera).reduce(0) { $0 + $1 * $1 }
    }

    /// Levenberg-Marquardt (Marquardt 1963) with a forward-difference Jacobian: solve
    /// (J^T J + lambda diag(J^T J)) delta = -J^T r, accept a step that lowers the error and divide
    /// lambda by 10, else multiply it by 10; stop after 100 iterations or when the step is tiny.
    static func levenbergMarquardt(_ start: [Double], observed: [LandmarkPoint], camera: Camera) -> [Double] {
        var p = start, lambda = 1e-3
        var error = sumOfSquares(p, observed: observed, camera: camera)
        for _ in 0..<100 {
            let r = residuals(p, observed: observed, camera: camera)
            let jacobian = (0..<6).map { j -> [Double] in
                var q = p
                let h = j < 3 ? 1e-6 : max(1e-6, abs(p[j]) * 1e-7)
                q[j] += h
                return zip(residuals(q, observed: observed, camera: camera), r).map { ($0 - $1) / h }
            }
            var normal = [Double](repeating: 0, count: 36), gradient = [Double](repeating: 0, count: 6)
            for a in 0..<6 {
                for b in 0..<6 { normal[a * 6 + b] = zip(jacobian[a], jacobian[b]).reduce(0) { $0 + $1.0 * $1.1 } }
                gradient[a] = -zip(jacobian[a], r).reduce(0) { $0 + $1.0 * $1.1 }
            }
            var improved = false
            while lambda < 1e12 {
                var damped = normal
                for a in 0..<6 { damped[a * 6 + a] *= 1 + lambda }
                guard let step = LinearSystem.solve(damped, gradient, size: 6) else { break }
                let candidate = zip(p, step).map { $0 + $1 }
                let candidateError = sumOfSquares(candidate, observed: observed, camera: camera)
                if candidateError < error {
                    let small = step.enumerated().allSatisfy { abs($0.element) < (($0.offset < 3) ? 1e-10 : 1e-8) }
                    (p, error, lambda, improved) = (candidate, candidateError, max(lambda / 10, 1e-12), !small)
                    break
                }
                lambda *= 10
            }
            if !improved { break }
        }
        return p
    }
}

/// 3 x 3 rotations, row-major.
enum Rotation {
    /// Rodrigues' formula: the rotation by |w| about w / |w|.
    static func matrix(_ wx: Double, _ wy: Double, _ wz: Double) -> [Double] {
        let angle = (wx * wx + wy * wy + wz * wz).squareRoot()
        guard angle > 1e-15 else { return [1, -wz, wy, wz, 1, -wx, -wy, wx, 1] }
        let x = wx / angle, y = wy / angle, z = wz / angle
        let c = cos(angle), s = sin(angle), t = 1 - c
        let xx: Double = t * x * x + c, yy: Double = t * y * y + c, zz: Double = t * z * z + c
        let xy: Double = t * x * y, xz: Double = t * x * z, yz: Double = t * y * z
        let sx: Double = s * x, sy: Double = s * y, sz: Double = s * z
        return [xx, xy - sz, xz + sy, xy + sz, yy, yz - sx, xz - sy, yz + sx, zz]
    }

    static func multiply(_ a: [Double], _ b: [Double]) -> [Double] {
        var product = [Double](repeating: 0, count: 9)
        for row in 0..<3 {
            for column in 0..<3 {
                var sum = 0.0
                for k in 0..<3 { sum += a[row * 3 + k] * b[k * 3 + column] }
                product[row * 3 + column] = sum
            }
        }
        return product
    }

    static func transpose(_ a: [Double]) -> [Double] { [a[0], a[3], a[6], a[1], a[4], a[7], a[2], a[5], a[8]] }

    /// Ry(yaw) Rx(pitch) Rz(roll), angles in degrees.
    static func fromAngles(yaw: Double, pitch: Double, roll: Double) -> [Double] {
        let (y, p, r) = (yaw * .pi / 180, pitch * .pi / 180, roll * .pi / 180)
        let ry: [Double] = [cos(y), 0, sin(y), 0, 1, 0, -sin(y), 0, cos(y)]
        let rx: [Double] = [1, 0, 0, 0, cos(p), -sin(p), 0, sin(p), cos(p)]
        let rz: [Double] = [cos(r), -sin(r), 0, sin(r), cos(r), 0, 0, 0, 1]
        return multiply(ry, multiply(rx, rz))
    }

    /// (yaw, pitch, roll) in degrees of R = Ry(yaw) Rx(pitch) Rz(roll): pitch = asin(-R[1][2]),
    /// yaw = atan2(R[0][2], R[2][2]), roll = atan2(R[1][0], R[1][1]).
    static func angles(_ r: [Double]) -> (Double, Double, Double) {
        let degrees = 180 / Double.pi
        return (
            atan2(r[2], r[8]) * degrees, asin(max(-1, min(1, -r[5]))) * degrees, atan2(r[3], r[4]) * degrees
        )
    }

    /// The rotation Ry(a) Rx(b) taking the z axis onto the unit vector from the head at `t` back
    /// to the camera: a = atan2(w.x, w.z), b = asin(-w.y), w = -t / |t|.
    static func lineOfSight(_ t: [Double]) -> [Double] {
        let length = (t[0] * t[0] + t[1] * t[1] + t[2] * t[2]).squareRoot()
        let w = t.map { -$0 / length }
        let degrees = 180 / Double.pi
        return fromAngles(yaw: atan2(w[0], w[2]) * degrees, pitch: asin(max(-1, min(1, -w[1]))) * degrees, roll: 0)
    }
}

/// Small dense linear systems.
enum LinearSystem {
    /// x with A x = b (A row-major size x size) by Gaussian elimination with partial pivoting;
    /// nil when A is singular.
    static func solve(_ matrix: [Double], _ rhs: [Double], size n: Int) -> [Double]? {
        var a = matrix, b = rhs
        for column in 0..<n {
            let pivot = (column..<n).max { abs(a[$0 * n + column]) < abs(a[$1 * n + column]) }!
            guard abs(a[pivot * n + column]) > 1e-300 else { return nil }
            if pivot != column {
                for k in 0..<n { a.swapAt(pivot * n + k, column * n + k) }
                b.swapAt(pivot, column)
            }
            for row in (column + 1)..<n {
                let factor = a[row * n + column] / a[column * n + column]
                for k in column..<n { a[row * n + k] -= factor * a[column * n + k] }
                b[row] -= factor * b[column]
            }
        }
        var x = [Double](repeating: 0, count: n)
        for row in stride(from: n - 1, through: 0, by: -1) {
            let sum = ((row + 1)..<n).reduce(b[row]) { $0 - a[row * n + $1] * x[$1] }
            x[row] = sum / a[row * n + row]
        }
        return x
    }
}

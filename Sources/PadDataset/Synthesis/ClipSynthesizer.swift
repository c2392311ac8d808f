import Foundation
import PadImage
import PadVideo
import PadVocabulary

/// Makes one short synthetic clip: the scene of ``PresentationSynthesizer`` (placed photo, print
/// or screen) set in motion the way each presentation moves in front of a camera, then captured
/// frame by frame by one camera (settings drawn once, sensor noise anew each frame).
///
/// Example: `VideoCLITests.synthesisedClipsAreCheckedAndBenchedFrameByFrame`
/// in `Tests/CLITests/VideoCLITests.swift` (run by `swift test`).
/// Motion (uniform ranges, periods in frames of the clip):
/// - Bona fide, small natural motion: the head sways against a still background, a displacement
///   of amplitude [1, 2.5]% of the frame width (x) and [0.5, 1.5]% (y) with periods [0.6, 1.2] of
///   the clip, weighted by a Gaussian around the face (sigma = the face's width), so the
///   background does not move and the face bends smoothly into it (not a rigid plane).
/// - Print, a rigid plane: the held paper trembles as one piece, every pixel moved by the same
///   similarity (rotation [0.5, 1.5] degrees, shift [1, 2]% of the frame, same periods).
/// - Replay, screen flicker: the screen stays still; its brightness beats between the display's
///   refresh and the camera's exposure, x(1 + a sin(2 pi t / T)) with a in [0.04, 0.1] and T in
///   [3, 7] frames, and a dark band [10, 25]% of the frame high, darkened by [10, 25]%, rolls
///   down by [5, 15]% of the frame a frame.
package struct ClipSynthesizer: Sendable {
    package var scene: PresentationSynthesizer
    package var frames: Int
    package var rate: Int

    package init(width: Int = 320, height: Int = 240, frames: Int = 15, rate: Int = 15) {
        scene = PresentationSynthesizer(width: width, height: height)
        self.frames = frames
        self.rate = rate
    }

    /// The clip's frames, upright RGB, and the face box of its first frame.
    package func make(_ kind: PresentationSynthesizer.Kind, from source: Image, face: Box, rng: inout SplitMix64)
        -> (frames: [Image], face: Box)
    {
        let still = scene.scene(kind, from: source, face: face, rng: &rng)
        let camera = CameraModel(rng: &rng)
        let motion = Motion(kind: kind, rng: &rng, width: scene.width, height: scene.height)
        var images: [Image] = []
        for t in 0..<frames {
            var frame = motion.frame(t, of: frames, still: still.image, face: still.face, backdrop: still.backdrop)
            camera.apply(&frame, rng: &rng)
            images.append(frame.toImage())
        }
        return (images, still.face)
    }

    /// The clip encoded (`codec`'s container) with the given quantiser.
    package func encode(_ frames: [Image], codec: VideoEncoder.Codec, quality: Int = 5) throws(ImageError) -> [UInt8] {
        try VideoEncoder.encode(frames, rate: rate, codec: codec, quality: quality)
    }

    /// One kind's motion parameters, drawn once per clip.
    struct Motion {
        var kind: PresentationSynthesizer.Kind
        var amplitude: (x: Double, y: Double)
        var periods: (x: Double, y: Double)
        var phases: (x: Double, y: Double)
        var rotation: Double
        var flicker: (amplitude: Double, period: Double)
        var band: (height: Double, depth: Double, speed: Double)

        init(kind: PresentationSynthesizer.Kind, rng: inout SplitMix64, width: Int, height: Int) {
            self.kind = kind
            let w = Double(width)
            if kind == .print {
                amplitude = (rng.uniform(0.01, 0.02) * w, rng.uniform(0.01, 0.02) * Double(height))
            } else {
                amplitude = (rng.uniform(0.01, 0.025) * w, rng.uniform(0.005, 0.015) * w)
            }
            periods = (rng.uniform(0.6, 1.2), rng.uniform(0.6, 1.2))
            phases = (rng.uniform(0, 2 * Double.pi), rng.uniform(0, 2 * Double.pi))
            rotation = rng.uniform(0.5, 1.5) * Double.pi / 180
            flicker = (rng.uniform(0.04, 0.1), rng.uniform(3, 7))
            band = (rng.uniform(0.1, 0.25), rng.uniform(0.1, 0.25), rng.uniform(0.05, 0.15))
        }

        /// The displacement at frame t of n (pixels).
        func shift(_ t: Int, of n: Int) -> (Double, Double) {
            let s = Double(t) / Double(max(n, 1))
            return (
                amplitude.x * sin(2 * Double.pi * s / periods.x + phases.x),
                amplitude.y * sin(2 * Double.pi * s / periods.y + phases.y)
            )
        }

        func frame(_ t: Int, of n: Int, still: FloatImage, face: Box, backdrop: (Float, Float, Float)) -> FloatImage {
            switch kind {
            case .bonafide: return sway(t, of: n, still, face: face)
            case .print:
                let (dx, dy) = shift(t, of: n)
                let angle = rotation * sin(2 * Double.pi * Double(t) / Double(max(n, 1)) / periods.y + phases.y)
                let cx = Double(still.width) / 2, cy = Double(still.height) / 2
                let forward = Homography.similarity(scale: 1, rotation: angle, center: cx, cy, translate: dx, dy)
                return still.warped(
                    width: still.width, height: still.height, inverse: Homography.inverse(forward),
                    background: backdrop)
            case .replay: return flickered(t, still)
            }
        }

        /// The head's displacement, weighted by a Gaussian around the face, read backwards.
        func sway(_ t: Int, of n: Int, _ still: FloatImage, face: Box) -> FloatImage {
            let (dx, dy) = shift(t, of: n)
            let sigma2 = 2 * max(face.width, 1) * max(face.width, 1)
            var out = still
            for y in 0..<still.height {
                for x in 0..<still.width {
                    let ex = Double(x) - face.centerX, ey = Double(y) - face.centerY
                    let weight = exp(-(ex * ex + ey * ey) / sigma2)
                    let sx = Float(Double(x) - weight * dx), sy = Float(Double(y) - weight * dy)
                    for c in 0..<3 {
                        out.pixels[(y * still.width + x) * 3 + c] = still.sample(
                            sx, sy, c, outside: still.pixels[(y * still.width + x) * 3 + c])
                    }
                }
            }
            return out
        }

        /// The screen's brightness beat and the rolling dark band.
        func flickered(_ t: Int, _ still: FloatImage) -> FloatImage {
            var out = still
            let gain = Float(1 + flicker.amplitude * sin(2 * Double.pi * Double(t) / flicker.period))
            let h = Double(still.height)
            let top = (Double(t) * band.speed * h).truncatingRemainder(dividingBy: h)
            for y in 0..<still.height {
                let inBand = (Double(y) - top + h).truncatingRemainder(dividingBy: h) < band.height * h
                let factor = gain * (inBand ? Float(1 - band.depth) : 1)
                for i in (y * still.width * 3)..<((y + 1) * still.width * 3) { out.pixels[i] *= factor }
            }
            return out
        }
    }
}

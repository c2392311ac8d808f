import Foundation
import PadImage
import PadVocabulary

/// Makes one synthetic presentation from a source photo: bona fide (the camera model alone), a
/// print attack or a replay attack, each modelled on how it is physically made and re-captured.
/// Every parameter is drawn from a documented range with the caller's seeded generator.
///
/// Example: `PadDatasetDocExamples.synthesizer`
/// in `Tests/PadDatasetTests/DocExamplesTests.swift` (compiled and run by `swift test`).
/// Ranges (uniform unless said):
/// - Placement (all kinds): the source is scaled to fit the frame height times s in [0.75, 0.95],
///   rotated by [-6, 6] degrees and shifted by up to 8% of the frame; background is the source's
///   mean border colour.
/// - Camera model (all kinds, last): exposure gain [0.75, 1.25]; white balance per channel
///   [0.92, 1.08]; Gaussian sensor noise sigma [1.0, 4.0] (8-bit units); optical blur sigma
///   [0.3, 0.9] px; JPEG quality [80, 95].
/// - Print: contrast compressed into [a, b] with a in [20, 45], b in [200, 235] (ink cannot reach
///   black, paper limits white); saturation x[0.55, 0.85] (CMYK gamut); a clustered-dot halftone
///   screen with cell [3, 5] px at 15/75/0 degrees for the three channels, mixed at [0.25, 0.5];
///   paper texture: multiplicative low-frequency noise +-[2, 5]%; printer blur sigma [0.6, 1.4] px;
///   perspective (paper held in front of the camera): corner jitter up to [2, 6]% of the frame.
/// - Replay: display gamma [1.8, 2.6] against the 2.2 the content assumes; white point: blue
///   x[1.0, 1.12], red x[0.9, 1.0]; an RGB stripe subpixel grid of pitch [2.2, 3.6] px at a
///   rotation of [-4, 4] degrees, resampled by the camera (moire), strength [0.25, 0.5]; glare: a
///   Gaussian highlight of amplitude [30, 90] and radius [8, 25]% of the frame; a dark bezel band of
///   [8, 40] px on one to four sides.
package struct PresentationSynthesizer: Sendable {
    package enum Kind: String, Sendable, CaseIterable { case bonafide, print, replay }

    package var width: Int
    package var height: Int

    package init(width: Int = 640, height: Int = 480) {
        self.width = width
        self.height = height
    }

    /// Returns the JPEG bytes and the face box in the output frame.
    package func make(_ kind: Kind, from source: Image, face: Box, rng: inout SplitMix64) throws(ImageError) -> (
        jpeg: [UInt8], face: Box
    ) {
        var scene = self.scene(kind, from: source, face: face, rng: &rng)
        let quality = applyCamera(&scene.image, rng: &rng)
        return (try ImageEncoder.jpeg(scene.image.toImage(), quality: quality), scene.face)
    }

    /// Everything in front of the camera, in the output frame: the placed photo (printed and held,
    /// or shown on a screen and re-captured, for attacks), the face box and the backdrop colour.
    func scene(_ kind: Kind, from source: Image, face: Box, rng: inout SplitMix64) -> (
        image: FloatImage, face: Box, backdrop: (Float, Float, Float)
    ) {
        var image = FloatImage(source)
        // Mean border colour as the backdrop.
        var border: (Float, Float, Float) = (0, 0, 0)
        var count: Float = 0
        for x in 0..<image.width {
            for y in [0, image.height - 1] {
                let i = (y * image.width + x) * 3
                border.0 += image.pixels[i]; border.1 += image.pixels[i + 1]; border.2 += image.pixels[i + 2];
                count += 1
            }
        }
        border = (border.0 / count, border.1 / count, border.2 / count)

        if kind == .print { applyPrint(&image, rng: &rng) }
        if kind == .replay { applyDisplay(&image, rng: &rng) }

        // Placement (and for print, perspective of the held paper).
        let fit = Double(height) / Double(max(source.height, 1)) * rng.uniform(0.75, 0.95)
        let theta = rng.uniform(-6, 6) * Double.pi / 180
        let tx = rng.uniform(-0.08, 0.08) * Double(width), ty = rng.uniform(-0.08, 0.08) * Double(height)
        // Map source -> output: move source centre to output centre, then scale/rotate about it.
        let centre: [Double] = [
            1, 0, Double(width) / 2 - Double(source.width) / 2, 0, 1, Double(height) / 2 - Double(source.height) / 2, 0,
            0, 1,
        ]
        var forward = Homography.multiply(
            Homography.similarity(
                scale: fit, rotation: theta, center: Double(width) / 2, Double(height) / 2, translate: tx, ty), centre)
        if kind == .print {
            let jitter = rng.uniform(0.02, 0.06)
            var k = forward
            k[6] = rng.uniform(-jitter, jitter) / Double(width)
            k[7] = rng.uniform(-jitter, jitter) / Double(height)
            forward = k
        }
        var output = image.warped(
            width: width, height: height, inverse: Homography.inverse(forward), background: border)
        if kind == .replay { applyRecapturedScreen(&output, rng: &rng) }
        return (output, Homography.mapBox(forward, face), border)
    }

    func applyPrint(_ image: inout FloatImage, rng: inout SplitMix64) {
        let low = Float(rng.uniform(20, 45)), high = Float(rng.uniform(200, 235))
        let saturation = Float(rng.uniform(0.55, 0.85))
        let cell = rng.uniform(3, 5), mix = Float(rng.uniform(0.25, 0.5))
        let paper = Float(rng.uniform(0.02, 0.05))
        let angles = [15.0, 75.0, 0.0].map { $0 * Double.pi / 180 }
        // Low-frequency paper texture: a sum of a few random cosines.
        let waves = (0..<4).map { _ in (rng.uniform(0.01, 0.06), rng.uniform(0.01, 0.06), rng.uniform(0, 6.28)) }
        let w = image.width
        for y in 0..<image.height {
            for x in 0..<w {
                let i = (y * w + x) * 3
                let r = image.pixels[i], g = image.pixels[i + 1], b = image.pixels[i + 2]
                let gray = 0.299 * r + 0.587 * g + 0.114 * b
                var texture: Float = 0
                for wave in waves { texture += Float(cos(wave.0 * Double(x) + wave.1 * Double(y) + wave.2)) }
                texture = 1 + paper * texture / 4
                for c in 0..<3 {
                    var v = gray + (image.pixels[i + c] - gray) * saturation
                    v = low + (high - low) * v / 255
                    // Clustered-dot screen: ink coverage compared with a rotated cosine dot pattern.
                    let a = angles[c]
                    let u = (cos(a) * Double(x) + sin(a) * Double(y)) / cell,
                        t = (-sin(a) * Double(x) + cos(a) * Double(y)) / cell
                    let screen = Float((cos(2 * Double.pi * u) + cos(2 * Double.pi * t)) * 0.25 + 0.5) // 0..1
                    let halftoned: Float = (v / 255) > screen ? 255 : low
                    image.pixels[i + c] = ((1 - mix) * v + mix * halftoned) * texture
                }
            }
        }
        image.gaussianBlur(sigma: rng.uniform(0.6, 1.4))
    }

    func applyDisplay(_ image: inout FloatImage, rng: inout SplitMix64) {
        let gamma = Float(rng.uniform(1.8, 2.6) / 2.2)
        let blue = Float(rng.uniform(1.0, 1.12)), red = Float(rng.uniform(0.9, 1.0))
        for i in stride(from: 0, to: image.pixels.count, by: 3) {
            image.pixels[i] = 255 * pow(image.pixels[i] / 255, gamma) * red
            image.pixels[i + 1] = 255 * pow(image.pixels[i + 1] / 255, gamma)
            image.pixels[i + 2] = 255 * pow(image.pixels[i + 2] / 255, gamma) * blue
        }
    }

    /// Subpixel grid seen by the camera (moire), glare and bezel, in output coordinates.
    func applyRecapturedScreen(_ image: inout FloatImage, rng: inout SplitMix64) {
        let pitch = rng.uniform(2.2, 3.6), angle = rng.uniform(-4, 4) * Double.pi / 180
        let strength = Float(rng.uniform(0.25, 0.5))
        let glareAmplitude = Float(rng.uniform(30, 90))
        let glareRadius = rng.uniform(0.08, 0.25) * Double(image.width)
        let gx = rng.uniform(0.1, 0.9) * Double(image.width), gy = rng.uniform(0.1, 0.9) * Double(image.height)
        let w = image.width, h = image.height
        for y in 0..<h {
            for x in 0..<w {
                let u = (cos(angle) * Double(x) + sin(angle) * Double(y)) / pitch
                let i = (y * w + x) * 3
                let dx = Double(x) - gx, dy = Double(y) - gy
                let glare = glareAmplitude * Float(exp(-(dx * dx + dy * dy) / (2 * glareRadius * glareRadius)))
                for c in 0..<3 {
                    // Each colour's stripe occupies a third of the pixel pitch; the camera samples it.
                    let phase = u - Double(c) / 3
                    let stripe = Float(0.5 + 0.5 * cos(2 * Double.pi * phase))
                    image.pixels[i + c] = image.pixels[i + c] * (1 - strength + strength * 2 * stripe * 0.75) + glare
                }
            }
        }
        let sides = rng.integer(1, 4)
        for side in 0..<sides {
            let band = rng.integer(8, 40)
            for y in 0..<h {
                for x in 0..<w {
                    let inBand: Bool
                    switch side {
                    case 0: inBand = y < band
                    case 1: inBand = x >= w - band
                    case 2: inBand = y >= h - band
                    default: inBand = x < band
                    }
                    if inBand { for c in 0..<3 { image.pixels[(y * w + x) * 3 + c] = 18 } }
                }
            }
        }
    }

    /// Exposure, white balance, optical blur and sensor noise; returns the JPEG quality to use.
    func applyCamera(_ image: inout FloatImage, rng: inout SplitMix64) -> Int {
        CameraModel(rng: &rng).apply(&image, rng: &rng)
        return rng.integer(80, 95)
    }
}

/// The camera's settings, drawn once per capture (a still, or every frame of a clip): exposure
/// gain [0.75, 1.25], white balance per channel [0.92, 1.08], optical blur sigma [0.3, 0.9] px,
/// sensor noise sigma [1.0, 4.0]; the noise itself is drawn anew for every frame.
struct CameraModel {
    var gain: Float
    var balance: [Float]
    var blur: Double
    var noise: Double

    init(rng: inout SplitMix64) {
        gain = Float(rng.uniform(0.75, 1.25))
        balance = (0..<3).map { _ in Float(rng.uniform(0.92, 1.08)) }
        blur = rng.uniform(0.3, 0.9)
        noise = rng.uniform(1.0, 4.0)
    }

    func apply(_ image: inout FloatImage, rng: inout SplitMix64) {
        image.gaussianBlur(sigma: blur)
        for i in stride(from: 0, to: image.pixels.count, by: 3) {
            for c in 0..<3 {
                image.pixels[i + c] = image.pixels[i + c] * gain * balance[c] + Float(noise * rng.gaussian())
            }
        }
    }
}

import Testing
@testable import PadEstimators
@testable import PadImage

/// IDA features on 64x64 images (the crop is then the image itself), values by hand.
@Suite struct IDAFeaturesTests {
    static func image(_ pixel: (Int, Int) -> (UInt8, UInt8, UInt8)) -> Image {
        var image = Image(width: 64, height: 64, format: .rgb)
        for y in 0..<64 {
            for x in 0..<64 {
                let (r, g, b) = pixel(x, y)
                let i = (y * 64 + x) * 3
                image.pixels[i] = r; image.pixels[i + 1] = g; image.pixels[i + 2] = b
            }
        }
        return image
    }

    @Test func flatLightGray() {
        let f = IDAFeatures.extract(Self.image { _, _ in (200, 200, 200) }, face: nil)
        #expect(f.count == IDAFeatures.count && IDAFeatures.names.count == IDAFeatures.count)
        // Every pixel is achromatic and bright: specular fraction 1, V = 200/255, no spread.
        // (sums of 4096 equal values carry rounding: compare within 1e-9)
        #expect(f[0] == 1 && abs(f[1] - 200.0 / 255) < 1e-9 && f[2] < 1e-9)
        #expect(f[3] == 1 && f[4] == 0) // flat: Crete undefined -> 1 (fully blurred); no edges
        #expect(Array(f[5..<10]) == [0, 0, 0, 1, 0]) // hue: all 0 -> lowest bin
        // V 0.784: neither end bin.
        #expect(abs(f[15] - 200.0 / 255) < 1e-9 && f[16] < 1e-9 && Array(f[17..<20]) == [0, 0, 0])
        #expect(f[20] == 1 && f[21] == 0 && f[120] == 1.0 / 4096)
    }

    @Test func halfRedHalfBlue() {
        let f = IDAFeatures.extract(Self.image { x, _ in x < 32 ? (255, 0, 0) : (0, 0, 255) }, face: nil)
        #expect(Array(f[0..<3]) == [0, 0, 0]) // saturated: nothing specular
        // Hue 0 (red) and 4/6 (blue): mean 1/3, std 1/3, skew 0; half in the lowest bin.
        #expect(
            abs(f[5] - 1.0 / 3) < 1e-12 && abs(f[6] - 1.0 / 3) < 1e-12 && abs(f[7]) < 1e-9 && f[8] == 0.5 && f[9] == 0)
        #expect(Array(f[10..<15]) == [1, 0, 0, 0, 1]) // saturation 1 everywhere
        #expect(f[20] == 0.5 && f[21] == 0.5 && f[22] == 0 && f[120] == 2.0 / 4096)
    }

    @Test func stepEdgeHasWidthOne() {
        let f = IDAFeatures.extract(Self.image { x, _ in x < 32 ? (50, 50, 50) : (200, 200, 200) }, face: nil)
        #expect(f[4] == 1)
    }
}

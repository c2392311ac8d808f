import Foundation
import Testing
import PadImage

/// The examples the PadImage doc comments point to, compiled and checked here.
@Suite struct PadImageDocExamples {
    /// ``ImageEncoder`` and ``ImageDecoder``: PNG is lossless, JPEG keeps the size; the decoder's
    /// pixel limit refuses a larger image.
    @Test func encodeAndDecode() throws {
        let image = Image(
            width: 3, height: 2, format: .rgb,
            pixels: [255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30, 40, 50, 60, 70, 80, 90])
        let png = try ImageEncoder.png(image)
        #expect(try ImageDecoder().decode(png) == image)
        let jpeg = try ImageEncoder.jpeg(image, quality: 90)
        let decoded = try ImageDecoder(maxPixels: 50_000_000).decode(jpeg)
        #expect(decoded.width == 3 && decoded.height == 2 && decoded.format == .rgb)
        #expect(throws: ImageError.self) { try ImageDecoder(maxPixels: 5).decode(png) }
    }

    /// ``Image/rgb(x:y:)``: a gray pixel gives its value three times.
    @Test func rgbAccess() {
        let image = Image(width: 2, height: 1, format: .rgb, pixels: [1, 2, 3, 4, 5, 6])
        #expect(image.rgb(x: 1, y: 0) == (4, 5, 6))
        let gray = Image(width: 1, height: 1, format: .gray, pixels: [9])
        #expect(gray.rgb(x: 0, y: 0) == (9, 9, 9))
    }

    /// ``GrayPlane``: OpenCV's fixed-point weights, (4899 R + 9617 G + 1868 B + 8192) >> 14 by hand:
    /// red 255 -> 76, green 255 -> 150, blue 255 -> 29; a constant plane resizes to the same constant.
    @Test func grayPlane() {
        let image = Image(width: 3, height: 1, format: .rgb, pixels: [255, 0, 0, 0, 255, 0, 0, 0, 255])
        #expect(GrayPlane(image).pixels == [76, 150, 29])
        let flat = GrayPlane(width: 64, height: 48, pixels: [UInt8](repeating: 77, count: 64 * 48))
        let small = flat.resized(width: 32, height: 24)
        #expect(small.width == 32 && small.height == 24 && small.pixels.allSatisfy { $0 == 77 })
    }
}

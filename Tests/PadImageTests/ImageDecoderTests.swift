import Foundation
import Testing
@testable import PadImage
import PadVocabulary

@Suite struct BoxTests {
    @Test func iouOfHalfOverlappingBoxes() {
        let a = Box(x: 0, y: 0, width: 10, height: 10)
        let b = Box(x: 5, y: 0, width: 10, height: 10)
        // intersection 50, union 150
        #expect(abs(a.iou(b) - 50.0 / 150.0) < 1e-12)
        #expect(a.iou(Box(x: 20, y: 20, width: 1, height: 1)) == 0)
    }
}

@Suite struct RoundTripTests {
    static func gradient(_ format: Image.PixelFormat) -> Image {
        var image = Image(width: 37, height: 21, format: format)
        for i in image.pixels.indices { image.pixels[i] = UInt8((i * 7) % 256) }
        return image
    }

    @Test(arguments: [Image.PixelFormat.gray, .rgb])
    func pngIsLossless(_ format: Image.PixelFormat) throws {
        let image = Self.gradient(format)
        let decoded = try ImageDecoder().decode(ImageEncoder.png(image))
        #expect(decoded == image)
    }

    @Test(arguments: [Image.PixelFormat.gray, .rgb])
    func pnmIsLossless(_ format: Image.PixelFormat) throws {
        let image = Self.gradient(format)
        #expect(try ImageDecoder().decode(ImageEncoder.pnm(image)) == image)
    }

    @Test func jpegAtQuality100IsClose() throws {
        var image = Image(width: 64, height: 48, format: .rgb)
        for y in 0..<48 {
            for x in 0..<64 {
                let i = (y * 64 + x) * 3
                image.pixels[i] = UInt8(x * 4); image.pixels[i + 1] = UInt8(y * 5); image.pixels[i + 2] = 128
            }
        }
        let decoded = try ImageDecoder().decode(ImageEncoder.jpeg(image, quality: 100, subsampling: .s444))
        #expect(decoded.width == 64 && decoded.height == 48 && decoded.format == .rgb)
        let maxError = zip(decoded.pixels, image.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(maxError <= 3)
    }

    @Test func truncatedJPEGIsAnErrorNotGray() throws {
        let image = Self.gradient(.rgb)
        let jpeg = try ImageEncoder.jpeg(image, quality: 90)
        let truncated = Array(jpeg.prefix(jpeg.count * 2 / 3))
        #expect(throws: ImageError.self) { try ImageDecoder().decode(truncated) }
    }

    @Test func pixelLimitIsCheckedBeforeDecoding() throws {
        let jpeg = try ImageEncoder.jpeg(Self.gradient(.gray))
        #expect(throws: ImageError.tooLarge(width: 37, height: 21, limit: 100)) {
            try ImageDecoder(maxPixels: 100).decode(jpeg)
        }
    }
}

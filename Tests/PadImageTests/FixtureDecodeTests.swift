import Foundation
import Testing
@testable import PadImage

/// Real files written by Pillow (Fixtures/make_fixtures.py), compared with Pillow's own decode.
@Suite struct FixtureDecodeTests {
    static let folder = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.path
    static var expected: [String: [String: Any]] {
        try! JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/expected.json")))
            as! [String: [String: Any]]
    }

    @Test(arguments: [
        "orient6.jpg", "progressive.jpg", "gray.jpg", "cmyk.jpg", "palette.png", "gray16.png", "rgba_interlaced.png",
    ])
    func decodesLikePillow(_ file: String) throws {
        let e = Self.expected[file]!
        let image = try ImageDecoder().decode(fileAt: Self.folder + "/" + file)
        #expect(
            image.width == e["width"] as! Int && image.height == e["height"] as! Int,
            "\(file): \(image.width)x\(image.height)")
        let corners = e["corners"] as! [[Int]]
        let w = image.width, h = image.height
        // JPEG: the same libjpeg-turbo decode up to chroma upsampling; PNG: exact.
        let tolerance = file.hasSuffix(".jpg") ? 6 : 0
        for (i, (x, y)) in [(2, 2), (w - 3, 2), (2, h - 3), (w - 3, h - 3)].enumerated() {
            let (r, g, b) = image.rgb(x: x, y: y)
            let got = [Int(r), Int(g), Int(b)]
            #expect(
                zip(got, corners[i]).allSatisfy { abs($0 - $1) <= tolerance },
                "\(file) corner \(i): \(got) vs Pillow \(corners[i])")
        }
        if file == "gray.jpg" || file == "gray16.png" { #expect(image.format == .gray) }
    }

    /// CRC-32 (ISO 3309, polynomial 0xEDB88320) as PNG chunks use.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    @Test func orientationCanBeTurnedOff() throws {
        let stored = try ImageDecoder(applyExifOrientation: false).decode(fileAt: Self.folder + "/orient6.jpg")
        #expect(stored.width == 32 && stored.height == 16)
        #expect(
            ExifOrientation.read(
                fromJPEG: [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.folder + "/orient6.jpg")))) == .right)
    }

    @Test func everyOrientationMapsPixelsLikeTheEXIFTable() {
        // 3x2 image with distinct values; displayed results per EXIF 2.32 orientation definitions.
        let image = Image(width: 3, height: 2, format: .gray, pixels: [1, 2, 3, 4, 5, 6])
        #expect(image.oriented(.upMirrored).pixels == [3, 2, 1, 6, 5, 4])
        #expect(image.oriented(.down).pixels == [6, 5, 4, 3, 2, 1])
        #expect(image.oriented(.downMirrored).pixels == [4, 5, 6, 1, 2, 3])
        #expect(image.oriented(.leftMirrored).pixels == [1, 4, 2, 5, 3, 6]) // transpose
        #expect(image.oriented(.right).pixels == [4, 1, 5, 2, 6, 3]) // 90 clockwise
        #expect(image.oriented(.rightMirrored).pixels == [6, 3, 5, 2, 4, 1]) // transverse
        #expect(image.oriented(.left).pixels == [3, 6, 2, 5, 1, 4]) // 90 counter-clockwise
        #expect(image.oriented(.right).width == 2 && image.oriented(.right).height == 3)
    }

    @Test func damagedFilesAreErrorsWithStableCodes() throws {
        let png = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.folder + "/palette.png")))
        #expect { try ImageDecoder().decode(Array(png.prefix(png.count - 20))) } throws: {
            ($0 as! ImageError).statusCode == .decodeError
        }
        #expect { try ImageDecoder().decode([]) } throws: { ($0 as! ImageError).statusCode == .decodeError }
        #expect { try ImageDecoder().decode(Array("GIF89a....".utf8)) } throws: {
            ($0 as! ImageError).statusCode == .unsupportedFormat
        }
        #expect { try ImageDecoder().decode(fileAt: "/nonexistent.jpg") } throws: {
            ($0 as! ImageError).statusCode == .missingFile
        }
        // A PNG header announcing 30000 x 30000 pixels is refused before any allocation.
        var bomb = png
        for (i, b) in [0x00, 0x00, 0x75, 0x30, 0x00, 0x00, 0x75, 0x30].enumerated() { bomb[16 + i] = UInt8(b) }
        // Recompute the IHDR chunk's CRC-32 (over type and data, bytes 12..<29) so libpng accepts it.
        let crc = Self.crc32(Array(bomb[12..<29]))
        for i in 0..<4 { bomb[29 + i] = UInt8(truncatingIfNeeded: crc >> (24 - 8 * i)) }
        #expect(throws: ImageError.tooLarge(width: 30000, height: 30000, limit: 100_000_000)) {
            try ImageDecoder().decode(bomb)
        }
    }
}

import Foundation
import Testing

@testable import PadImage
import TestSupport

/// `ImageDecoder.header(fileAt:)` says what a full decode would say about a still's size and
/// orientation, and refuses what decode refuses before the pixels.
@Suite struct StillHeaderTests {
    static let fixtures = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.path

    @Test(arguments: [
        "orient6.jpg", "progressive.jpg", "gray.jpg", "cmyk.jpg", "palette.png", "gray16.png", "rgba_interlaced.png",
    ])
    func headerSizeIsTheDecodedSize(_ file: String) throws {
        let decoder = ImageDecoder()
        let (image, orientation) = try decoder.decodeWithOrientation(fileAt: Self.fixtures + "/" + file)
        let header = try decoder.header(fileAt: Self.fixtures + "/" + file)
        #expect(header == StillHeader(width: image.width, height: image.height, storedOrientation: orientation))
    }

    /// orient6.jpg is stored 90 degrees off: the header's size is the upright one, and the stored
    /// one when the decoder leaves orientation alone.
    @Test func orientationSwapsTheSizeAsDecodeDoes() throws {
        let path = Self.fixtures + "/orient6.jpg"
        let upright = try ImageDecoder().header(fileAt: path)
        let stored = try ImageDecoder(applyExifOrientation: false).header(fileAt: path)
        #expect(upright.storedOrientation == 6 && stored.storedOrientation == 6)
        #expect(upright.width == stored.height && upright.height == stored.width && upright.width != upright.height)
    }

    @Test func headerRefusesWhatDecodeRefusesBeforeThePixels() throws {
        let folder = TestFolder.root + "/padbench-header-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pattern = (0..<(120 * 90 * 3)).map { UInt8(truncatingIfNeeded: $0 &* 37 ^ $0 >> 5) }
        let jpeg = try ImageEncoder.jpeg(Image(width: 120, height: 90, format: .rgb, pixels: pattern))
        let files: [String: [UInt8]] = [
            "empty.jpg": [], "text.jpg": Array("hello".utf8), "cut.jpg": Array(jpeg.prefix(20)),
            "big.jpg": jpeg,
        ]
        for (name, bytes) in files { try Data(bytes).write(to: URL(fileURLWithPath: folder + "/" + name)) }
        let small = ImageDecoder(maxPixels: 10_000)
        for name in ["missing.jpg", "empty.jpg", "text.jpg", "cut.jpg", "big.jpg"] {
            let path = folder + "/" + name
            var decodeError: ImageError?, headerError: ImageError?
            do { _ = try small.decode(fileAt: path) } catch { decodeError = error }
            do { _ = try small.header(fileAt: path) } catch { headerError = error }
            #expect(decodeError != nil && headerError?.statusCode == decodeError?.statusCode, "\(name)")
            #expect(headerError?.description == decodeError?.description, "\(name)")
        }
        // Damage after the header is not seen without decoding.
        let truncated = folder + "/truncated.jpg"
        try Data(jpeg.prefix(jpeg.count / 2)).write(to: URL(fileURLWithPath: truncated))
        #expect(throws: ImageError.self) { try ImageDecoder().decode(fileAt: truncated) }
        #expect(
            try ImageDecoder().header(fileAt: truncated) == StillHeader(width: 120, height: 90, storedOrientation: 1))
    }
}

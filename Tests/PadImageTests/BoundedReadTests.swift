import Foundation
import Testing
@testable import PadImage
import TestSupport

/// The bytes read per image are bounded and progressive scan bombs are refused (issue 25).
@Suite struct BoundedReadTests {
    static let folder = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.path

    static func bytes(_ fixture: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/" + fixture)))
    }

    static func write(_ bytes: [UInt8]) -> String {
        let path = TestFolder.root + "/padbench-bounded-\(UUID().uuidString).jpg"
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    /// 570 scans (Fixtures/make_scan_bomb.c): refused by libjpeg-turbo's limit of 500, and the
    /// message names the limit. It decoded before TJFLAG_LIMITSCANS was passed.
    @Test func progressiveScanBombIsRefusedBeforeDecoding() throws {
        var failure: ImageError?
        do { _ = try ImageDecoder().decode(fileAt: Self.folder + "/scan_bomb.jpg") } catch { failure = error }
        let error = try #require(failure)
        #expect(error.statusCode == .tooLarge)
        #expect(
            "\(error)"
                == "progressive JPEG of 16x16 with 570 scans, over the 500 its size allows (scans x pixels at most "
                + "2000000000, at most 500); not decoded")
        #expect(JPEGScans.count(try Self.bytes("scan_bomb.jpg")) == (true, 570))
        #expect(JPEGScans.count(try Self.bytes("progressive.jpg")).progressive)
        #expect(JPEGScans.count(try Self.bytes("gray.jpg")).progressive == false)
    }

    /// Scans are counted from the markers before libjpeg-turbo runs: a 4096x4096 progressive
    /// frame with 120 scans (under libjpeg-turbo's 500, so decoded scan after scan before: a
    /// 10000x10000 file of 380 such scans took 10.4 s and 934 MB to decode) is over its budget of
    /// 2 x 10^9 / 16,777,216 = 119 scans and refused unread; 119 scans are left to the decoder.
    @Test func scansTimesPixelsOverTheBudgetAreRefusedBeforeDecoding() throws {
        func progressive(scans: Int) -> [UInt8] {
            var bytes: [UInt8] = [0xFF, 0xD8]
            // SOF2: length 17, 8 bits, 4096 x 4096, 3 components (id, sampling 1x1, table 0).
            bytes += [0xFF, 0xC2, 0x00, 0x11, 0x08, 0x10, 0x00, 0x10, 0x00, 0x03]
            bytes += [0x01, 0x11, 0x00, 0x02, 0x11, 0x00, 0x03, 0x11, 0x00]
            for _ in 0..<scans {
                // SOS of component 1, coefficients 1-1, then two bytes of data (one a stuffed 0xFF00).
                bytes += [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x01, 0x01, 0x00, 0x12, 0xFF, 0x00]
            }
            return bytes + [0xFF, 0xD9]
        }
        #expect(JPEGScans.allowed(pixels: 4096 * 4096) == 119)
        #expect(JPEGScans.allowed(pixels: 100_000_000) == 20 && JPEGScans.allowed(pixels: 256) == 500)
        #expect(JPEGScans.count(progressive(scans: 120)) == (true, 120))
        let error = #expect(throws: ImageError.self) { try ImageDecoder().decode(progressive(scans: 120)) }
        #expect(error?.statusCode == .tooLarge)
        #expect(error?.description.hasPrefix("progressive JPEG of 4096x4096 with 120 scans, over the 119") == true)
        // Within the budget the decoder gets the file (and finds these scans empty and wrong).
        let decoded = #expect(throws: ImageError.self) { try ImageDecoder().decode(progressive(scans: 119)) }
        #expect(decoded?.statusCode == .decodeError)
    }

    /// 6 bytes per pixel of the pixel limit plus 16 MiB.
    @Test func defaultFileLimitFollowsThePixelLimit() {
        #expect(ImageDecoder().maxFileBytes == 616_777_216)
        #expect(ImageDecoder(maxPixels: 1000).maxFileBytes == 6000 + (16 << 20))
        #expect(ImageDecoder(maxPixels: .max).maxFileBytes == .max)
        #expect(ImageDecoder(maxPixels: 1000, maxFileBytes: 5).maxFileBytes == 5)
    }

    /// A valid JPEG followed by 17 MiB of zeros decoded "ok" after being read whole; with a pixel
    /// limit of 1,000 (16 MiB + 6,000 bytes per file) it is refused by its size, unread.
    @Test func validJPEGFollowedByZerosIsRefusedBySize() throws {
        var image = Image(width: 20, height: 10, format: .gray)
        for i in image.pixels.indices { image.pixels[i] = UInt8(i % 251) }
        let jpeg = try ImageEncoder.jpeg(image)
        let path = Self.write(jpeg + [UInt8](repeating: 0, count: 17 << 20))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let size = jpeg.count + (17 << 20)
        #expect(throws: ImageError.fileTooLarge(bytes: size, limit: 6000 + (16 << 20))) {
            try ImageDecoder(maxPixels: 1000).decode(fileAt: path)
        }
        #expect(ImageError.fileTooLarge(bytes: size, limit: 1).statusCode == .tooLarge)
        // The same file within a larger limit still decodes (trailing bytes after EOI are ignored).
        #expect(try ImageDecoder(maxPixels: 1000, maxFileBytes: 18 << 20).decode(fileAt: path).width == 20)
    }

    /// A /proc file says 0 bytes in stat and has data (/proc/self/pagemap is endless): refused
    /// after one byte, never read to the end.
    @Test func procFileReportingSizeZeroIsRefused() throws {
        var failure: ImageError?
        do { _ = try ImageDecoder().decode(fileAt: "/proc/self/status") } catch { failure = error }
        let error = try #require(failure)
        #expect(error.statusCode == .missingFile)
        #expect("\(error)".contains("reports a size of 0 bytes but has data"), "\(error)")
    }

    @Test func endlessProcFileIsNotReadToTheEnd() throws {
        let started = Date()
        #expect(throws: ImageError.self) { try ImageDecoder().decode(fileAt: "/proc/self/pagemap") }
        #expect(Date().timeIntervalSince(started) < 5)
    }
}

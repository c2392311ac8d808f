import Foundation
import Testing
@testable import PadImage
import TestSupport

/// The bytes read per image are bounded and progressive scan bombs are refused (issue 25).
@Suite struct BoundedReadTests {
    static let folder = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.path

    static func write(_ bytes: [UInt8]) -> String {
        let path = TestFolder.root + "/padbench-bounded-\(UUID().uuidString).jpg"
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    /// 570 scans (Fixtures/make_scan_bomb.c): refused by libjpeg-turbo's limit of 500, and the
    /// message names the limit. It decoded before TJFLAG_LIMITSCANS was passed.
    @Test func progressiveScanBombIsADecodeErrorNamingTheLimit() throws {
        var failure: ImageError?
        do { _ = try ImageDecoder().decode(fileAt: Self.folder + "/scan_bomb.jpg") } catch { failure = error }
        let error = try #require(failure)
        #expect(error.statusCode == .decodeError)
        #expect("\(error)".contains("more than 500 scans") && "\(error)".contains("TJFLAG_LIMITSCANS"), "\(error)")
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

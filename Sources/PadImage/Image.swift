/// An 8-bit image held in memory, row-major and interleaved, with no padding between rows.
///
/// Example: `PadImageDocExamples.rgbAccess`
/// in `Tests/PadImageTests/DocExamplesTests.swift` (compiled and run by `swift test`).
///
/// Gray images have one channel, RGB images three. Everything padbench decodes is converted to
/// one of these two layouts so that estimators never deal with palettes, alpha or 16-bit data.
package struct Image: Sendable, Equatable {
    package enum PixelFormat: Sendable, Equatable, CustomStringConvertible {
        case gray
        case rgb

        package var channels: Int { self == .gray ? 1 : 3 }
        package var description: String { self == .gray ? "gray" : "rgb" }
    }

    package let width: Int
    package let height: Int
    package let format: PixelFormat
    /// `width * height * format.channels` bytes.
    package var pixels: [UInt8]

    package var channels: Int { format.channels }
    package var pixelCount: Int { width * height }

    package init(width: Int, height: Int, format: PixelFormat, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0, "negative image size")
        precondition(pixels.count == width * height * format.channels, "pixel buffer does not match size")
        self.width = width
        self.height = height
        self.format = format
        self.pixels = pixels
    }

    /// A black image of the given size.
    package init(width: Int, height: Int, format: PixelFormat) {
        self.init(
            width: width, height: height, format: format,
            pixels: [UInt8](repeating: 0, count: width * height * format.channels))
    }

    /// The red, green and blue values at (x, y); a gray pixel gives the same value three times.
    @inlinable
    package func rgb(x: Int, y: Int) -> (UInt8, UInt8, UInt8) {
        let i = (y * width + x) * format.channels
        if format == .gray { return (pixels[i], pixels[i], pixels[i]) }
        return (pixels[i], pixels[i + 1], pixels[i + 2])
    }
}

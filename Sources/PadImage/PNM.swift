/// Binary PGM (`P5`) and PPM (`P6`) with maxval up to 65535 (16-bit samples are scaled to 8 bits).
func decodePNM(_ bytes: [UInt8], maxPixels: Int) throws(ImageError) -> Image {
    var position = 2
    func skipSpaceAndComments() {
        while position < bytes.count {
            let c = bytes[position]
            if c == UInt8(ascii: "#") {
                while position < bytes.count, bytes[position] != 0x0A { position += 1 }
            } else if c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D {
                position += 1
            } else {
                return
            }
        }
    }
    func readNumber(_ what: String) throws(ImageError) -> Int {
        skipSpaceAndComments()
        var value = 0, digits = 0
        while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 {
            value = value * 10 + Int(bytes[position] - 0x30)
            digits += 1
            position += 1
            if value > 1 << 30 { throw .decodeError("PNM header: \(what) too large") }
        }
        if digits == 0 { throw .decodeError("PNM header: missing \(what)") }
        return value
    }
    let format: Image.PixelFormat = bytes[1] == UInt8(ascii: "5") ? .gray : .rgb
    let width = try readNumber("width"), height = try readNumber("height"), maxval = try readNumber("maxval")
    guard width > 0, height > 0 else { throw .decodeError("PNM header: empty image \(width)x\(height)") }
    guard (1...65535).contains(maxval) else { throw .decodeError("PNM header: maxval \(maxval) out of 1...65535") }
    guard width * height <= maxPixels else { throw .tooLarge(width: width, height: height, limit: maxPixels) }
    position += 1 // exactly one whitespace byte after maxval
    let bytesPerSample = maxval > 255 ? 2 : 1
    let sampleCount = width * height * format.channels
    guard bytes.count - position >= sampleCount * bytesPerSample else {
        throw .decodeError("PNM data: truncated (\(bytes.count - position) of \(sampleCount * bytesPerSample) bytes)")
    }
    var pixels = [UInt8](repeating: 0, count: sampleCount)
    for i in 0..<sampleCount {
        let raw =
            bytesPerSample == 1
            ? Int(bytes[position + i])
            : Int(bytes[position + 2 * i]) << 8 | Int(bytes[position + 2 * i + 1])
        pixels[i] = maxval == 255 ? UInt8(raw) : UInt8(min(255, (raw * 255 + maxval / 2) / maxval))
    }
    return Image(width: width, height: height, format: format, pixels: pixels)
}

import PadImage

/// Binary PGM/PPM decoding (`P5`, `P6`, maxval up to 65535): any bytes give an image or an
/// ImageError, never a crash or a read outside the input. Inputs are steered to the PNM path: the
/// first byte picks P5 or P6 and the rest follows the signature. A decoded image must have the
/// size its header announced, within the pixel limit.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNM(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let kind = (input.first ?? 0) & 1 == 0 ? UInt8(ascii: "5") : UInt8(ascii: "6")
    let bytes = [UInt8(ascii: "P"), kind] + input.dropFirst()
    let decoder = ImageDecoder(maxPixels: 1 << 20)
    guard let image = try? decoder.decode(bytes) else { return 0 }
    let channels = kind == UInt8(ascii: "5") ? 1 : 3
    guard image.width > 0, image.height > 0, image.width * image.height <= 1 << 20,
        image.pixels.count == image.width * image.height * channels
    else { fatalError("PNM decoded to \(image.width)x\(image.height) with \(image.pixels.count) bytes") }
    return 0
}

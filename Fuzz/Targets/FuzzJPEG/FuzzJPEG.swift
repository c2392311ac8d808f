import PadImage

/// JPEG decoding with EXIF orientation (libjpeg-turbo through ImageDecoder): any bytes give an
/// image or an ImageError, never a crash; inputs are steered to the JPEG path by their SOI marker.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEG(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if !(bytes.count >= 2 && bytes[0] == 0xFF && bytes[1] == 0xD8) { bytes = [0xFF, 0xD8] + bytes }
    _ = try? ImageDecoder(maxPixels: 4_000_000).decode(bytes)
    return 0
}

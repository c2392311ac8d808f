import PadImage

/// PNG decoding with eXIf orientation (libpng through ImageDecoder); inputs are steered to the
/// PNG path by its signature.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    var bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if !bytes.starts(with: signature) { bytes = signature + bytes }
    _ = try? ImageDecoder(maxPixels: 4_000_000).decode(bytes)
    return 0
}

import FuzzSupport
import PadImage
@testable import PadEstimators

/// OpenCV cascade XML (Foundation's XMLParser, padbench's element tree and the cascade checks):
/// any file loads or is refused with a CascadeError, never a crash; nesting is limited while
/// parsing. A cascade that loads is run over a 48x40 gradient, so a rectangle or index the checks
/// let through that reads outside the integral image is found by AddressSanitizer.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCascadeXML(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let path = ScratchFile.write(UnsafeRawBufferPointer(start: data, count: size), name: "cascade.xml")
    guard let cascade = try? CascadeClassifier(contentsOfFile: path) else { return 0 }
    let width = 48, height = 40
    let plane = GrayPlane(
        width: width, height: height, pixels: (0..<(width * height)).map { UInt8(truncatingIfNeeded: ($0 % width) * 5 + ($0 / width)) })
    _ = CascadeDetector(cascade: cascade).detect(in: plane, scaleFactor: 1.25, minNeighbors: 1)
    return 0
}

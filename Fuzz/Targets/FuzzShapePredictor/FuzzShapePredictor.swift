import Foundation
import PadEstimators
import PadImage

/// dlib shape-predictor files: the reader, and every model it accepts evaluated on a small plane
/// (split indices, anchors and leaf sizes it let through must be safe to use).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzShapePredictor(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard let model = try? ShapePredictorReader.read(Data(bytes: data, count: size)) else { return 0 }
    let pixels = (0..<(24 * 20)).map { UInt8(truncatingIfNeeded: $0 &* 37) }
    let plane = GrayPlane(width: 24, height: 20, pixels: pixels)
    for rectangle in [
        DlibRectangle(left: 2, top: 3, right: 20, bottom: 18), DlibRectangle(left: -50, top: -40, right: 90, bottom: 70),
    ] {
        _ = model.landmarks(in: plane, rectangle: rectangle)
    }
    return 0
}

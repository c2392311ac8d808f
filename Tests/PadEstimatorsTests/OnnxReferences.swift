import Foundation
import PadImage

/// `Fixtures/onnx/references.json`: values computed once with Python onnxruntime 1.32.0 and OpenCV
/// 4.14 by `Fixtures/onnx/make_references.py` (upstream pre- and post-processing), read by the
/// UltraFace, MiniFASNet and resize tests.
struct OnnxReferences: Decodable {
    struct UltraFace: Decodable {
        var image: String
        var model: String
        var width: Int
        var height: Int
        var faces: [[Double]]
    }
    struct Raw: Decodable {
        var image: String
        var model: String
        var scores_class1_first20: [Double]
        var boxes_first20: [[Double]]
    }
    struct MiniFASNet: Decodable {
        var k: Int
        var image: String
        var box: [Double]
        var crop_v2: [Int]
        var crop_v1se: [Int]
        var png_v2: String
        var png_v1se: String
        var v2: [Double]
        var v1se: [Double]
        var score: Double
    }
    struct Resize: Decodable {
        var `in`: String
        var out: String
        var src_width: Int
        var src_height: Int
        var channels: Int
        var dst_width: Int
        var dst_height: Int
    }
    var ultraface: [UltraFace]
    var ultraface_raw: [Raw]
    var minifasnet: [MiniFASNet]
    var resize: [Resize]

    /// The repository's root (images are named relative to it).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let folder = Bundle.module.url(forResource: "Fixtures/onnx", withExtension: nil)!.path
    static let models = root + "/models"
    static let loaded: OnnxReferences = try! JSONDecoder().decode(
        OnnxReferences.self, from: Data(contentsOf: URL(fileURLWithPath: folder + "/references.json")))

    /// An image of the references, decoded by padbench (EXIF applied, as `cv2.imread`).
    static func image(_ relative: String) throws -> Image {
        try ImageDecoder().decode(fileAt: root + "/" + relative)
    }
}

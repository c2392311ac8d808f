import PadImage
import PadVocabulary

/// The colour order a network takes its input in.
package enum ChannelOrder: String, Sendable {
    case rgb, bgr
    /// One channel, OpenCV's luma (``PadImage/GrayPlane``).
    case gray

    package var channels: Int { self == .gray ? 1 : 3 }
}

extension Image {
    /// These pixels as a network's float input: `order`, each value `(v x scale - mean[c]) / std[c]`
    /// (`mean`, `std` per channel in the network's order; empty = 0 and 1), planar (`C x H x W`) or
    /// interleaved (`H x W x C`). A gray image gives its value in every colour channel (what
    /// `cv2.imread` gives for it). Each channel's 256 possible values are computed once, in double
    /// precision then rounded to float, so the result is the formula's for every pixel.
    ///
    /// Example: `ImageTensorTests.formulasOfTheThreeNetworks` in `Tests/PadEstimatorsTests/OnnxNetworkTests.swift`.
    package func tensor(
        order: ChannelOrder, planar: Bool = true, scale: Double = 1, mean: [Double] = [], std: [Double] = []
    ) -> [Float] {
        let outChannels = order.channels
        let source = order == .gray && channels == 3 ? GrayPlane(self).pixels : pixels
        let cn = order == .gray ? 1 : channels
        let tables: [[Float]] = (0..<outChannels).map { c in
            let m = mean.isEmpty ? 0 : mean[c], s = std.isEmpty ? 1 : std[c]
            return (0..<256).map { Float((Double($0) * scale - m) / s) }
        }
        let from = (0..<outChannels).map { c in cn == 1 ? 0 : (order == .bgr ? 2 - c : c) }
        let plane = width * height
        var values = [Float](repeating: 0, count: plane * outChannels)
        source.withUnsafeBufferPointer { src in
            values.withUnsafeMutableBufferPointer { out in
                for c in 0..<outChannels {
                    let table = tables[c], offset = from[c]
                    for i in 0..<plane {
                        out[planar ? c * plane + i : i * outChannels + c] = table[Int(src[i * cn + offset])]
                    }
                }
            }
        }
        return values
    }
}

/// Silent-Face-Anti-Spoofing's crop (upstream `src/generate_patches.py`, `CropImage`): the face box
/// scaled about its centre, shifted inside the image, then resized with OpenCV's bilinear rule. The
/// crop MiniFASNet was trained on, and the one a user's `--onnx` spec gets with `crop: {scale: s}`.
package enum FaceCrop {
    /// The crop of `box` scaled by `scale`, resized to `width` x `height`.
    package static func resized(_ image: Image, box: Box, scale: Double, width: Int, height: Int) -> Image {
        let r = region(box: box, imageWidth: image.width, imageHeight: image.height, scale: scale)
        return image.resizedLinear(
            x0: r.left, y0: r.top, regionWidth: r.right - r.left + 1, regionHeight: r.bottom - r.top + 1,
            width: width, height: height)
    }

    /// Upstream's `_get_new_box`: the box scaled by `min(scale, (H-1)/h, (W-1)/w)` about its
    /// centre, shifted to start at 0 and end at W-1 / H-1 when it crosses an edge, corners
    /// truncated toward zero (`int()`); right and bottom inclusive.
    package static func region(box: Box, imageWidth: Int, imageHeight: Int, scale: Double) -> (
        left: Int, top: Int, right: Int, bottom: Int
    ) {
        let srcW = Double(imageWidth), srcH = Double(imageHeight)
        let s = min((srcH - 1) / box.height, min((srcW - 1) / box.width, scale))
        let newWidth = box.width * s, newHeight = box.height * s
        let centerX = box.width / 2 + box.x, centerY = box.height / 2 + box.y
        var left = centerX - newWidth / 2, top = centerY - newHeight / 2
        var right = centerX + newWidth / 2, bottom = centerY + newHeight / 2
        if left < 0 { (right, left) = (right - left, 0) }
        if top < 0 { (bottom, top) = (bottom - top, 0) }
        if right > srcW - 1 { (left, right) = (left - (right - srcW + 1), srcW - 1) }
        if bottom > srcH - 1 { (top, bottom) = (top - (bottom - srcH + 1), srcH - 1) }
        // Python's int() truncates toward zero; a region that still leaves the image (only for
        // boxes that are not finite or wider than the image) is clamped so the crop stays inside.
        func int(_ v: Double, _ limit: Int) -> Int { v.isFinite ? min(max(Int(v), 0), limit) : 0 }
        let l = int(left, imageWidth - 1), t = int(top, imageHeight - 1)
        return (l, t, max(l, int(right, imageWidth - 1)), max(t, int(bottom, imageHeight - 1)))
    }
}

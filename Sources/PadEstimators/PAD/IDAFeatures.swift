import Foundation
import PadImage
import PadVocabulary

/// Image Distortion Analysis features (Wen, Han, Jain, "Face Spoof Detection With Image Distortion
/// Analysis", IEEE TIFS 10(4), 2015): 121 numbers on the face crop (64x64, as
/// ``ColorTextureFeatures`` crops it).
///
/// Example: `PadEstimatorsDocExamples.featureVectors`
/// in `Tests/PadEstimatorsTests/DocExamplesTests.swift` (compiled and run by `swift test`).
/// - Specular reflection (3): pixels whose specular share is high, approximated without the
///   paper's Tan-Ikeuchi separation: a pixel is specular when its minimum RGB channel (the
///   achromatic, specular-like part) is at least 0.6 of its maximum and its value V >= 0.7;
///   features: fraction of specular pixels, mean and standard deviation of their V (0-1).
/// - Blurriness (2): Crete et al. 2007 no-reference blur on the crop's luminance
///   (``QualityMeasures/creteBlur``), and the mean width of vertical edges (Marziliano et al. 2002:
///   for each pixel with a strong horizontal Sobel gradient, the distance between the local
///   extrema of the row profile on both sides), in pixels.
/// - Chromatic moments (15): for H, S and V (0-1): mean, standard deviation, skewness, and the
///   fractions of pixels in the lowest and in the highest of 10 histogram bins.
/// - Colour diversity (101): the RGB values quantised to 32 levels per channel (32^3 bins); the
///   relative frequencies of the 100 most frequent bins in descending order (zeros when fewer), and
///   the number of distinct bins divided by the pixel count.
package enum IDAFeatures {
    package static let count = 121
    package static var names: [String] {
        ["spec_fraction", "spec_mean_v", "spec_std_v", "blur_crete", "blur_edge_width"]
            + ["h", "s", "v"].flatMap { c in ["mean", "std", "skew", "low_bin", "high_bin"].map { "moment_\(c)_\($0)" }
            }
            + (0..<100).map { "diversity_top\($0 + 1)" } + ["diversity_distinct"]
    }

    package static func extract(_ image: Image, face: Box?) -> [Double] {
        let side = ColorTextureFeatures.side
        let crop = ColorTextureFeatures.resizedCrop(image, face: face)
        let n = side * side
        var h = [Double](repeating: 0, count: n), s = h, v = h
        var luminance = [UInt8](repeating: 0, count: n)
        var specular: [Double] = []
        var bins = [Int](repeating: 0, count: 32 * 32 * 32)
        for i in 0..<n {
            let r = Double(crop[3 * i]), g = Double(crop[3 * i + 1]), b = Double(crop[3 * i + 2])
            let maximum = max(r, g, b), minimum = min(r, g, b), delta = maximum - minimum
            var hue = 0.0
            if delta > 0 {
                if maximum == r {
                    hue = ((g - b) / delta).truncatingRemainder(dividingBy: 6)
                } else if maximum == g {
                    hue = (b - r) / delta + 2
                } else {
                    hue = (r - g) / delta + 4
                }
                hue /= 6
                if hue < 0 { hue += 1 }
            }
            h[i] = hue
            s[i] = maximum > 0 ? delta / maximum : 0
            v[i] = maximum / 255
            luminance[i] = UInt8(min(255, (0.299 * r + 0.587 * g + 0.114 * b).rounded()))
            if maximum > 0 && minimum >= 0.6 * maximum && v[i] >= 0.7 { specular.append(v[i]) }
            bins[(Int(crop[3 * i]) >> 3) << 10 | (Int(crop[3 * i + 1]) >> 3) << 5 | Int(crop[3 * i + 2]) >> 3] += 1
        }
        var features: [Double] = []
        features.reserveCapacity(count)
        // Specular reflection.
        let specMean = specular.isEmpty ? 0 : specular.reduce(0, +) / Double(specular.count)
        let specStd =
            specular.isEmpty
            ? 0 : (specular.reduce(0) { $0 + ($1 - specMean) * ($1 - specMean) } / Double(specular.count)).squareRoot()
        features += [Double(specular.count) / Double(n), specMean, specStd]
        // Blurriness.
        let crete = QualityMeasures.creteBlur(luminance, width: side, region: Region(x0: 0, y0: 0, x1: side, y1: side))
        features += [crete.isNaN ? 1 : crete, meanEdgeWidth(luminance, side: side)]
        // Chromatic moments.
        for channel in [h, s, v] { features += moments(channel) }
        // Colour diversity.
        let top = bins.filter { $0 > 0 }.sorted(by: >)
        for k in 0..<100 { features.append(k < top.count ? Double(top[k]) / Double(n) : 0) }
        features.append(Double(top.count) / Double(n))
        return features
    }

    /// Mean, std, skewness, and the fractions in the lowest and highest of 10 equal bins over [0, 1].
    static func moments(_ x: [Double]) -> [Double] {
        let n = Double(x.count)
        let mean = x.reduce(0, +) / n
        var m2 = 0.0, m3 = 0.0
        for value in x { let d = value - mean; m2 += d * d; m3 += d * d * d }
        m2 /= n
        m3 /= n
        let std = m2.squareRoot()
        let skew = std > 1e-12 ? m3 / (std * std * std) : 0
        let low = Double(x.filter { $0 < 0.1 }.count) / n, high = Double(x.filter { $0 >= 0.9 }.count) / n
        return [mean, std, skew, low, high]
    }

    /// Marziliano et al. 2002 edge width: for pixels whose horizontal Sobel magnitude exceeds a
    /// quarter of the maximum, walk left and right along the row to the nearest local extrema of
    /// the intensity profile; the width is their distance. Mean over edge pixels, 0 without edges.
    static func meanEdgeWidth(_ l: [UInt8], side: Int) -> Double {
        var gradients = [Int](repeating: 0, count: side * side)
        var strongest = 0
        for y in 1..<(side - 1) {
            for x in 1..<(side - 1) {
                func p(_ dx: Int, _ dy: Int) -> Int { Int(l[(y + dy) * side + x + dx]) }
                let gx = (p(1, -1) + 2 * p(1, 0) + p(1, 1)) - (p(-1, -1) + 2 * p(-1, 0) + p(-1, 1))
                gradients[y * side + x] = gx
                strongest = max(strongest, abs(gx))
            }
        }
        guard strongest > 0 else { return 0 }
        var total = 0.0, edges = 0
        for y in 1..<(side - 1) {
            for x in 1..<(side - 1) where abs(gradients[y * side + x]) * 4 >= strongest {
                let rising = gradients[y * side + x] > 0
                var left = x, right = x
                let row = y * side
                // Rising edge: go left while the profile decreases (to the local minimum), right while it increases.
                while left > 0 && (rising ? l[row + left - 1] < l[row + left] : l[row + left - 1] > l[row + left]) {
                    left -= 1
                }
                while right < side - 1
                    && (rising ? l[row + right + 1] > l[row + right] : l[row + right + 1] < l[row + right])
                { right += 1 }
                total += Double(right - left)
                edges += 1
            }
        }
        return edges > 0 ? total / Double(edges) : 0
    }
}

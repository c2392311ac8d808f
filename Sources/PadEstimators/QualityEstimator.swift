import Foundation
import PadDataset
import PadImage

/// Face image quality measures on the face region (or the whole image when no face was found),
/// shaped after the checks capture SDKs run (LUNA: blur, darkness, lightness, illumination,
/// specularity; MiSnap: lighting, sharpness) and after OFIQ, the ISO/IEC 29794-5 reference.
///
/// ```swift
/// var input = EstimatorInput(sample: sample, image: image)    // face set by `face`, if it ran
/// let values = try QualityEstimator().measure(&input)
/// ```
///
/// All measures use OFIQ's luminance L (``ColorSpaces/luminanceImage(_:)``) unless stated:
/// - `luminance_mean`, `luminance_variance`: mean and population variance of L (OFIQ).
/// - `underexposure`: fraction of pixels with L in [0, 25]; `overexposure`: L in [247, 255] (OFIQ).
/// - `dynamic_range`: Shannon entropy of the 256-bin L histogram, -sum p log2 p, bits (OFIQ).
/// - `illumination_uniformity`: histogram intersection sum_k min(p_left(k), p_right(k)) of the
///   normalised L histograms of the left and right halves (OFIQ's idea); 1 = evenly lit.
/// - `specularity`: fraction of pixels that are near-white and unsaturated in HSV
///   (V = max(R,G,B) >= 230 and S = (max - min) / max <= 0.1): flares and screen glare.
/// - `sharpness`: variance of the 3x3 Laplacian [0 1 0; 1 -4 1; 0 1 0] of L, borders mirrored
///   (BORDER_REFLECT_101), as `cv2.Laplacian(L, CV_64F).var()` (Pech-Pacheco et al. 2000).
/// - `blur`: Crete, Dolmiere, Ladret, Nicolas (2007), "The blur effect: perception and estimation
///   with a new no-reference perceptual blur metric", Proc. SPIE 6492: re-blur with a 9-tap mean
///   filter per direction (borders replicated), b = (sum D_F - sum max(0, D_F - D_B)) / sum D_F
///   over absolute neighbour differences, blur = max(b_vertical, b_horizontal); 0 sharp .. 1 blurred.
/// - `contrast`: RMS contrast, standard deviation of L / 255.
/// - `natural_colour`: mean CIELAB (D65) a*, b* of the region; Euclidean distance from the skin box
///   a* in [5, 25], b* in [5, 35] (OFIQ natural colour), 0 inside the box.
/// - `background_uniformity`: mean Sobel gradient magnitude of L outside the face box (Gx, Gy with
///   kernels [-1 0 1; -2 0 2; -1 0 1]); lower = more uniform; NaN without a face or background.
/// - `background_luminance`: mean L of the pixels outside the face box (Aware's
///   BACKGROUND_TOO_BRIGHT / BACKGROUND_TOO_DARK feedback); NaN without a face or background.
public struct QualityEstimator: Estimator {
    public let name = "quality"
    public let version = "1.1.0"
    public var outputs: [OutputDescriptor] { Self.declaredOutputs }
    /// Declared by type, so profiles are validated without reading any model or cascade file.
    public static let declaredOutputs: [OutputDescriptor] = [
        .init(name: "region", unit: "", minimum: 0, maximum: 1, direction: .none, summary: "0 whole image, 1 face region"),
        .init(name: "luminance_mean", unit: "L", minimum: 0, maximum: 255, direction: .none, summary: "mean OFIQ luminance"),
        .init(name: "luminance_variance", unit: "L^2", minimum: 0, maximum: 16256.25, direction: .none, summary: "variance of OFIQ luminance"),
        .init(name: "underexposure", unit: "fraction", minimum: 0, maximum: 1, direction: .lowerIsBetter, summary: "fraction with L <= 25"),
        .init(name: "overexposure", unit: "fraction", minimum: 0, maximum: 1, direction: .lowerIsBetter, summary: "fraction with L >= 247"),
        .init(name: "dynamic_range", unit: "bits", minimum: 0, maximum: 8, direction: .higherIsBetter, summary: "entropy of the L histogram"),
        .init(name: "illumination_uniformity", unit: "", minimum: 0, maximum: 1, direction: .higherIsBetter, summary: "left/right L histogram intersection"),
        .init(name: "specularity", unit: "fraction", minimum: 0, maximum: 1, direction: .lowerIsBetter, summary: "fraction of near-white unsaturated pixels"),
        .init(name: "sharpness", unit: "L^2", minimum: 0, maximum: .infinity, direction: .higherIsBetter, summary: "variance of the Laplacian of L"),
        .init(name: "blur", unit: "", minimum: 0, maximum: 1, direction: .lowerIsBetter, summary: "Crete 2007 no-reference blur"),
        .init(name: "contrast", unit: "", minimum: 0, maximum: 0.5, direction: .higherIsBetter, summary: "RMS contrast, std(L)/255"),
        .init(name: "natural_colour", unit: "CIELAB", minimum: 0, maximum: .infinity, direction: .lowerIsBetter, summary: "distance of mean a*b* from the skin box"),
        .init(name: "background_uniformity", unit: "L/px", minimum: 0, maximum: .infinity, direction: .lowerIsBetter, summary: "mean Sobel magnitude outside the face"),
        .init(name: "background_luminance", unit: "L", minimum: 0, maximum: 255, direction: .none, summary: "mean OFIQ luminance outside the face"),
    ]
    public var parameters: [String: String] {
        ["underexposure_max_L": "25", "overexposure_min_L": "247", "specular_min_V": "230", "specular_max_S": "0.1",
         "crete_filter_taps": "9", "skin_box_a": "5..25", "skin_box_b": "5..35"]
    }

    /// The face region comes from the `face` estimator, which therefore runs first.
    public var dependencies: [String] { ["face"] }

    public init() {}

    public func measure(_ input: inout EstimatorInput) throws(EstimatorFailure) -> [Double] {
        let image = input.image
        let luminance = ColorSpaces.luminanceImage(image)
        var region = Region(x0: 0, y0: 0, x1: image.width, y1: image.height)
        var onFace = false
        if let face = input.face {
            let clipped = face.clipped(width: image.width, height: image.height)
            let candidate = Region(x0: Int(clipped.x.rounded(.down)), y0: Int(clipped.y.rounded(.down)),
                                   x1: Int((clipped.x + clipped.width).rounded(.up)), y1: Int((clipped.y + clipped.height).rounded(.up)))
            if candidate.width > 0, candidate.height > 0 {
                region = candidate
                onFace = true
            }
        }
        guard region.width > 0, region.height > 0 else {
            return [onFace ? 1 : 0] + Array(repeating: .nan, count: outputs.count - 1)
        }
        let stats = QualityMeasures.histogramStatistics(luminance, width: image.width, region: region)
        return [
            onFace ? 1 : 0,
            stats.mean,
            stats.variance,
            stats.underexposure,
            stats.overexposure,
            stats.entropy,
            QualityMeasures.illuminationUniformity(luminance, width: image.width, region: region),
            QualityMeasures.specularity(image, region: region),
            QualityMeasures.laplacianVariance(luminance, width: image.width, region: region),
            QualityMeasures.creteBlur(luminance, width: image.width, region: region),
            stats.variance.squareRoot() / 255,
            QualityMeasures.naturalColourDistance(image, region: region),
            onFace ? QualityMeasures.backgroundGradient(luminance, width: image.width, height: image.height, face: region) : .nan,
            onFace ? QualityMeasures.backgroundLuminance(luminance, width: image.width, face: region) : .nan,
        ]
    }
}

/// A half-open pixel rectangle [x0, x1) x [y0, y1).
public struct Region: Sendable, Equatable {
    public var x0, y0, x1, y1: Int
    public init(x0: Int, y0: Int, x1: Int, y1: Int) {
        self.x0 = x0
        self.y0 = y0
        self.x1 = x1
        self.y1 = y1
    }
    public var width: Int { x1 - x0 }
    public var height: Int { y1 - y0 }
    public var count: Int { max(0, width) * max(0, height) }
    public func contains(x: Int, y: Int) -> Bool { x >= x0 && x < x1 && y >= y0 && y < y1 }
}

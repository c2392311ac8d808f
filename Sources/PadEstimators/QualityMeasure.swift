import PadDataset
import PadImage

/// The result of one quality measure on one sample, after OFIQ's `QualityMeasureResult`: a raw
/// value, or the reason the measure could not assess the sample (written as NaN: an empty cell).
public enum QualityAssessment: Sendable, Equatable {
    case value(Double)
    case notAssessable(reason: String)

    /// A computed value, or `notAssessable(reason)` when the computation gave NaN (region too
    /// small, flat, no background): the pure functions in ``QualityMeasures`` signal that with NaN.
    public init(_ value: Double, otherwise reason: String) {
        self = value.isNaN ? .notAssessable(reason: reason) : .value(value)
    }

    /// The number written to the measurement table: the value, or NaN when not assessable.
    public var rawValue: Double {
        switch self {
        case .value(let value): return value
        case .notAssessable: return .nan
        }
    }
}

/// What every quality measure of one sample sees: the image, its OFIQ luminance plane, the region
/// measured (the face box clipped to the image, or the whole image) and the L histogram
/// statistics, computed once because six measures read them.
public struct QualityContext: Sendable {
    public let image: Image
    /// OFIQ luminance L per pixel (``ColorSpaces/luminanceImage(_:)``).
    public let luminance: [UInt8]
    public let region: Region
    /// True when `region` is the face box, false when it is the whole image (no face found).
    public let onFace: Bool
    public let histogram: QualityMeasures.HistogramStatistics

    public init(image: Image, luminance: [UInt8], region: Region, onFace: Bool) {
        self.image = image
        self.luminance = luminance
        self.region = region
        self.onFace = onFace
        self.histogram = QualityMeasures.histogramStatistics(luminance, width: image.width, region: region)
    }
}

/// One quality measure (OFIQ's model: one type per measure): the output it declares and how it
/// assesses a sample. ``QualityEstimator`` assembles the results by output name.
public protocol QualityMeasure: Sendable {
    /// The output this measure fills (`name` is the short name, `quality.<name>` the column).
    var output: OutputDescriptor { get }
    func assess(_ context: QualityContext) -> QualityAssessment
}

/// `region`: 1 when the measures ran on the face box, 0 on the whole image (no face found).
public struct RegionMeasure: QualityMeasure {
    public let output = OutputDescriptor(
        name: "region", unit: "", minimum: 0, maximum: 1, direction: .none,
        summary: "0 whole image, 1 face region")
    public func assess(_ context: QualityContext) -> QualityAssessment { .value(context.onFace ? 1 : 0) }
}

/// `luminance_mean`: mean of L over the region (OFIQ luminance mean).
public struct LuminanceMeanMeasure: QualityMeasure {
    public let output = OutputDescriptor(
        name: "luminance_mean", unit: "L", minimum: 0, maximum: 255, direction: .none,
        summary: "mean OFIQ luminance")
    public func assess(_ context: QualityContext) -> QualityAssessment { .value(context.histogram.mean) }
}

/// `luminance_variance`: population variance of L over the region (OFIQ luminance variance).
public struct LuminanceVarianceMeasure: QualityMeasure {
    public let output = OutputDescriptor(
        name: "luminance_variance", unit: "L^2", minimum: 0, maximum: 16256.25, direction: .none,
        summary: "variance of OFIQ luminance")
    public func assess(_ context: QualityContext) -> QualityAssessment { .value(context.histogram.variance) }
}

/// `underexposure`: fraction of region pixels with L in [0, 25] (OFIQ under-exposure prevention).
public struct UnderexposureMeasure: QualityMeasure {
    public let output = OutputDescriptor(
        name: "underexposure", unit: "fraction", minimum: 0, maximum: 1, direction: .lowerIsBetter,
        summary: "fraction with L <= 25")
    public func assess(_ context: QualityContext) -> QualityAssessment { .value(context.histogram.underexposure) }
}

/// `overexposure`: fraction of region pixels with L in [247, 255] (OFIQ over-exposure prevention).
public struct OverexposureMeasure: QualityMeasure {
    public let output = OutputDescriptor(
        name: "overexposure", unit: "fraction", minimum: 0, maximum: 1, direction: .lowerIsBetter,
        summary: "fraction with L >= 247")
    public func assess(_ context: QualityContext) -> QualityAssessment { .value(context.histogram.overexposure) }
}

/// `dynamic_range`: Shannon entropy of the 256-bin L histogram, -sum p log2 p, in bits (OFIQ).
public struct DynamicRangeMeasure: QualityMeasure {
    public let output = OutputDescriptor(
        name: "dynamic_range", unit: "bits", minimum: 0, maximum: 8, direction: .higherIsBetter,
        summary: "entropy of the L histogram")
    public func assess(_ context: QualityContext) -> QualityAssessment { .value(context.histogram.entropy) }
}

/// `illumination_uniformity`: histogram intersection sum_k min(p_left(k), p_right(k)) of the
/// normalised L histograms of the region's left and right halves (OFIQ's idea); 1 = evenly lit.
public struct IlluminationUniformityMeasure: QualityMeasure {
    public let output = OutputDescriptor(
        name: "illumination_uniformity", unit: "", minimum: 0, maximum: 1, direction: .higherIsBetter,
        summary: "left/right L histogram intersection")
    public func assess(_ context: QualityContext) -> QualityAssessment {
        QualityAssessment(
            QualityMeasures.illuminationUniformity(
                context.luminance, width: context.image.width, region: context.region),
            otherwise: "region narrower than 2 pixels")
    }
}

/// `specularity`: fraction of region pixels that are near-white and unsaturated in HSV
/// (V = max(R,G,B) >= 230 and S = (max - min) / max <= 0.1): flares and screen glare.
public struct SpecularityMeasure: QualityMeasure {
    public let output = OutputDescriptor(
        name: "specularity", unit: "fraction", minimum: 0, maximum: 1, direction: .lowerIsBetter,
        summary: "fraction of near-white unsaturated pixels")
    public func assess(_ context: QualityContext) -> QualityAssessment {
        .value(QualityMeasures.specularity(context.image, region: context.region))
    }
}

/// `sharpness`: variance of the 3x3 Laplacian [0 1 0; 1 -4 1; 0 1 0] of L, borders mirrored
/// (BORDER_REFLECT_101), as `cv2.Laplacian(L, CV_64F).var()` (Pech-Pacheco et al. 2000).
public struct SharpnessMeasure: QualityMeasure {
    public let output = OutputDescriptor(
        name: "sharpness", unit: "L^2", minimum: 0, maximum: .infinity, direction: .higherIsBetter,
        summary: "variance of the Laplacian of L")
    public func assess(_ context: QualityContext) -> QualityAssessment {
        QualityAssessment(
            QualityMeasures.laplacianVariance(context.luminance, width: context.image.width, region: context.region),
            otherwise: "region smaller than 3x3")
    }
}

/// `blur`: Crete, Dolmiere, Ladret, Nicolas (2007), "The blur effect: perception and estimation
/// with a new no-reference perceptual blur metric", Proc. SPIE 6492: re-blur with a 9-tap mean
/// filter per direction (borders replicated), b = (sum D_F - sum max(0, D_F - D_B)) / sum D_F over
/// absolute neighbour differences, blur = max(b_vertical, b_horizontal); 0 sharp .. 1 blurred.
public struct BlurMeasure: QualityMeasure {
    public let output = OutputDescriptor(
        name: "blur", unit: "", minimum: 0, maximum: 1, direction: .lowerIsBetter,
        summary: "Crete 2007 no-reference blur")
    public func assess(_ context: QualityContext) -> QualityAssessment {
        QualityAssessment(
            QualityMeasures.creteBlur(context.luminance, width: context.image.width, region: context.region),
            otherwise: "region flat or smaller than 2x2")
    }
}

/// `contrast`: RMS contrast, the standard deviation of L over the region / 255.
public struct ContrastMeasure: QualityMeasure {
    public let output = OutputDescriptor(
        name: "contrast", unit: "", minimum: 0, maximum: 0.5, direction: .higherIsBetter,
        summary: "RMS contrast, std(L)/255")
    public func assess(_ context: QualityContext) -> QualityAssessment {
        .value(context.histogram.variance.squareRoot() / 255)
    }
}

/// `natural_colour`: mean CIELAB (D65) a*, b* of the region; Euclidean distance from the skin box
/// a* in [5, 25], b* in [5, 35] (OFIQ natural colour), 0 inside the box.
public struct NaturalColourMeasure: QualityMeasure {
    public let output = OutputDescriptor(
        name: "natural_colour", unit: "CIELAB", minimum: 0, maximum: .infinity, direction: .lowerIsBetter,
        summary: "distance of mean a*b* from the skin box")
    public func assess(_ context: QualityContext) -> QualityAssessment {
        .value(QualityMeasures.naturalColourDistance(context.image, region: context.region))
    }
}

/// `background_uniformity`: mean Sobel gradient magnitude of L outside the face box (Gx, Gy with
/// kernels [-1 0 1; -2 0 2; -1 0 1]); lower = more uniform. Needs a face.
public struct BackgroundUniformityMeasure: QualityMeasure {
    public let output = OutputDescriptor(
        name: "background_uniformity", unit: "L/px", minimum: 0, maximum: .infinity, direction: .lowerIsBetter,
        summary: "mean Sobel magnitude outside the face")
    public func assess(_ context: QualityContext) -> QualityAssessment {
        guard context.onFace else { return .notAssessable(reason: "no face region") }
        let image = context.image
        return QualityAssessment(
            QualityMeasures.backgroundGradient(
                context.luminance, width: image.width, height: image.height,
                face: context.region),
            otherwise: "no background pixel where the 3x3 kernel fits")
    }
}

/// `background_luminance`: mean L of the pixels outside the face box (Aware's
/// BACKGROUND_TOO_BRIGHT / BACKGROUND_TOO_DARK feedback). Needs a face.
public struct BackgroundLuminanceMeasure: QualityMeasure {
    public let output = OutputDescriptor(
        name: "background_luminance", unit: "L", minimum: 0, maximum: 255, direction: .none,
        summary: "mean OFIQ luminance outside the face")
    public func assess(_ context: QualityContext) -> QualityAssessment {
        guard context.onFace else { return .notAssessable(reason: "no face region") }
        return QualityAssessment(
            QualityMeasures.backgroundLuminance(context.luminance, width: context.image.width, face: context.region),
            otherwise: "the face covers the whole image")
    }
}

import PadImage
import PadVocabulary

/// The result of one quality measure on one sample, after OFIQ's `QualityMeasureResult`: a raw
/// value, or the reason the measure could not assess the sample (written as NaN: an empty cell).
package enum QualityAssessment: Sendable, Equatable {
    case value(Double)
    case notAssessable(reason: String)

    /// A computed value, or `notAssessable(reason)` when the computation gave NaN (region too
    /// small, flat, no background): the pure functions in ``QualityMeasures`` signal that with NaN.
    package init(_ value: Double, otherwise reason: String) {
        self = value.isNaN ? .notAssessable(reason: reason) : .value(value)
    }

    /// The number written to the measurement table: the value, or NaN when not assessable.
    package var rawValue: Double {
        switch self {
        case .value(let value): return value
        case .notAssessable: return .nan
        }
    }
}

/// What every quality measure of one sample sees: the image, its OFIQ luminance plane, the region
/// measured (the face box clipped to the image, or the whole image) and the L histogram
/// statistics, computed once because six measures read them.
package struct QualityContext: Sendable {
    package let image: Image
    /// OFIQ luminance L per pixel (``ColorSpaces/luminanceImage(_:)``).
    package let luminance: [UInt8]
    package let region: Region
    /// True when `region` is the face box, false when it is the whole image (no face found).
    package let onFace: Bool
    package let histogram: QualityMeasures.HistogramStatistics

    package init(image: Image, luminance: [UInt8], region: Region, onFace: Bool) {
        self.image = image
        self.luminance = luminance
        self.region = region
        self.onFace = onFace
        self.histogram = QualityMeasures.histogramStatistics(luminance, width: image.width, region: region)
    }
}

/// One quality measure in OFIQ's sense: one type per measure algorithm. Like an OFIQ measure
/// class, it may fill several outputs from one computation (OFIQ's `Luminance` sets both
/// LuminanceMean and LuminanceVariance). It declares the outputs it fills and returns exactly one
/// assessment for each, keyed by output name; ``QualityEstimator`` assembles its columns by name.
package protocol QualityMeasure: Sendable {
    /// The outputs this measure fills, in column order (`quality.<name>` is the column).
    var outputs: [OutputDescriptor] { get }
    /// True when the measure reads the background around the face: without a face region the
    /// estimator reports its outputs as not assessable ("no face region") and does not call it.
    var needsFace: Bool { get }
    /// One assessment per declared output, keyed by the output's `name`.
    func assess(_ context: QualityContext) -> [String: QualityAssessment]
}

extension QualityMeasure {
    package var needsFace: Bool { false }
}

/// A measure with one output, the common case: `assessment` is that output's result.
package protocol SingleOutputQualityMeasure: QualityMeasure {
    var output: OutputDescriptor { get }
    func assessment(_ context: QualityContext) -> QualityAssessment
}

extension SingleOutputQualityMeasure {
    package var outputs: [OutputDescriptor] { [output] }
    package func assess(_ context: QualityContext) -> [String: QualityAssessment] { [output.name: assessment(context)] }
}

extension OutputDescriptor {
    /// A fraction of the region's pixels where fewer is better (under- and over-exposure,
    /// specular highlights).
    static func pixelFraction(_ name: String, summary: String) -> OutputDescriptor {
        OutputDescriptor(name: name, unit: "fraction", range: 0...1, direction: .lowerIsBetter, summary: summary)
    }
}

extension QualityContext {
    /// A pure function of the region's L plane (``QualityMeasures``), or `reason` when it gives
    /// NaN (the region too small or flat for it).
    func assessLuminance(
        _ measure: (_ luminance: [UInt8], _ width: Int, _ region: Region) -> Double, otherwise reason: String
    ) -> QualityAssessment {
        QualityAssessment(measure(luminance, image.width, region), otherwise: reason)
    }
}

/// OFIQ's luminance measure: `luminance_mean` and `luminance_variance` (population variance) of
/// L over the region, both from its 256-bin histogram (OFIQ's `Luminance` class sets the two).
package struct LuminanceMeasure: QualityMeasure {
    package let outputs = [
        OutputDescriptor(
            name: "luminance_mean", unit: "L", range: 0...255, direction: .none, summary: "mean OFIQ luminance"),
        OutputDescriptor(
            name: "luminance_variance", unit: "L^2", range: 0...16256.25, direction: .none,
            summary: "variance of OFIQ luminance"),
    ]
    package func assess(_ context: QualityContext) -> [String: QualityAssessment] {
        ["luminance_mean": .value(context.histogram.mean), "luminance_variance": .value(context.histogram.variance)]
    }
}

/// OFIQ's under- and over-exposure prevention, the two tails of one L histogram: `underexposure`
/// is the fraction of region pixels with L in [0, 25], `overexposure` with L in [247, 255].
package struct ExposureMeasure: QualityMeasure {
    package let outputs: [OutputDescriptor] = [
        .pixelFraction("underexposure", summary: "fraction with L <= 25"),
        .pixelFraction("overexposure", summary: "fraction with L >= 247"),
    ]
    package func assess(_ context: QualityContext) -> [String: QualityAssessment] {
        [
            "underexposure": .value(context.histogram.underexposure),
            "overexposure": .value(context.histogram.overexposure),
        ]
    }
}

/// `dynamic_range`: Shannon entropy of the 256-bin L histogram, -sum p log2 p, in bits (OFIQ).
package struct DynamicRangeMeasure: SingleOutputQualityMeasure {
    package let output = OutputDescriptor(
        name: "dynamic_range", unit: "bits", range: 0...8, direction: .higherIsBetter,
        summary: "entropy of the L histogram")
    package func assessment(_ context: QualityContext) -> QualityAssessment { .value(context.histogram.entropy) }
}

/// `illumination_uniformity`: histogram intersection sum_k min(p_left(k), p_right(k)) of the
/// normalised L histograms of the region's left and right halves (OFIQ's idea); 1 = evenly lit.
package struct IlluminationUniformityMeasure: SingleOutputQualityMeasure {
    package let output = OutputDescriptor(
        name: "illumination_uniformity", unit: "", range: 0...1, direction: .higherIsBetter,
        summary: "left/right L histogram intersection")
    package func assessment(_ context: QualityContext) -> QualityAssessment {
        context.assessLuminance(QualityMeasures.illuminationUniformity, otherwise: "region narrower than 2 pixels")
    }
}

/// `specularity`: fraction of region pixels that are near-white and unsaturated in HSV
/// (V = max(R,G,B) >= 230 and S = (max - min) / max <= 0.1): flares and screen glare.
package struct SpecularityMeasure: SingleOutputQualityMeasure {
    package let output = OutputDescriptor.pixelFraction(
        "specularity", summary: "fraction of near-white unsaturated pixels")
    package func assessment(_ context: QualityContext) -> QualityAssessment {
        .value(QualityMeasures.specularity(context.image, region: context.region))
    }
}

/// `sharpness`: variance of the 3x3 Laplacian [0 1 0; 1 -4 1; 0 1 0] of L, borders mirrored
/// (BORDER_REFLECT_101), as `cv2.Laplacian(L, CV_64F).var()` (Pech-Pacheco et al. 2000).
package struct SharpnessMeasure: SingleOutputQualityMeasure {
    package let output = OutputDescriptor(
        name: "sharpness", unit: "L^2", range: .nonNegative, direction: .higherIsBetter,
        summary: "variance of the Laplacian of L")
    package func assessment(_ context: QualityContext) -> QualityAssessment {
        context.assessLuminance(QualityMeasures.laplacianVariance, otherwise: "region smaller than 3x3")
    }
}

/// `blur`: Crete, Dolmiere, Ladret, Nicolas (2007), "The blur effect: perception and estimation
/// with a new no-reference perceptual blur metric", Proc. SPIE 6492: re-blur with a 9-tap mean
/// filter per direction (borders replicated), b = (sum D_F - sum max(0, D_F - D_B)) / sum D_F over
/// absolute neighbour differences, blur = max(b_vertical, b_horizontal); 0 sharp .. 1 blurred.
package struct BlurMeasure: SingleOutputQualityMeasure {
    package let output = OutputDescriptor(
        name: "blur", unit: "", range: 0...1, direction: .lowerIsBetter, summary: "Crete 2007 no-reference blur")
    package func assessment(_ context: QualityContext) -> QualityAssessment {
        context.assessLuminance(QualityMeasures.creteBlur, otherwise: "region flat or smaller than 2x2")
    }
}

/// `contrast`: RMS contrast, the standard deviation of L over the region / 255.
package struct ContrastMeasure: SingleOutputQualityMeasure {
    package let output = OutputDescriptor(
        name: "contrast", unit: "", range: 0...0.5, direction: .higherIsBetter, summary: "RMS contrast, std(L)/255")
    package func assessment(_ context: QualityContext) -> QualityAssessment {
        .value(context.histogram.variance.squareRoot() / 255)
    }
}

/// `natural_colour`: mean CIELAB (D65) a*, b* of the region; Euclidean distance from the skin box
/// a* in [5, 25], b* in [5, 35] (OFIQ natural colour), 0 inside the box.
package struct NaturalColourMeasure: SingleOutputQualityMeasure {
    package let output = OutputDescriptor(
        name: "natural_colour", unit: "CIELAB", range: .nonNegative, direction: .lowerIsBetter,
        summary: "distance of mean a*b* from the skin box")
    package func assessment(_ context: QualityContext) -> QualityAssessment {
        .value(QualityMeasures.naturalColourDistance(context.image, region: context.region))
    }
}

/// `background_uniformity`: mean Sobel gradient magnitude of L outside the face box (Gx, Gy with
/// kernels [-1 0 1; -2 0 2; -1 0 1]); lower = more uniform.
package struct BackgroundUniformityMeasure: SingleOutputQualityMeasure {
    package let needsFace = true
    package let output = OutputDescriptor(
        name: "background_uniformity", unit: "L/px", range: .nonNegative, direction: .lowerIsBetter,
        summary: "mean Sobel magnitude outside the face")
    package func assessment(_ context: QualityContext) -> QualityAssessment {
        let image = context.image
        return QualityAssessment(
            QualityMeasures.backgroundGradient(
                context.luminance, width: image.width, height: image.height, face: context.region),
            otherwise: "no background pixel where the 3x3 kernel fits")
    }
}

/// `background_luminance`: mean L of the pixels outside the face box (Aware's
/// BACKGROUND_TOO_BRIGHT / BACKGROUND_TOO_DARK feedback).
package struct BackgroundLuminanceMeasure: SingleOutputQualityMeasure {
    package let needsFace = true
    package let output = OutputDescriptor(
        name: "background_luminance", unit: "L", range: 0...255, direction: .none,
        summary: "mean OFIQ luminance outside the face")
    package func assessment(_ context: QualityContext) -> QualityAssessment {
        QualityAssessment(
            QualityMeasures.backgroundLuminance(context.luminance, width: context.image.width, face: context.region),
            otherwise: "the face covers the whole image")
    }
}

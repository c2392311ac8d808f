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

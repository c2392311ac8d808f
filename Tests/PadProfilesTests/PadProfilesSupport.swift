import PadVocabulary
import Testing
import PadImport
@testable import PadProfiles

enum Catalogue {
    static let outputs: [String: OutputDescriptor] = {
        var c: [String: OutputDescriptor] = [:]
        for name in [
            "quality.sharpness", "quality.luminance_mean", "quality.underexposure", "quality.overexposure",
            "face.count", "pad.score",
        ] {
            c[name] = OutputDescriptor(
                name: name, unit: "", minimum: 0, maximum: name == "pad.score" ? 1 : .infinity, direction: .none,
                summary: "")
        }
        return c
    }()
    static let loader = ProfileLoader(catalogue: outputs)
}

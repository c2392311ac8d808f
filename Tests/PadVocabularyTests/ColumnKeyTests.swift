import Foundation
import Testing

@testable import PadVocabulary

/// ``ColumnKey``: the one renderer and the one parser of a measured column's header.
@Suite struct ColumnKeyTests {
    /// The example of ``ColumnKey``'s doc comment: a variant's column parsed into its parts, and
    /// every header a run writes rendered back to the same text.
    @Test func headersRoundTrip() {
        let key = ColumnKey(header: "face.count@dataset_box")
        #expect(key.estimator == "face" && key.output == "count" && key.variant.contains(.useDatasetFaceBox))
        #expect(key.name == "face.count" && key.header == "face.count@dataset_box")
        #expect(key == ColumnKey(estimator: "face", output: "count", variant: .init(options: [.useDatasetFaceBox])))
        let plain = ColumnKey(header: "pad.ida.score")
        #expect(plain.estimator == "pad" && plain.output == "ida.score" && plain.variant == .defaults)
        #expect(plain.variant.isDefault && plain.variant.suffix == "" && plain.header == "pad.ida.score")
        let bare = ColumnKey(header: "score")
        #expect(bare.estimator == "" && bare.output == "score" && bare.name == "score")
    }

    /// Headers no option renders (an imported column `x@y`, odd dots and `@`s) keep their bytes:
    /// render(parse(h)) == h for every header, including random ones over the special characters.
    @Test func everyHeaderRendersBackToItsOwnText() {
        let odd = [
            "", "@", "x@", "@x", ".x", "x.", "..", "a.b@c", "a@b@c", "a.b@dataset_box+", "a@+", "a@dataset_box+x",
            "a.b@c.d", "luna.quality@dataset_box@x", "é.ü@dataset_box",
        ]
        for header in odd { #expect(ColumnKey(header: header).header == header, "\(header)") }
        var generator = SplitMix64(seed: 30108)
        let alphabet = ["a", "b", ".", "@", "+", "_", "dataset_box"]
        for _ in 0..<2000 {
            let header = (0..<Int.random(in: 0...8, using: &generator)).map { _ in
                alphabet.randomElement(using: &generator)!
            }.joined()
            #expect(ColumnKey(header: header).header == header, "\(header)")
        }
        // A suffix that names no option is no option: it is not the dataset-box variant.
        #expect(ColumnKey(header: "a@dataset").variant != MeasurementVariant(options: [.useDatasetFaceBox]))
        #expect(ColumnKey(header: "a@dataset").variant.key == "dataset")
    }

    /// In a manifest a key is `{estimator, output, variant}`, the variant its text.
    @Test func keysEncodeAsEstimatorOutputAndVariantText() throws {
        let key = ColumnKey(header: "face.count@dataset_box")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let json = String(decoding: try encoder.encode([key]), as: UTF8.self)
        #expect(
            json == """
                [
                  {
                    "estimator" : "face",
                    "output" : "count",
                    "variant" : "dataset_box"
                  }
                ]
                """)
        #expect(try JSONDecoder().decode([ColumnKey].self, from: Data(json.utf8)) == [key])
    }
}

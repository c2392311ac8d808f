import Foundation
import PadVocabulary
import Testing

@testable import PadArchive

/// The outputs a manifest records are `OutputDescriptor`s written in the form the manifest had
/// when it kept its own `Output` type: the same keys, finite bounds only, no summary.
@Suite struct ManifestOutputsTests {
    static func manifest(outputs: [OutputDescriptor]) -> RunManifest {
        RunManifest(
            kind: "bench", tool: .init(version: "1", commandLine: []), conventions: [:],
            dataset: .init(name: "d", path: "p", layout: "tree", fingerprint: "0", samples: 0),
            estimators: [
                .init(name: "quality", version: "1", parameters: [:], outputs: outputs, coldStartNanoseconds: 0)
            ],
            profiles: [],
            machine: .init(hostname: "h", operatingSystem: "o", processors: 1, memoryBytes: 1, concurrency: 1),
            times: .init(started: "s", finished: "f", wallSeconds: 0), counts: [:])
    }

    /// The `outputs` array of the encoded manifest, as text.
    static func outputsText(_ manifest: RunManifest) throws -> String {
        let text = String(decoding: try manifest.encoded(), as: UTF8.self)
        let start = try #require(text.range(of: "\"outputs\" : ["))
        let end = try #require(text.range(of: "]", range: start.upperBound..<text.endIndex))
        return String(text[start.lowerBound..<end.upperBound])
    }

    @Test func writesTheManifestFormWithoutSummaryOrUnboundedLimits() throws {
        let manifest = Self.manifest(outputs: [
            OutputDescriptor(
                name: "quality.sharpness", unit: "", minimum: 0, maximum: .infinity, direction: .higherIsBetter,
                summary: "variance of the Laplacian"),
            OutputDescriptor(
                name: "scores.score", unit: "", minimum: -.infinity, maximum: .infinity, direction: .none, summary: ""),
        ])
        let expected = """
            "outputs" : [
                    {
                      "direction" : "higher-better",
                      "minimum" : 0,
                      "name" : "quality.sharpness",
                      "unit" : ""
                    },
                    {
                      "direction" : "none",
                      "name" : "scores.score",
                      "unit" : ""
                    }
                  ]
            """
        #expect(try Self.outputsText(manifest) == expected)
        let again = try RunManifest.decode(from: try manifest.encoded()).estimators[0].outputs
        #expect(again[0].minimum == 0 && again[0].maximum == .infinity && again[0].summary == "")
        #expect(again[1].minimum == -.infinity && again[1].direction == .none)
    }

    /// `import` wrote its columns with an empty direction, `eval --scores` its score with
    /// `higher-bona-fide`; such archives still read.
    @Test func readsTheEmptyDirectionImportsWrote() throws {
        let json = #"{"name": "luna.liveness", "unit": "", "direction": ""}"#
        let output = try JSONDecoder().decode(OutputDescriptor.self, from: Data(json.utf8))
        #expect(output.direction == .none && output.minimum == -.infinity && output.maximum == .infinity)
        let score = #"{"name": "scores.score", "unit": "", "direction": "higher-bona-fide"}"#
        #expect(try JSONDecoder().decode(OutputDescriptor.self, from: Data(score.utf8)).direction == .higherIsBetter)
        let bad = #"{"name": "x", "unit": "", "direction": "sideways"}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(OutputDescriptor.self, from: Data(bad.utf8)) }
    }
}

import Testing
import PadImport
@testable import PadProfiles
import PadText

@Suite struct DecisionTests {
    @Test func firstFailingGateAndNaN() throws {
        let profile = try Catalogue.loader.builtIn("basic")
        let columns = ["quality.luminance_mean", "quality.underexposure", "quality.overexposure", "quality.sharpness"]
        let compiled = profile.compiled(columns: columns)
        func decide(_ row: [Double]) -> Decision { compiled.decide { row[$0] } }
        #expect(decide([120, 0.1, 0.1, 50]).isAccepted)
        #expect(decide([30, 0.9, 0.1, 50]).failedGate == 0) // too dark: first gate
        #expect(decide([120, 0.1, 0.6, 50]).failedGate == 2)
        #expect(decide([120, 0.1, 0.1, 14.9]).failedGate == 3)
        #expect(decide([120, 0.1, 0.1, 15]).isAccepted) // ge: the threshold itself passes
        let nan = decide([.nan, 0.1, 0.1, 50])
        #expect(nan.failedGate == 0 && nan.valueWasNaN)
        // Swept score: the sweep holds the other gates fixed; a sample another gate rejects has
        // no score (it is rejected at every threshold, never given -inf).
        #expect(compiled.sweptScore { [120, 0.1, 0.1, 7.0][$0] } == 7)
        #expect(compiled.sweptScore { [10, 0.1, 0.1, 70.0][$0] } == nil)
        #expect(compiled.sweptScore { [120, 0.1, 0.1, .nan][$0] } == nil)
    }

    @Test func suggestionDistanceCountsTranspositions() {
        #expect(Suggestion.distance("qualtiy", "quality") == 1)
        #expect(Suggestion.distance("face.cuont", "face.count") == 1)
        #expect(Suggestion.distance("abc", "") == 3)
    }
}

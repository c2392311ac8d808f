import PadReport
import Testing

/// An output lower on samples with the attribute detects it: `eyes.left_open` against
/// `attr.eyes_closed`. AUC by hand: without = {0.9, 0.8, 0.7, 0.3}, with = {0.2, 0.4, 0.1}: of the
/// 12 pairs, 0.3 < 0.4 is the only one ordered the wrong way, so AUC = 11/12.
@Suite struct AttributeSeparationTests {
    @Test func eyesOpenDetectsClosedEyes() {
        let values = [0.9, 0.8, 0.7, 0.3, 0.2, 0.4, 0.1, 0.5]
        let present: [Bool?] = [false, false, false, false, true, true, true, nil]
        let row = AttributeSeparation.row(
            output: "eyes.left_open", values: values, attribute: "attr.eyes_closed", present: present)
        #expect(row.direction == "higher-without")
        #expect(abs(row.auc - 11.0 / 12) < 1e-12)
        #expect(row.bonaFide == 4 && row.attacks == 3)
        // Read the other way (an output higher with the attribute) it is lower-without.
        let flipped = AttributeSeparation.row(
            output: "x", values: values.map { -$0 }, attribute: "attr.eyes_closed", present: present)
        #expect(flipped.direction == "lower-without" && abs(flipped.auc - 11.0 / 12) < 1e-12)
    }

    @Test func categoriesBecomeBinaryAttributes() {
        let split = AttributeSeparation.binaryAttributes(
            name: "attr.illumination", values: ["dark", "normal", "", "dark"])
        #expect(split.map(\.name) == ["attr.illumination=dark", "attr.illumination=normal"])
        #expect(split[0].present == [true, false, nil, true])
        #expect(
            AttributeSeparation.binaryAttributes(name: "attr.hat", values: ["0", "1", ""]).map(\.name) == ["attr.hat"])
        #expect(AttributeSeparation.binaryAttributes(name: "attr.hat", values: ["1", "1"]).isEmpty)
    }
}

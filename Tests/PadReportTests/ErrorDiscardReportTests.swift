import PadReport
import Testing

/// edc.csv rows and the report section for one output on the hand-made bona fide of
/// ErrorDiscardTests (values from Tests/PadMetricsTests/Fixtures/differentials/edc.py) and two
/// attacks of one species.
@Suite struct ErrorDiscardReportTests {
    @Test func rowsAndSection() {
        let quality = [0.1, 0.2, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.1, 0.9]
        let rejected = [true, false, true, false, false, true, false, false, false, false]
        let accepted = rejected.map { !$0 } + [true, false]
        let analysis = ErrorDiscardReport.Analysis(
            profile: "p", split: "eval", output: "quality.sharpness", quality: quality,
            species: Array(repeating: -1, count: 10) + [0, 0], accepted: accepted, speciesCount: 1)
        #expect(abs(analysis.bpcerArea - 47.0 / 900) < 1e-12)
        // Attacks: 1/2 accepted at first, 0/1 once the 0.1 one is discarded (f = 0.5).
        #expect(analysis.apcerMax.map(\.error) == [0.5, 0])
        let rows = ErrorDiscardReport.rows([analysis])
        #expect(rows.allSatisfy { $0.count == ErrorDiscardReport.header.count })
        let first = rows.first { $0[3] == "curve" && $0[4] == "bpcer" }
        #expect(
            first?[5] == "0" && first?[6] == "-inf" && first?[8] == "0.3" && first?[10] == "3" && first?[11] == "10")
        let area = rows.first { $0[3] == "area" && $0[4] == "bpcer" }
        #expect(area.map { Double($0[8])! }.map { abs($0 - 47.0 / 900) < 1e-12 } == true)
        // Deciles over all 12 qualities: the lowest band holds the two 0.1s (a bona fide rejected
        // and an attack accepted).
        let lowest = rows.filter { $0[3] == "decile" && $0[5] == "1" }
        #expect(
            lowest.map { [$0[4], $0[8], $0[10], $0[11]] } == [["bpcer", "1", "1", "1"], ["apcer_max", "1", "1", "1"]])
        let html = ErrorDiscardReport.section([analysis])
        #expect(html.contains("<svg") && html.contains("quality.sharpness") && html.contains("ideal"))
    }
}

import PadArchive
import PadMetrics
import PadReport
import Testing

/// fairness.csv rows of three hand-made groups, worked by hand: BPCER 0.1, 0.3, 0.2; APCER_max
/// 0.2 (print), 0.2 (replay 1/5), 0.4 (print). FDR = 1 - (0.5 * 0.2 + 0.5 * 0.2) = 0.8; Gini of
/// APCER_max = 3/2 * 0.8 / (2 * 9 * 0.8/3) = 1/4, of BPCER 1/3 (DemographicDifferentialsTests);
/// GARBE = (1/4 + 1/3) / 2 = 7/24; ratios 3 and 2.
@Suite struct FairnessReportTests {
    static func characteristic() -> FairnessReport.Characteristic {
        var groups: [DemographicDifferentials.GroupCounts] = []
        for (name, bf, print, replay) in [("A", 1, 2, 0), ("B", 3, 1, 1), ("C", 2, 4, 0)] {
            var g = DemographicDifferentials.GroupCounts(group: name, speciesCount: 2)
            g.bpcer = Proportion(errors: bf, total: 10)
            g.apcer = [Proportion(errors: print, total: 10), Proportion(errors: replay, total: 5)]
            groups.append(g)
        }
        return FairnessReport.Characteristic(
            profile: "p", split: "eval", level: "presentation", name: "group.sex", speciesNames: ["print", "replay"],
            groups: groups, alpha: 0.5)
    }

    @Test func rowsOfThreeGroups() {
        let rows = FairnessReport.rows([Self.characteristic()])
        func value(_ group: String, _ metric: String, _ species: String = "") -> [String]? {
            rows.first { $0[4] == group && $0[5] == metric && $0[6] == species }
        }
        func number(_ row: [String]?) -> Double { row.flatMap { Double($0[7]) } ?? .nan }
        #expect(abs(number(value("", "fdr")) - 0.8) < 1e-12 && value("", "fdr")?[12] == "alpha=0.5")
        #expect(abs(number(value("", "garbe")) - 7.0 / 24) < 1e-12)
        #expect(value("", "bpcer_max_min_ratio")?[7] == "3")
        #expect(value("", "apcer_max_max_min_ratio")?[7] == "2")
        #expect(value("", "groups")?[7] == "3")
        // Group B: replay 1/5 = 0.2 is its worst species (print 1/10).
        #expect(value("B", "apcer_max", "replay")?[7] == "0.2")
        let bpcerA = value("A", "bpcer")
        let ci = ClopperPearson.interval(errors: 1, total: 10, confidence: 0.95)
        #expect(bpcerA?[7...11].map { $0 } == ["0.1", "1", "10", CSVFormat.number(ci.low), CSVFormat.number(ci.high)])
        #expect(rows.allSatisfy { $0.count == FairnessReport.header.count })
        let html = FairnessReport.section([Self.characteristic()])
        #expect(html.contains("Demographic differentials") && html.contains("0.8"))
    }

    /// Each group's subject count: a `subjects` row (flagged when under 2) and a column of the
    /// report's group table with a note naming the one-person groups; unknown without subjects.
    @Test func groupsStateTheirSubjects() {
        var c = Self.characteristic()
        c.groups[0].subjects = 12
        c.groups[1].subjects = 1
        c.groups[2].subjects = 3
        let rows = FairnessReport.rows([c]).filter { $0[5] == "subjects" }.map { [$0[4], $0[7], $0[12]] }
        #expect(rows == [["A", "12", ""], ["B", "1", "fewer than 2 subjects"], ["C", "3", ""]])
        let html = FairnessReport.section([c])
        #expect(html.contains("<td>1 (fewer than 2: one person's rates)</td>"), "\(html)")
        #expect(html.contains("Groups of fewer than 2 subjects (group.sex=B)"))
        #expect(FairnessReport.rows([Self.characteristic()]).allSatisfy { $0[5] != "subjects" })
        #expect(FairnessReport.section([Self.characteristic()]).contains("<td>unknown</td>"))
    }

    /// issue 30: the section shows FDR, GARBE and the ratios to 3 decimals (GARBE 7/24 =
    /// 0.291666...: `0.292`), while fairness.csv keeps every digit. On main at 8063f82 the table
    /// showed `0.29166666666666663`.
    @Test func sectionRoundsForDisplay() {
        let html = FairnessReport.section([Self.characteristic()])
        let row =
            "<tr><td>p</td><td>group.sex</td><td class=\"num\">3</td><td class=\"num\">3</td>"
            + "<td class=\"num\">2</td><td class=\"num\">0.8</td><td class=\"num\">0.292</td></tr>"
        #expect(html.contains(row), "\(html)")
        #expect(!html.contains("0.2916"))
        let garbe = FairnessReport.rows([Self.characteristic()]).first { $0[5] == "garbe" }
        #expect(garbe?[7].hasPrefix("0.29166666") == true, "\(garbe ?? [])")
    }

    @Test func figuresForPeople() {
        #expect(
            [1.0 / 3, 3, 0.5, 0, .infinity, .nan, 0.0004, -0.25, 2.0006, 1e-12].map(RateText.figure)
                == ["0.333", "3", "0.5", "0", "inf", "", "<0.001", "-0.25", "2.001", "<0.001"])
    }

    /// issue 30: a plot's threshold label has 4 significant digits (`EER t=291.9066964052421` of
    /// the sample's sharpness ran into the profile's label in report-shots).
    @Test func plotThresholdsAreShort() {
        #expect(
            [291.9066964052421, 15, 0.55, 0.123456, -3.14159, 1e-7, .infinity].map(RateText.plotThreshold)
                == ["291.9", "15", "0.55", "0.1235", "-3.142", "1e-07", "above every score"])
    }
}

import Foundation
import PadArchive
import PadBench
import PadMetrics
import PadReport
import Testing

/// d', pyeer's zero-error points and the AUC of an `eval --scores` run, read back from the files
/// a user reads (metrics.csv, summary.csv, results.json), against the values scikit-learn 1.9.1
/// and pyeer 0.5.6 gave for the same scores: the score sets and reference JSON of
/// Tests/PadMetricsTests/Fixtures/golden (make_golden_roc_fusion.py; generic `id,label,species,score`
/// files, an empty score a failure to process).
@Suite struct SeparationReferenceTests {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("PadMetricsTests/Fixtures/golden").path

    /// The reference values, repr() strings turned back into exact Doubles.
    static func reference(_ name: String) throws -> [String: Any] {
        func exact(_ value: Any) -> Any {
            if let text = value as? String, let number = Double(text) { return number }
            if let dict = value as? [String: Any] { return dict.mapValues(exact) }
            return value
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: golden + "/\(name).json"))
        return exact(try JSONSerialization.jsonObject(with: data)) as! [String: Any]
    }

    /// d' and the AUC are sums (NumPy sums pairwise, padbench in order; sklearn's trapezoid against
    /// padbench's Mann-Whitney count): equal to rounding.
    static func close(_ a: Double?, _ b: Double) -> Bool { a.map { abs($0 - b) <= 1e-12 * max(1, abs(b)) } ?? false }

    /// The file with every score negated, read as attack-high: the same run, thresholds shown
    /// negated (in the file's polarity).
    static func negated(_ name: String, into folder: String) throws -> String {
        let text = try String(contentsOfFile: golden + "/\(name).csv", encoding: .utf8)
        var lines = text.split(separator: "\n").map(String.init)
        for i in lines.indices.dropFirst() {
            var fields = lines[i].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            if let score = Double(fields[3]) { fields[3] = "\(-score)" }
            lines[i] = fields.joined(separator: ",")
        }
        let path = folder + "/\(name)_negated.csv"
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test(arguments: ["roc_ties_nan", "roc_continuous", "roc_small"])
    func bonaFideHighFileGivesTheReferenceValues(_ name: String) throws {
        let outcome = try EvalRunner().evaluateScores(
            .init(scoreFiles: [Self.golden + "/\(name).csv"], outputFolder: Fixture.folder(name) + "/run"))
        try Self.check(outcome.folder, try Self.reference(name), sign: 1, name)
    }

    /// roc_ties_nan: two species, ties across classes, NaN in both classes, and an attack tied
    /// with a bona fide at the highest score, so pyeer's ZeroFMR point keeps APCER at 1/45.
    @Test func attackHighFileShowsThresholdsInItsPolarity() throws {
        let folder = Fixture.folder()
        let path = try Self.negated("roc_ties_nan", into: folder)
        let outcome = try EvalRunner().evaluateScores(
            .init(scoreFiles: [path], polarity: .attackHigh, outputFolder: folder + "/run"))
        try Self.check(outcome.folder, try Self.reference("roc_ties_nan"), sign: -1, "roc_ties_nan negated")
    }

    static func check(_ folder: String, _ expected: [String: Any], sign: Double, _ name: String) throws {
        let nBonaFide = expected["n_bonafide"] as! Int, nAttack = expected["n_attack"] as! Int
        let d = (expected["decidability"] as! [String: Any])["value"] as! Double
        let auc = expected["auc"] as! Double
        let zeroFMR = expected["zero_fmr"] as! [String: Any], zeroFNMR = expected["zero_fnmr"] as! [String: Any]

        // metrics.csv: each value with its counts and Clopper-Pearson interval.
        let long = try MetricsTableTests.longRows(folder + "/metrics.csv")
        func row(_ metric: String, _ method: String = "") throws -> [String: String] {
            try #require(
                long[["scores", "all", "presentation", "", "", metric, method].joined(separator: "|")],
                "\(name) \(metric)")
        }
        #expect(close(Double(try row("d_prime")["value"]!), d), "\(name) d'")
        #expect(close(Double(try row("auc")["value"]!), auc), "\(name) AUC")
        let cp = MetricsTable.clopperPearson
        let proportions: [(String, Int, Int, Double)] = [
            ("bpcer@apcer=0", zeroFMR["fnm"] as! Int, nBonaFide, zeroFMR["fnmr"] as! Double),
            ("bpcer@apcer=0_apcer_pooled", zeroFMR["fm"] as! Int, nAttack, zeroFMR["fmr"] as! Double),
            ("apcer@bpcer=0", zeroFNMR["fm"] as! Int, nAttack, zeroFNMR["fmr"] as! Double),
            ("apcer@bpcer=0_bpcer", zeroFNMR["fnm"] as! Int, nBonaFide, zeroFNMR["fnmr"] as! Double),
        ]
        for (metric, errors, n, value) in proportions {
            let r = try row(metric, cp)
            #expect(r["errors"] == String(errors) && r["n"] == String(n), "\(name) \(metric) counts")
            #expect(Double(r["value"]!) == value, "\(name) \(metric)")
            let interval = Proportion(errors: errors, total: n).interval
            #expect(Double(r["ci_low"]!) == interval.low && Double(r["ci_high"]!) == interval.high, "\(name) \(metric)")
        }

        // summary.csv: values and thresholds (the exact scores pyeer chose, in the file's polarity).
        let summary = try #require(try MetricsTableTests.wideRows(folder + "/summary.csv").first)
        #expect(close(Double(summary["d_prime"]!), d), "\(name) summary d'")
        #expect(Double(summary["bpcer@apcer=0"]!) == zeroFMR["fnmr"] as! Double, "\(name)")
        #expect(Double(summary["bpcer@apcer=0_apcer_pooled"]!) == zeroFMR["fmr"] as! Double, "\(name)")
        #expect(Double(summary["bpcer@apcer=0_threshold"]!) == sign * (zeroFMR["threshold"] as! Double), "\(name)")
        #expect(Double(summary["apcer@bpcer=0"]!) == zeroFNMR["fmr"] as! Double, "\(name)")
        #expect(Double(summary["apcer@bpcer=0_bpcer"]!) == zeroFNMR["fnmr"] as! Double, "\(name)")
        #expect(Double(summary["apcer@bpcer=0_threshold"]!) == sign * (zeroFNMR["threshold"] as! Double), "\(name)")

        // results.json (Foundation's JSON number parser on Linux is not correctly rounded: values to
        // rounding, counts exact).
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/results.json")))
        let set = try #require(try RunSummary.decode(from: bytes, path: "results.json").profiles.first).reported
        #expect(close(set.dPrime, d) && close(set.auc, auc), "\(name) results.json d', AUC")
        for (point, reference) in [(set.bpcerAtZeroAPCER, zeroFMR), (set.apcerAtZeroBPCER, zeroFNMR)] {
            let point = try #require(point, "\(name) results.json zero-error point")
            #expect(close(point.threshold, sign * (reference["threshold"] as! Double)), "\(name)")
            #expect(point.bpcer?.errors == reference["fnm"] as? Int && point.bpcer?.total == nBonaFide, "\(name)")
            #expect(point.apcerPooled?.errors == reference["fm"] as? Int && point.apcerPooled?.total == nAttack)
            #expect(close(point.bpcer?.value, reference["fnmr"] as! Double), "\(name)")
            #expect(close(point.apcerPooled?.value, reference["fmr"] as! Double), "\(name)")
        }
    }
}

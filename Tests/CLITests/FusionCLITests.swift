import Foundation
import Testing

/// A profile whose swept score is a fused score, run as a user runs it: a vendor's export of three
/// outputs imported onto a dataset with dev and eval, fused by logistic regression trained on dev
/// and calibrated at dev's EER. The data and the reference values are ScoreFusionTests' fixture
/// (`fusion_dev_eval.csv` and `.json`, made by `make_golden_roc_fusion.py` with scikit-learn's
/// StandardScaler and LogisticRegression(C=1e6)).
@Suite struct FusionCLITests {
    typealias CLI = CommandLineTests
    static let fixtures = VulnerabilityCLITests.fixtures

    /// The fixture as a manifest dataset (no image is read by an import), a long-CSV export
    /// (`vendorx.a`, `.b`, `.c`; an empty value is left out, so the output is NaN) and the profile.
    static func files(_ dir: String) throws -> [[String: String]] {
        let rows = try csvRows(fixtures + "/fusion_dev_eval.csv")
        var manifest = "path,label,species,split,subject\n", export = "id,output,value\n"
        for row in rows {
            let id = row["id"]! + ".jpg"
            manifest += "\(id),\(row["label"]!),\(row["label"] == "attack" ? "print" : ""),\(row["split"]!),\n"
            for name in ["a", "b", "c"] where !row["out_" + name]!.isEmpty {
                export += "\(id),vendorx.\(name),\(row["out_" + name]!)\n"
            }
        }
        try FileManager.default.createDirectory(atPath: dir + "/data", withIntermediateDirectories: true)
        try manifest.write(toFile: dir + "/data/manifest.csv", atomically: true, encoding: .utf8)
        try export.write(toFile: dir + "/export.csv", atomically: true, encoding: .utf8)
        try """
        name: fused
        source: test
        score: {name: fused.live, fusion: logistic, outputs: [vendorx.a, vendorx.b, vendorx.c]}
        gates:
          - {output: fused.live, calibrate: {criterion: eer}, code: ATTACK}
        """.write(toFile: dir + "/fused.yaml", atomically: true, encoding: .utf8)
        return rows
    }

    static func csvRows(_ path: String) throws -> [[String: String]] {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
            $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        return lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(lines[0], $0)) }
    }

    static func profile(_ path: String) throws -> [String: Any] {
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        return try #require(((json as? [String: Any])?["profiles"] as? [[String: Any]])?.first)
    }

    static func number(_ any: Any?) -> Double { (any as? String).flatMap(Double.init) ?? (any as? Double) ?? .nan }

    @Test func logisticFusionEqualsScikitLearnAndReDecidesTheSame() throws {
        let dir = CLI.folder()
        let rows = try Self.files(dir)
        let run = try CLI.run([
            "import", "long-csv", "--dataset", dir + "/data", "--input", dir + "/export.csv", "--profiles",
            dir + "/fused.yaml", "--out", dir + "/run",
        ])
        #expect(run.status == 0, "\(run.out)\(run.err)")
        #expect(
            run.out.contains("note: profile fused: fused score fused.live: logistic fusion of vendorx.a, vendorx.b"))
        let reference = try #require(
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: Self.fixtures + "/fusion_dev_eval.json")))
                as? [String: Any])
        let logistic = try #require(reference["logistic"] as? [String: Any])
        let scaler = try #require(reference["scaler"] as? [String: Any])

        // The weights results.json records are scikit-learn's (lbfgs stops at its tolerance).
        let profile = try Self.profile(dir + "/run/results.json")
        let fusion = try #require(profile["fusion"] as? [String: Any])
        let trained = try #require(fusion["trained"] as? [String: Any])
        #expect(fusion["split"] as? String == "dev")
        let weights = (trained["weights"] as? [Any] ?? []).map(Self.number)
        let coef = (logistic["coef"] as? [Any] ?? []).map(Self.number)
        #expect(weights.count == 3 && zip(weights, coef).allSatisfy { abs($0 / $1 - 1) < 1e-7 }, "\(weights) \(coef)")
        #expect(abs(Self.number(trained["intercept"]) - Self.number(logistic["intercept"])) < 1e-8)
        let means = (trained["normalisations"] as? [[String: Any]] ?? []).map { Self.number($0["mean"]) }
        let scalerMeans = (scaler["mean"] as? [Any] ?? []).map(Self.number)
        #expect(means.count == 3 && zip(means, scalerMeans).allSatisfy { abs($0 / $1 - 1) < 1e-14 })
        #expect(trained["trainingBonaFide"] as? Int == 31 && trained["trainingFailed"] as? Int == 1)

        // Every eval decision is scikit-learn's decision_function against the calibrated
        // threshold (a NaN output: not assessable, rejected).
        let threshold = try #require((profile["calibratedThresholds"] as? [Any])?.first).map(Self.number)!
        let function = (((logistic["decision_function"] as? [String: Any])?["eval"]) as? [Any] ?? []).map(Self.number)
        let decided = try Self.csvRows(dir + "/run/decisions.csv").filter { $0["split"] == "eval" }
        let evalRows = rows.filter { $0["split"] == "eval" }
        #expect(decided.count == 62 && function.count == 62)
        for (k, row) in evalRows.enumerated() where function[k].isNaN || abs(function[k] - threshold) > 1e-6 {
            let decision = try #require(decided.first { $0["id"] == row["id"]! + ".jpg" })
            #expect(decision["accepted"] == (function[k] >= threshold ? "1" : "0"), "\(row["id"]!)")
        }

        // The same threshold as padbench's EER rule on scikit-learn's own fused dev scores.
        var scores = "id,label,species,score,split\n"
        for split in ["dev", "eval"] {
            let values = (((logistic["decision_function"] as? [String: Any])?[split]) as? [Any] ?? []).map(Self.number)
            for (k, row) in rows.filter({ $0["split"] == split }).enumerated() {
                scores +=
                    "\(row["id"]!),\(row["label"]!),\(row["label"] == "attack" ? "print" : ""),"
                    + "\(values[k].isNaN ? "" : "\(values[k])"),\(split)\n"
            }
        }
        try scores.write(toFile: dir + "/sklearn.csv", atomically: true, encoding: .utf8)
        #expect(try CLI.run(["eval", "--scores", dir + "/sklearn.csv", "--out", dir + "/sklearn"]).status == 0)
        let sklearn = try Self.profile(dir + "/sklearn/results.json")
        let sklearnThreshold = (sklearn["calibratedThresholds"] as? [Any])?.first.map(Self.number) ?? .nan
        #expect(abs(threshold - sklearnThreshold) < 1e-6, "\(threshold) \(sklearnThreshold)")

        // Re-deciding the stored run trains the same fusion; compare re-derives the swept scores.
        let again = try CLI.run([
            "eval", "--archive", dir + "/run/results.tar.zst", "--profiles", dir + "/fused.yaml", "--out",
            dir + "/again",
        ])
        #expect(again.status == 0, "\(again.err)")
        let redecided = try Self.profile(dir + "/again/results.json")
        #expect(NSDictionary(dictionary: redecided["fusion"] as? [String: Any] ?? [:]).isEqual(to: fusion))
        #expect(
            NSDictionary(dictionary: redecided["reported"] as? [String: Any] ?? [:])
                .isEqual(to: profile["reported"] as? [String: Any] ?? [:]))
        let compare = try CLI.run(["compare", dir + "/run", dir + "/again"])
        #expect(compare.status == 0, "\(compare.out)\(compare.err)")

        // Recorded weights that are not the ones the measurements train: the archive was edited.
        let edited = dir + "/edited.tar.zst"
        try StoredRunCLITests.edited(dir + "/run/results.tar.zst", "results.json", edited) { text in
            text.replacingOccurrences(of: "\(weights[0])", with: "\(weights[0] * 2)")
        }
        let refused = try CLI.run(["compare", dir + "/run", edited])
        #expect(refused.status == 2, "\(refused.out)\(refused.err)")
        #expect(
            refused.err.hasSuffix("or its fused score's weights differ; the archive was edited\n"), "\(refused.err)")
    }

    /// Wrong files are named: a fused output the export lacks, and an export claiming `fused.*`.
    @Test func wrongFusionsAreRefusedWithTheirPlace() throws {
        let dir = CLI.folder()
        _ = try Self.files(dir)
        let profile = try String(contentsOfFile: dir + "/fused.yaml", encoding: .utf8)
        try profile.replacingOccurrences(of: "vendorx.c]", with: "vendorx.d]").write(
            toFile: dir + "/bad.yaml", atomically: true, encoding: .utf8)
        let unknown = try CLI.run([
            "import", "long-csv", "--dataset", dir + "/data", "--input", dir + "/export.csv", "--profiles",
            dir + "/bad.yaml", "--out", dir + "/bad",
        ])
        #expect(unknown.status == 1)
        #expect(
            unknown.err.contains("bad.yaml:3:77: unknown output `vendorx.d`; did you mean `vendorx.a`?"),
            "\(unknown.err)")
        let export = try String(contentsOfFile: dir + "/export.csv", encoding: .utf8)
        try (export + "dev000.jpg,fused.live,1\n").write(toFile: dir + "/claims.csv", atomically: true, encoding: .utf8)
        let claims = try CLI.run([
            "import", "long-csv", "--dataset", dir + "/data", "--input", dir + "/claims.csv", "--profiles",
            dir + "/fused.yaml", "--out", dir + "/claims",
        ])
        #expect(claims.status == 1)
        #expect(
            claims.err.contains(
                "claims.csv:\(export.split(separator: "\n").count + 1): output 'fused.live': the estimator name `fused` "
                    + "is reserved for a profile's fused score"), "\(claims.err)")
        #expect(
            !FileManager.default.fileExists(atPath: dir + "/claims")
                && !FileManager.default.fileExists(atPath: dir + "/bad"))
    }
}

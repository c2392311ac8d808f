import Foundation
@testable import PadMetrics

/// The files Fixtures/golden/make_golden_roc_fusion.py wrote (scikit-learn 1.9.1, pyeer 0.5.6):
/// score sets in padbench's generic CSV and their reference values, and the fusion dev/eval set.
enum RocFusionFixtures {
    static let scoreSets = ["roc_ties_nan", "roc_continuous", "roc_small"]

    static var folder: String { Bundle.module.url(forResource: "Fixtures/golden", withExtension: nil)!.path }

    /// A JSON file with its repr() strings turned back into exact Doubles (`null` stays `NSNull`).
    static func json(_ name: String) throws -> Any {
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/\(name).json"))
        return GoldenTests.exactNumbers(try JSONSerialization.jsonObject(with: data))
    }

    /// A score set read by padbench's own reader, and its reference values.
    static func scoreSet(_ name: String) throws -> (ScoreSet, [String: Any]) {
        let scores = try ScoreFileReader().read([folder + "/\(name).csv"])
        return (scores.set, try json(name) as! [String: Any])
    }

    /// A reference number that may be `null` (NaN in Python).
    static func number(_ value: Any) -> Double { value as? Double ?? .nan }

    /// |a - b| <= tolerance, NaN equal to NaN.
    static func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-12) -> Bool {
        (a.isNaN && b.isNaN) || abs(a - b) <= tolerance
    }

    /// |a - b| <= tolerance * |b|.
    static func relativelyClose(_ a: Double, _ b: Double, _ tolerance: Double) -> Bool {
        abs(a - b) <= tolerance * abs(b)
    }

    /// fusion_dev_eval.csv: id,split,label,out_a,out_b,out_c (an empty value is NaN). Outputs are
    /// returned one array per output, samples in file order.
    struct FusionSplit {
        var outputs: [[Double]] = [[], [], []]
        var isBonaFide: [Bool] = []
    }

    static func fusionSplits() throws -> (dev: FusionSplit, eval: FusionSplit) {
        let text = try String(contentsOfFile: folder + "/fusion_dev_eval.csv", encoding: .utf8)
        var dev = FusionSplit(), eval = FusionSplit()
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            precondition(fields.count == 6, "fusion_dev_eval.csv: six fields per line")
            let values = fields[3...].map { Double($0) ?? .nan }
            let isBonaFide = fields[2] == "bonafide"
            if fields[1] == "dev" {
                for j in 0..<3 { dev.outputs[j].append(values[j]) }
                dev.isBonaFide.append(isBonaFide)
            } else {
                for j in 0..<3 { eval.outputs[j].append(values[j]) }
                eval.isBonaFide.append(isBonaFide)
            }
        }
        return (dev, eval)
    }
}

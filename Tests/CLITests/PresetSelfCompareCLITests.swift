import Foundation
import Testing

/// Every preset's run compared with itself and plotted, with and without a PAD model: a run always
/// agrees with itself. Before the swept score followed its gate's approximation, `luna-id-default`
/// and `luna-id-osl` with `--model` exited 2 ("the EER recomputed from samples.csv is not the one
/// results.json reports (none); the archive was edited").
@Suite struct PresetSelfCompareCLITests {
    static let presets = [
        "aware-capture", "basic", "dot-default", "idemia-high", "idemia-low", "idemia-medium", "idemia-status",
        "luna-id-default", "luna-id-osl", "luna-osl", "minifasnet", "misnap-default", "misnap-high-risk",
        "misnap-mibi",
    ]

    /// Eight stills of the sample: per split (dev, eval) two bona fide, one print, one replay.
    static func dataset() throws -> String {
        let sample = NetworksCLITests.root + "/datasets/sample"
        let dir = CommandLineTests.folder()
        let rows = try String(contentsOfFile: sample + "/manifest.csv", encoding: .utf8).split(separator: "\n")
        var chosen: [Substring] = [rows[0]]
        var wanted = [
            "dev,bonafide": 2, "eval,bonafide": 2, "dev,print": 1, "eval,print": 1, "dev,replay": 1, "eval,replay": 1,
        ]
        for row in rows.dropFirst() {
            let fields = row.split(separator: ",", omittingEmptySubsequences: false)
            guard fields[0].hasSuffix(".jpg") else { continue }
            let key = "\(fields[3]),\(fields[1] == "bonafide" ? "bonafide" : String(fields[2]))"
            guard let left = wanted[key], left > 0 else { continue }
            wanted[key] = left - 1
            chosen.append(row)
            let path = String(fields[0])
            try FileManager.default.createDirectory(
                atPath: dir + "/" + (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: sample + "/" + path, toPath: dir + "/" + path)
        }
        try (chosen.joined(separator: "\n") + "\n").write(
            toFile: dir + "/manifest.csv", atomically: true, encoding: .utf8)
        return dir
    }

    @Test func everyPresetComparesEqualToItselfAndPlots() throws {
        let dir = try Self.dataset()
        let train = try CommandLineTests.run([
            "train", "--dataset", dir, "--split", "dev", "--out", dir + "/model.json",
        ])
        #expect(train.status == 0, "\(train.err)")
        for model in [false, true] {
            let run = dir + (model ? "/with-model" : "/without-model")
            let bench = try CommandLineTests.run(
                ["bench", "--dataset", dir, "--profiles", Self.presets.joined(separator: ","), "--quiet", "--out", run]
                    + (model ? ["--model", dir + "/model.json"] : []))
            #expect(bench.status == 0, "\(bench.err)")
            let compare = try CommandLineTests.run(["compare", run, run])
            #expect(compare.status == 0, "model \(model): \(compare.err)")
            let plot = try CommandLineTests.run(["plot", run, "--out", run + "-plot"])
            #expect(plot.status == 0, "model \(model): \(plot.err)")
        }
        // With the model, LUNA's liveness gate was decided on pad.score and that is what is swept (here
        // nothing passes LUNA's 200 px box, so the note says why there is no curve), never "score
        // luna.liveness was not measured in this run".
        let summary = try String(contentsOfFile: dir + "/with-model/summary.csv", encoding: .utf8)
            .split(separator: "\n").map { Self.fields(String($0)) }
        let header = summary[0]
        let luna = try #require(summary.first { $0.first == "luna-id-default" && $0.contains("eval") })
        let note = luna[header.firstIndex(of: "note")!]
        #expect(note.hasPrefix("pad.score: ") && !note.contains("was not measured"), "\(note)")
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// The fields of one CSV line (RFC 4180 quotes; no line breaks inside fields in summary.csv).
    static func fields(_ line: String) -> [String] {
        var fields: [String] = [], field = "", quoted = false
        var characters = Array(line)[...]
        while let c = characters.popFirst() {
            if quoted {
                if c == "\"" {
                    if characters.first == "\"" { field.append("\""); characters.removeFirst() } else { quoted = false }
                } else {
                    field.append(c)
                }
            } else if c == "\"" {
                quoted = true
            } else if c == "," {
                fields.append(field)
                field = ""
            } else {
                field.append(c)
            }
        }
        return fields + [field]
    }
}

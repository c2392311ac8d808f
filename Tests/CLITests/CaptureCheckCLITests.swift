import Foundation
import Testing

/// A capture-only profile (no liveness gate, no liveness score) reads as what it is: `bench`
/// prints its reject rates in a table of its own with no APCER headline, `summary.csv` has
/// `liveness_decision` 0 and `capture_only` 1, `results.json` `captureOnly`, `report.html` a flag.
/// Before, `basic`'s row read "APCER_max 100%" with `liveness_decision = 1`.
@Suite struct CaptureCheckCLITests {
    typealias CLI = CommandLineTests

    @Test func basicIsACaptureCheckEverywhere() throws {
        let dir = CLI.folder()
        let run = dir + "/run"
        let bench = try CLI.run(
            [
                "bench", "--dataset", "datasets/sample", "--profiles", "basic", "--estimators", "quality", "--quiet",
                "--out", run,
            ],
            in: ProfileOutputsCLITests.root)
        #expect(bench.status == 0, "\(bench.err)")
        #expect(bench.out.contains("capture checks (no liveness gate"), "\(bench.out)")
        #expect(!bench.out.contains("APCER_max (n)"), "\(bench.out)")
        #expect(!bench.err.contains("not a liveness decision"), "\(bench.err)")
        let row = try #require(bench.out.split(separator: "\n").first { $0.hasPrefix("basic") })
        #expect(row.contains("eval") && row.contains("(quality.sharpness)"), "\(row)")
        let summary = try String(contentsOfFile: run + "/summary.csv", encoding: .utf8).split(separator: "\n")
        let header = summary[0].split(separator: ",", omittingEmptySubsequences: false)
        let fields = summary[1].split(separator: ",", omittingEmptySubsequences: false)
        #expect(header.last == "capture_only" && fields.last == "1")
        let liveness = try #require(header.firstIndex(of: "liveness_decision"))
        #expect(fields[liveness] == "0")
        let results = try String(contentsOfFile: run + "/results.json", encoding: .utf8)
        #expect(results.contains("\"captureOnly\" : true"))
        let html = try String(contentsOfFile: run + "/report.html", encoding: .utf8)
        #expect(html.contains("capture check: reject rates, not a liveness decision"))
        #expect(html.contains("attacks let through by the capture checks"))
        #expect(html.contains("bona fide turned away by the capture checks"))
        // One subject per class (the sample's eval split): the EER cell has no subject interval,
        // as the rates' cells (it showed a zero-width [x%, x%]).
        let verdict = html.components(separatedBy: "<h2>APCER per species</h2>")[0]
        #expect(!verdict.contains("subjects 95% ["), "\(verdict)")
        let show = try CLI.run(["show", run])
        #expect(show.out.contains("capture check: reject rates, not a liveness decision"), "\(show.out)")
        try? FileManager.default.removeItem(atPath: dir)
    }
}

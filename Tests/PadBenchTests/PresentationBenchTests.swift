import Foundation
import Testing
@testable import PadArchive
@testable import PadBench
@testable import PadEvaluation
@testable import PadProfiles

/// bench on a manifest whose lines are frames of presentations: samples.csv carries them,
/// timing.csv has a per-presentation row, the headline counts presentations, and eval --archive
/// reads them back.
@Suite struct PresentationBenchTests {
    /// The 8 images of writeSharpAndBlurred as 4 presentations of 2 frames: b0+b1, b2+b3, a0+a1, a2+a3.
    static func addPresentations(_ root: String) throws {
        var lines = try String(contentsOfFile: root + "/manifest.csv", encoding: .utf8).split(separator: "\n")
        lines[0] += ",presentation"
        for k in 1..<lines.count {
            let path = lines[k].split(separator: ",")[0]
            let i = Int(String(path.dropFirst().prefix(1)))!
            lines[k] += ",\(path.first!)\(i / 2)"
        }
        try (lines.joined(separator: "\n") + "\n").write(
            toFile: root + "/manifest.csv", atomically: true, encoding: .utf8)
    }

    @Test func benchCountsPresentationsAndTimesThem() async throws {
        let root = Fixture.folder()
        let outcome = try await ReportOutputsTests.benchRun(root, prepare: Self.addPresentations)
        #expect(outcome.table.hasPresentations)
        let result = outcome.results[0]
        #expect(result.reported.bonaFideCount == 2 && result.reported.attackCount == 2)
        let samples = try String(contentsOfFile: outcome.folder + "/samples.csv", encoding: .utf8)
        #expect(samples.hasPrefix("id,path,label,species,split,subject,presentation,frame,time,status,error,"))
        #expect(samples.contains(",bonafide,,,s0,b0,,,ok,"))
        // One presentation_total row, over the 4 presentations (each frame's decode + quality).
        let timing = try String(contentsOfFile: outcome.folder + "/timing.csv", encoding: .utf8)
        let row = try #require(timing.split(separator: "\n").first { $0.hasPrefix("presentation_total,") })
        #expect(row.split(separator: ",")[1] == "4")
        #expect(timing.split(separator: "\n").contains { $0.hasPrefix("sample_total,8,") })
        let frames = try String(contentsOfFile: outcome.folder + "/frames/summary.csv", encoding: .utf8)
        #expect(frames.split(separator: "\n")[1].hasPrefix("sharp,test,all,4,4,0,"))

        // Re-decided from the archive: the presentations come back from samples.csv.
        let again = try EvalRunner().evaluateArchive(
            outcome.archivePath, profiles: [result.profile], outputFolder: root + "/again", commandLine: [])
        #expect(again.table.hasPresentations)
        #expect(again.results[0].reported.bonaFideCount == 2)
        #expect(again.results[0].reported.headline?.bpcer == result.reported.headline?.bpcer)
        #expect(again.results[0].reported.headline?.apcer == result.reported.headline?.apcer)
    }
}
